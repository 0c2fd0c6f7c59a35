#pragma once
// Single-train statistics: rates and inter-spike-interval variability (docs/analysis.md).
// Every function checks its train (sorted, finite, >= 0) and throws invalid_parameter naming
// "spike train <index>" and the value; `index` is only used in those messages.

#include <volley/snn/analysis/spike_train.hpp>

#include <cstddef>
#include <vector>

namespace volley::snn::analysis {

/// Spikes in [start_ms, stop_ms) divided by the window's duration [Hz].
double mean_rate_hz(spike_train train, const time_window& window, std::size_t index = 0);

/// Spike counts in consecutive bins [start + k bin, start + (k+1) bin), k < floor(duration /
/// bin) (a last partial bin is dropped, as Elephant's BinnedSpikeTrain does).
std::vector<double> binned_counts(spike_train train, const time_window& window, double bin_ms,
                                  std::size_t index = 0);

/// binned_counts divided by the bin width [Hz].
std::vector<double> binned_rate_hz(spike_train train, const time_window& window, double bin_ms,
                                   std::size_t index = 0);

/// The smoothing kernels of kernel_rate_hz, each of unit area.
enum class rate_kernel {
    gaussian,     ///< exp(-t^2 / (2 sigma^2)) / (sqrt(2 pi) sigma), sigma = width_ms
    exponential,  ///< exp(-t / tau) / tau for t >= 0 (causal), tau = width_ms
};

/// Kernel rate estimate r(t) = sum_i K(t - t_i) [Hz], evaluated exactly (no binning) at
/// t = start + (k + 1/2) sampling_ms, k < floor(duration / sampling_ms), using every spike of
/// the train (also those outside the window). invalid_parameter for width_ms or
/// sampling_ms not finite and > 0.
std::vector<double> kernel_rate_hz(spike_train train, const time_window& window, rate_kernel kernel,
                                   double width_ms, double sampling_ms, std::size_t index = 0);

/// Inter-spike intervals t[i+1] - t[i] [ms] (size() - 1 of them; none for < 2 spikes).
std::vector<double> isis(spike_train train, std::size_t index = 0);

/// Coefficient of variation of the ISIs, std / mean with the population standard deviation
/// (ddof = 0, as Elephant's cv). invalid_parameter for fewer than 3 spikes (2 ISIs), or a
/// zero mean ISI.
double cv(spike_train train, std::size_t index = 0);

/// CV2 (Holt et al. 1996): mean over i of 2 |I[i+1] - I[i]| / (I[i+1] + I[i]).
/// invalid_parameter for fewer than 3 spikes or two consecutive zero ISIs.
double cv2(spike_train train, std::size_t index = 0);

/// Local variation LV (Shinomoto et al. 2003): mean over i of
/// 3 ((I[i] - I[i+1]) / (I[i] + I[i+1]))^2. invalid_parameter as for cv2.
double lv(spike_train train, std::size_t index = 0);

/// The ISI measures of one train from one pass over it.
struct isi_summary {
    std::size_t intervals = 0;  ///< number of ISIs (spikes - 1)
    double mean_isi_ms = 0;     ///< mean ISI [ms]
    double cv = 0;              ///< as cv()
    double cv2 = 0;             ///< as cv2()
    double lv = 0;              ///< as lv()
};

/// cv, cv2 and lv together, in one pass (equal to the separate functions to rounding).
/// invalid_parameter as they throw it.
isi_summary isi_statistics(spike_train train, std::size_t index = 0);

/// Fano factor var(n) / mean(n) of the spike counts n_k of consecutive windows of
/// `counting_ms` inside `window` (population variance, ddof = 0). invalid_parameter for fewer
/// than 2 windows or no spike in any of them.
double fano_factor(spike_train train, const time_window& window, double counting_ms,
                   std::size_t index = 0);

/// Fano factor of the total spike counts of `trials` (one train per trial, as Elephant's
/// fano_factor). invalid_parameter for fewer than 2 trials or no spike at all.
double fano_factor(std::span<const spike_train> trials);

}  // namespace volley::snn::analysis
