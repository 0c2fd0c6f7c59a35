// Preparing trains for the Kreuz measures as PySpike's reconcile step and
// get_spikes_non_empty() do.

#include "analysis/pair_terms.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

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

kreuz_knots::kreuz_knots(spike_train s, const time_window& window) {
    const double start = window.start_ms, stop = window.stop_ms;
    const std::size_t n = s.size();  // >= 1: kreuz_train substitutes {start, stop} for empty
    first_copies = s[0] > start;
    last_copies = !(n == 1 && s[0] == start);
    knot.reserve(n + 2);
    if (first_copies) knot.push_back(n > 1 ? std::min(start, 2 * s[0] - s[1]) : start);
    knot.insert(knot.end(), s.begin(), s.end());
    knot.push_back(n > 1 ? std::max(stop, 2 * s[n - 1] - s[n - 2]) : stop);
    const std::size_t m = knot.size();
    next.resize(m - 1);
    isi.resize(m - 1);
    inv_isi.resize(m - 1);
    steps.resize(m - 1);
    for (std::size_t k = 0; k + 1 < m; ++k) {
        // + 0.0 turns a spike at -0.0 into +0.0: the kernels compare `next` as bit patterns.
        next[k] = k + 2 < m ? knot[k + 1] + 0.0 : std::numeric_limits<double>::infinity();
        isi[k] = knot[k + 1] - knot[k];
        inv_isi[k] = 1 / isi[k];
        steps[k] = {knot[k + 1], inv_isi[k]};
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
