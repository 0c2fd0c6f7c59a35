#pragma once
// Sparse binned counts shared by the population measures: the non-empty bins of one train.

#include <volley/snn/analysis/spike_train.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace volley::snn::analysis::detail {

/// The number of whole bins of `bin_ms` in `window` (1e-9 bins of tolerance: 1000 ms / 0.1 ms is
/// 10000 bins, not 9999). Callers check the bin first (check_bin: at most 10^8 bins).
inline std::size_t bin_count(const time_window& window, double bin_ms) {
    return static_cast<std::size_t>(std::floor(window.duration_ms() / bin_ms + 1e-9));
}

/// One non-empty bin.
struct bin_count_entry {
    std::int64_t bin = 0;  ///< bin index
    double count = 0;      ///< spikes in it (an integer)
};

/// The non-empty bins of a sorted train, ascending, bins [start + k bin, start + (k+1) bin),
/// k < bins.
inline std::vector<bin_count_entry> sparse_counts(spike_train train, const time_window& window,
                                                  double bin_ms, std::size_t bins) {
    std::vector<bin_count_entry> out;
    for (double t : restrict_to(train, window)) {
        const auto b = static_cast<std::int64_t>(std::floor((t - window.start_ms) / bin_ms));
        if (b < 0 || static_cast<std::size_t>(b) >= bins) continue;
        if (!out.empty() && out.back().bin == b)
            out.back().count += 1;
        else
            out.push_back({b, 1});
    }
    return out;
}

}  // namespace volley::snn::analysis::detail
