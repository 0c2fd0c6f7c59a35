#include <volley/snn/analysis/population.hpp>

#include "analysis/binning.hpp"

#include <volley/error.hpp>

#include <cmath>
#include <limits>

namespace volley::snn::analysis {

namespace {

void check_population(std::span<const spike_train> trains, const time_window& window, double bin_ms,
                      std::size_t needed, const char* measure) {
    if (trains.size() < needed)
        throw invalid_parameter(
            "population", "trains", std::to_string(trains.size()),
            std::string(measure) + " needs at least " + std::to_string(needed) + " trains");
    check_spike_trains(trains);
    check_window(window);
    check_bin(bin_ms, window);
}

// n * sum x^2 - (sum x)^2 of one train's counts over n bins: n^2 times the variance, exact
// for integer counts below 2^26 per train.
double scaled_variance(const std::vector<detail::bin_count_entry>& c, double n) {
    double s = 0, s2 = 0;
    for (const auto& e : c) {
        s += e.count;
        s2 += e.count * e.count;
    }
    return n * s2 - s * s;
}

}  // namespace

time_histogram psth(std::span<const spike_train> trains, const time_window& window, double bin_ms) {
    check_population(trains, window, bin_ms, 1, "the PSTH");
    const std::size_t bins = detail::bin_count(window, bin_ms);
    time_histogram h;
    h.start_ms = window.start_ms;
    h.bin_ms = bin_ms;
    h.counts.assign(bins, 0.0);
    for (const auto& train : trains)
        for (const auto& e : detail::sparse_counts(train, window, bin_ms, bins))
            h.counts[static_cast<std::size_t>(e.bin)] += e.count;
    h.rate_hz.resize(bins);
    const double scale = 1.0 / (static_cast<double>(trains.size()) * bin_ms / 1e3);
    for (std::size_t b = 0; b < bins; ++b) h.rate_hz[b] = h.counts[b] * scale;
    return h;
}

double golomb_chi(std::span<const spike_train> trains, const time_window& window, double bin_ms) {
    check_population(trains, window, bin_ms, 2, "Golomb's chi");
    const std::size_t bins = detail::bin_count(window, bin_ms);
    const double n = static_cast<double>(bins), trains_n = static_cast<double>(trains.size());
    std::vector<double> total(bins, 0.0);
    double individual = 0;
    for (const auto& train : trains) {
        const auto c = detail::sparse_counts(train, window, bin_ms, bins);
        individual += scaled_variance(c, n);
        for (const auto& e : c) total[static_cast<std::size_t>(e.bin)] += e.count;
    }
    if (!(individual > 0))
        throw invalid_parameter("population", "count variance", "0",
                                "Golomb's chi needs a train whose binned counts vary");
    double s = 0, s2 = 0;
    for (double x : total) {
        s += x;
        s2 += x * x;
    }
    const double population = n * s2 - s * s;
    return std::sqrt(population / (trains_n * individual));
}

std::vector<double> correlation_matrix(std::span<const spike_train> trains,
                                       const time_window& window, double bin_ms) {
    check_population(trains, window, bin_ms, 1, "the correlation matrix");
    const std::size_t bins = detail::bin_count(window, bin_ms), k = trains.size();
    const double n = static_cast<double>(bins);
    std::vector<std::vector<detail::bin_count_entry>> counts(k);
    std::vector<double> sums(k, 0.0), scaled_var(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        counts[i] = detail::sparse_counts(trains[i], window, bin_ms, bins);
        for (const auto& e : counts[i]) sums[i] += e.count;
        scaled_var[i] = scaled_variance(counts[i], n);
    }
    std::vector<double> out(k * k, std::numeric_limits<double>::quiet_NaN());
    const auto rows = static_cast<long long>(k);
#pragma omp parallel for schedule(dynamic, 1)
    for (long long ii = 0; ii < rows; ++ii) {
        const auto i = static_cast<std::size_t>(ii);
        if (!(scaled_var[i] > 0)) continue;
        out[i * k + i] = 1.0;
        for (std::size_t j = i + 1; j < k; ++j) {
            if (!(scaled_var[j] > 0)) continue;
            double dot = 0;  // sum_t x_i(t) x_j(t) over bins where both are non-zero
            auto a = counts[i].begin(), b = counts[j].begin();
            while (a != counts[i].end() && b != counts[j].end()) {
                if (a->bin < b->bin)
                    ++a;
                else if (b->bin < a->bin)
                    ++b;
                else
                    dot += (a++)->count * (b++)->count;
            }
            const double r =
                (n * dot - sums[i] * sums[j]) / std::sqrt(scaled_var[i] * scaled_var[j]);
            out[i * k + j] = r;
            out[j * k + i] = r;
        }
    }
    return out;
}

}  // namespace volley::snn::analysis
