#pragma once
// Spike trains as the analysis library sees them: views of sorted spike times [ms], never
// copies (docs/analysis.md). A train can view a recorder's buffer, a SONATA file's timestamps
// after grouping by node, or any plain array.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace volley::snn::analysis {

/// One neuron's spike times [ms], non-decreasing, finite and >= 0.
using spike_train = std::span<const double>;

/// A half-open observation window [start_ms, stop_ms) [ms]; stop_ms > start_ms.
struct time_window {
    double start_ms = 0;  ///< first instant observed [ms]
    double stop_ms = 0;   ///< end of the observation [ms]
    /// stop_ms - start_ms [ms].
    double duration_ms() const { return stop_ms - start_ms; }
};

/// Throws invalid_parameter naming "spike train <index>", the element and its value if a time
/// is not finite, is negative, or is smaller than its predecessor.
void check_spike_train(spike_train train, std::size_t index = 0);

/// check_spike_train for every train, with its index in `trains`.
void check_spike_trains(std::span<const spike_train> trains);

/// Throws invalid_parameter naming the window and the value unless both ends are finite and
/// stop_ms > start_ms.
void check_window(const time_window& window);

/// Throws invalid_parameter unless `bin_ms` is finite and > 0, and `window` holds at most
/// 10^8 bins of it.
void check_bin(double bin_ms, const time_window& window);

/// Views `times` as a spike train (no copy).
inline spike_train view(const std::vector<double>& times) {
    return {times.data(), times.size()};
}

/// Views each vector of `trains` (the spans point into `trains`, which must outlive them).
std::vector<spike_train> views(const std::vector<std::vector<double>>& trains);

/// The sub-span of `train` with times in [window.start_ms, window.stop_ms).
spike_train restrict_to(spike_train train, const time_window& window);

/// Text of a double for error messages (shortest round-trip form).
std::string value_text(double value);

}  // namespace volley::snn::analysis
