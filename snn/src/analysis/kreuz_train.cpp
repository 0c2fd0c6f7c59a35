// Preparing trains for the Kreuz measures as PySpike's reconcile step and
// get_spikes_non_empty() do.

#include "analysis/pair_terms.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

namespace volley::snn::analysis::detail {

kreuz_train::kreuz_train(spike_train train, const time_window& window, bool non_empty) {
    const auto first = std::lower_bound(train.begin(), train.end(), window.start_ms);
    const auto last = std::upper_bound(first, train.end(), window.stop_ms);
    spikes_ = train.subspan(static_cast<std::size_t>(first - train.begin()),
                            static_cast<std::size_t>(last - first));
    const bool repeats = std::adjacent_find(spikes_.begin(), spikes_.end()) != spikes_.end();
    if (repeats) {
        owned_.assign(spikes_.begin(), spikes_.end());
        owned_.erase(std::unique(owned_.begin(), owned_.end()), owned_.end());
        spikes_ = spike_train(owned_.data(), owned_.size());
    } else if (spikes_.empty() && non_empty) {
        owned_ = {window.start_ms, window.stop_ms};
        spikes_ = spike_train(owned_.data(), owned_.size());
    }
}

void check_kreuz_options(const kreuz_options& options) {
    check_window(options.window);
    if (!std::isfinite(options.mrts_ms) || !(options.mrts_ms >= 0))
        throw invalid_parameter("Kreuz measure", "mrts_ms", value_text(options.mrts_ms),
                                "must be finite and >= 0");
    if (!std::isfinite(options.max_tau_ms) || !(options.max_tau_ms >= 0))
        throw invalid_parameter("SPIKE-synchronization", "max_tau_ms",
                                value_text(options.max_tau_ms),
                                "must be finite and >= 0 (0 = unbounded)");
}

}  // namespace volley::snn::analysis::detail
