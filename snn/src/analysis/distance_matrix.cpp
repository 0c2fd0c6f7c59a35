// All-pairs distance matrices, parallel over pairs on OpenMP threads.

#include <volley/snn/analysis/distances.hpp>

#include "analysis/kreuz_pairs.hpp"
#include "analysis/pair_terms.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

namespace volley::snn::analysis {

namespace {

// The ISI- or SPIKE-distance of every pair i < j by `kernel`, in groups of pairs (whole walks
// of the vector kernels) spread over the threads.
void kreuz_matrix(detail::kreuz_pairs_kernel kernel,
                  const std::vector<std::unique_ptr<detail::kreuz_knots>>& knotted,
                  const distance_options& options, std::vector<double>& out) {
    const std::size_t n = knotted.size();
    std::vector<detail::knots_pair> pairs;
    pairs.reserve(n * (n - 1) / 2);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            pairs.push_back({knotted[i].get(), knotted[j].get()});
    std::vector<double> d(pairs.size());
    constexpr std::size_t group = 32;
    const auto groups = static_cast<long long>((pairs.size() + group - 1) / group);
#pragma omp parallel for schedule(dynamic, 1)
    for (long long g = 0; g < groups; ++g) {
        const std::size_t first = static_cast<std::size_t>(g) * group;
        kernel(std::span(pairs).subspan(first, std::min(group, pairs.size() - first)),
               options.kreuz, d.data() + first);
    }
    std::size_t p = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j, ++p) out[i * n + j] = out[j * n + i] = d[p];
}

}  // namespace

std::vector<double> distance_matrix(std::span<const spike_train> trains, distance_measure measure,
                                    const distance_options& options) {
    check_spike_trains(trains);
    const std::size_t n = trains.size();
    const bool kreuz = measure == distance_measure::isi || measure == distance_measure::spike ||
                       measure == distance_measure::spike_sync;
    if (measure == distance_measure::van_rossum) detail::check_tau(options.tau_ms);
    if (measure == distance_measure::victor_purpura &&
        (!std::isfinite(options.cost_per_ms) || !(options.cost_per_ms >= 0)))
        throw invalid_parameter("Victor-Purpura distance", "cost_per_ms",
                                value_text(options.cost_per_ms), "must be finite and >= 0");
    if (kreuz) detail::check_kreuz_options(options.kreuz);

    // Per-train work done once: van Rossum self terms, Kreuz train preparation and knots.
    const bool knots = measure == distance_measure::isi || measure == distance_measure::spike;
    std::vector<double> self(n, 0.0);
    std::vector<std::unique_ptr<detail::kreuz_train>> prepared(kreuz ? n : 0);
    std::vector<std::unique_ptr<detail::kreuz_knots>> knotted(knots ? n : 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (measure == distance_measure::van_rossum)
            self[i] = detail::van_rossum_self_term(trains[i], options.tau_ms);
        if (kreuz)
            prepared[i] = std::make_unique<detail::kreuz_train>(
                trains[i], options.kreuz.window, measure != distance_measure::spike_sync);
        if (knots)
            knotted[i] =
                std::make_unique<detail::kreuz_knots>(prepared[i]->spikes(), options.kreuz.window);
    }
    const auto pair = [&](std::size_t i, std::size_t j) {
        switch (measure) {
            case distance_measure::van_rossum:
                if (std::equal(trains[i].begin(), trains[i].end(), trains[j].begin(),
                               trains[j].end()))
                    return 0.0;
                return detail::van_rossum_from_terms(
                    self[i], self[j],
                    detail::van_rossum_cross_term(trains[i], trains[j], options.tau_ms));
            case distance_measure::victor_purpura:
                return detail::victor_purpura_unchecked(trains[i], trains[j], options.cost_per_ms);
            case distance_measure::isi:
            case distance_measure::spike:
                break;  // kreuz_matrix, below
            case distance_measure::spike_sync:
                return detail::spike_sync_unchecked(prepared[i]->spikes(), prepared[j]->spikes(),
                                                    options.kreuz);
        }
        return 0.0;
    };
    std::vector<double> out(n * n, measure == distance_measure::spike_sync ? 1.0 : 0.0);
    if (knots) {  // the strategy the CPU allows, chosen once
        const auto isa = snn::detail::cpu_isa_level(options.max_isa);
        kreuz_matrix(measure == distance_measure::isi ? detail::choose_isi_distance_pairs(isa)
                                                      : detail::choose_spike_distance_pairs(isa),
                     knotted, options, out);
        return out;
    }
    // Rows of the upper triangle differ in length: dynamic scheduling balances them.
    const auto rows = static_cast<long long>(n);
#pragma omp parallel for schedule(dynamic, 1)
    for (long long i = 0; i < rows; ++i)
        for (std::size_t j = static_cast<std::size_t>(i) + 1; j < n; ++j) {
            const double d = pair(static_cast<std::size_t>(i), j);
            out[static_cast<std::size_t>(i) * n + j] = d;
            out[j * n + static_cast<std::size_t>(i)] = d;
        }
    return out;
}

}  // namespace volley::snn::analysis
