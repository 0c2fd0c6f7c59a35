// Victor-Purpura distance (J. Neurophysiol. 76, 1996) by its edit-distance recursion.

#include <volley/snn/analysis/distances.hpp>

#include "analysis/pair_terms.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

namespace volley::snn::analysis {

double victor_purpura_distance(spike_train a, spike_train b, double cost_per_ms,
                               std::size_t index_a, std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    if (!std::isfinite(cost_per_ms) || !(cost_per_ms >= 0))
        throw invalid_parameter("Victor-Purpura distance", "cost_per_ms", value_text(cost_per_ms),
                                "must be finite and >= 0");
    return detail::victor_purpura_unchecked(a, b, cost_per_ms);
}

namespace detail {

double victor_purpura_unchecked(spike_train a, spike_train b, double q) {
    // G[i][j]: the cost between the first i spikes of a and the first j of b; two rows.
    if (a.size() < b.size()) std::swap(a, b);
    std::vector<double> prev(b.size() + 1), curr(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<double>(j);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        curr[0] = static_cast<double>(i);
        for (std::size_t j = 1; j <= b.size(); ++j)
            curr[j] = std::min(
                {prev[j] + 1, curr[j - 1] + 1, prev[j - 1] + q * std::abs(a[i - 1] - b[j - 1])});
        std::swap(prev, curr);
    }
    return prev[b.size()];
}

}  // namespace detail

}  // namespace volley::snn::analysis
