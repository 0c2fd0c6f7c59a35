// Cross- and auto-correlograms of binned counts, summed from the non-empty bins only, and the
// shift-predictor correction over trials.

#include <volley/snn/analysis/population.hpp>

#include "analysis/binning.hpp"

#include <volley/error.hpp>

namespace volley::snn::analysis {

namespace {

void check_lags(int max_lag_bins, std::size_t bins) {
    if (max_lag_bins < 0 || static_cast<std::size_t>(max_lag_bins) >= bins)
        throw invalid_parameter("correlogram", "max_lag_bins", std::to_string(max_lag_bins),
                                "must be >= 0 and < the number of bins " + std::to_string(bins));
}

// Adds sum_t x_a(t) x_b(t + k) to counts[k + L] for |k| <= L.
void accumulate(const std::vector<detail::bin_count_entry>& a,
                const std::vector<detail::bin_count_entry>& b, int max_lag,
                std::vector<double>& counts) {
    std::size_t first = 0;
    for (const auto& ea : a) {
        while (first < b.size() && b[first].bin < ea.bin - max_lag) ++first;
        for (std::size_t j = first; j < b.size() && b[j].bin <= ea.bin + max_lag; ++j)
            counts[static_cast<std::size_t>(b[j].bin - ea.bin + max_lag)] += ea.count * b[j].count;
    }
}

correlogram empty_correlogram(double bin_ms, int max_lag_bins) {
    correlogram c;
    c.bin_ms = bin_ms;
    c.max_lag_bins = max_lag_bins;
    c.counts.assign(2 * static_cast<std::size_t>(max_lag_bins) + 1, 0.0);
    return c;
}

}  // namespace

correlogram cross_correlogram(spike_train a, spike_train b, const time_window& window,
                              double bin_ms, int max_lag_bins, std::size_t index_a,
                              std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    check_window(window);
    check_bin(bin_ms, window);
    const std::size_t bins = detail::bin_count(window, bin_ms);
    check_lags(max_lag_bins, bins);
    auto c = empty_correlogram(bin_ms, max_lag_bins);
    accumulate(detail::sparse_counts(a, window, bin_ms, bins),
               detail::sparse_counts(b, window, bin_ms, bins), max_lag_bins, c.counts);
    return c;
}

correlogram auto_correlogram(spike_train a, const time_window& window, double bin_ms,
                             int max_lag_bins, std::size_t index) {
    return cross_correlogram(a, a, window, bin_ms, max_lag_bins, index, index);
}

shift_corrected_correlogram shift_corrected_cross_correlogram(std::span<const spike_train> trials_a,
                                                              std::span<const spike_train> trials_b,
                                                              const time_window& window,
                                                              double bin_ms, int max_lag_bins) {
    if (trials_a.size() < 2)
        throw invalid_parameter("shift predictor", "trials", std::to_string(trials_a.size()),
                                "needs at least 2 trials");
    if (trials_b.size() != trials_a.size())
        throw invalid_parameter("shift predictor", "trials_b.size()",
                                std::to_string(trials_b.size()),
                                "must equal trials_a.size() = " + std::to_string(trials_a.size()));
    check_spike_trains(trials_a);
    check_spike_trains(trials_b);
    check_window(window);
    check_bin(bin_ms, window);
    const std::size_t bins = detail::bin_count(window, bin_ms), r = trials_a.size();
    check_lags(max_lag_bins, bins);
    std::vector<std::vector<detail::bin_count_entry>> a(r), b(r);
    for (std::size_t k = 0; k < r; ++k) {
        a[k] = detail::sparse_counts(trials_a[k], window, bin_ms, bins);
        b[k] = detail::sparse_counts(trials_b[k], window, bin_ms, bins);
    }
    shift_corrected_correlogram out{empty_correlogram(bin_ms, max_lag_bins),
                                    empty_correlogram(bin_ms, max_lag_bins),
                                    empty_correlogram(bin_ms, max_lag_bins)};
    for (std::size_t k = 0; k < r; ++k) {
        accumulate(a[k], b[k], max_lag_bins, out.raw.counts);
        accumulate(a[k], b[(k + 1) % r], max_lag_bins, out.predictor.counts);
    }
    for (std::size_t k = 0; k < out.raw.counts.size(); ++k) {
        out.raw.counts[k] /= static_cast<double>(r);
        out.predictor.counts[k] /= static_cast<double>(r);
        out.corrected.counts[k] = out.raw.counts[k] - out.predictor.counts[k];
    }
    return out;
}

}  // namespace volley::snn::analysis
