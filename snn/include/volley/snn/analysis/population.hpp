#pragma once
// Population measures on many trains: PSTH and population rate, Golomb's synchrony chi,
// correlation coefficients of binned counts, cross- and auto-correlograms with a
// shift-predictor correction (docs/analysis.md). Bins are [start + k bin, start + (k+1) bin),
// k < floor(duration / bin), as in statistics.hpp. Trains are checked (sorted, finite, >= 0);
// errors name "spike train <index>" and the value.

#include <volley/snn/analysis/spike_train.hpp>

#include <cstddef>
#include <vector>

namespace volley::snn::analysis {

/// A time histogram over trains (trials of one neuron, or the neurons of a population).
struct time_histogram {
    double start_ms = 0;          ///< left edge of bin 0 [ms]
    double bin_ms = 0;            ///< bin width [ms]
    std::vector<double> counts;   ///< spikes of all trains in each bin
    std::vector<double> rate_hz;  ///< counts / (number of trains * bin width [s]) [Hz]
};

/// PSTH / population rate of `trains` (Elephant's time_histogram with output 'counts' and
/// 'rate'). invalid_parameter for no trains.
time_histogram psth(std::span<const spike_train> trains, const time_window& window, double bin_ms);

/// Golomb's synchrony measure chi (Golomb & Rinzel, Physica D 72, 1994; Golomb, Scholarpedia
/// 2007) on binned counts x_i(t): chi = sqrt(Var_t[mean_i x_i(t)] / mean_i Var_t[x_i(t)]),
/// population variances over the bins. 1 for identical trains, about 1/sqrt(N) for N independent
/// ones. invalid_parameter for fewer than 2 trains or when every train's counts are constant (no
/// spikes, say).
double golomb_chi(std::span<const spike_train> trains, const time_window& window, double bin_ms);

/// Pearson correlation coefficients of the binned counts of every pair (n x n, row-major;
/// Elephant's correlation_coefficient with binary = false). A train with constant counts gives
/// NaN in its row and column (as Elephant), and 1 on the diagonal otherwise.
std::vector<double> correlation_matrix(std::span<const spike_train> trains,
                                       const time_window& window, double bin_ms);

/// A correlogram: counts at lags -max_lag..max_lag bins.
struct correlogram {
    double bin_ms = 0;           ///< lag bin width [ms]
    int max_lag_bins = 0;        ///< lags run from -max_lag_bins to +max_lag_bins
    std::vector<double> counts;  ///< 2 max_lag_bins + 1 values; counts[k + max_lag_bins] is lag k
    /// The lag of entry `k` [ms].
    double lag_ms(std::size_t k) const { return (static_cast<double>(k) - max_lag_bins) * bin_ms; }
};

/// Cross-correlogram of binned counts: C[k] = sum_t x_a(t) x_b(t + k) for |k| <= max_lag_bins
/// (a positive lag: b fires after a), without border correction; Elephant's
/// cross_correlation_histogram(b_a, b_b) has the same entries. invalid_parameter for
/// max_lag_bins < 0 or not shorter than the number of bins.
correlogram cross_correlogram(spike_train a, spike_train b, const time_window& window,
                              double bin_ms, int max_lag_bins, std::size_t index_a = 0,
                              std::size_t index_b = 1);

/// Auto-correlogram: cross_correlogram(a, a, ...) (the zero-lag entry counts each spike).
correlogram auto_correlogram(spike_train a, const time_window& window, double bin_ms,
                             int max_lag_bins, std::size_t index = 0);

/// A trial-averaged correlogram with the shift predictor subtracted (Perkel et al. 1967).
struct shift_corrected_correlogram {
    correlogram raw;        ///< mean over trials r of C(a_r, b_r)
    correlogram predictor;  ///< mean over trials r of C(a_r, b_{(r+1) mod R})
    correlogram corrected;  ///< raw - predictor: correlation beyond the stimulus lock
};

/// The shift-predictor-corrected cross-correlogram of two neurons recorded in the same R
/// trials (trials_a[r] and trials_b[r], each windowed by `window`). invalid_parameter for
/// fewer than 2 trials or differing trial counts.
shift_corrected_correlogram shift_corrected_cross_correlogram(std::span<const spike_train> trials_a,
                                                              std::span<const spike_train> trials_b,
                                                              const time_window& window,
                                                              double bin_ms, int max_lag_bins);

}  // namespace volley::snn::analysis
