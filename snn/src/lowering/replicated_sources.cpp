// Replicated spike sources (see replicated_sources.hpp).

#include "lowering/replicated_sources.hpp"

#include <volley/snn/distributed_context.hpp>

#include <algorithm>
#include <functional>
#include <queue>

namespace volley::snn::detail {

namespace {

using range = std::pair<std::uint32_t, std::uint32_t>;

/// The hull of population p's neurons with a synapse onto this rank's neurons, {0, 0} when none.
range needed_hull(const network& net, std::size_t p, const synapse_plan& plan) {
    const std::size_t P = net.populations().size();
    for (const auto& q : net.projections())
        if (q.source.value == p && (is_structured(q.rule) || is_plastic(q.synapse.plasticity)))
            return {0, net.populations()[p].size};
    std::uint32_t lo = net.populations()[p].size, hi = 0;
    for (const auto& part : plan.tables)
        for (std::size_t key = 0; key < part.size(); ++key) {
            const auto& rows = part[key].row_sizes;
            if ((key % (P * P)) / P != p || rows.empty()) continue;
            const auto b = std::find_if(rows.begin(), rows.end(), [](std::uint32_t n) { return n > 0; });
            if (b == rows.end()) continue;
            const auto e = std::find_if(rows.rbegin(), rows.rend(), [](std::uint32_t n) { return n > 0; });
            lo = std::min(lo, static_cast<std::uint32_t>(b - rows.begin()));
            hi = std::max(hi, static_cast<std::uint32_t>(rows.rend() - e));
        }
    return lo < hi ? range{lo, hi} : range{0, 0};
}

}  // namespace

bool is_replicated_model(const neuron_model& m) {
    return std::holds_alternative<poisson_source>(m) || std::holds_alternative<spike_source>(m);
}

replicated_sources replicate_sources(const network& net, const distributed_context& dist, std::uint32_t domain_lo,
                                     std::uint32_t domain_hi, const std::vector<std::uint32_t>& first,
                                     const synapse_plan& plan) {
    const auto& pops = net.populations();
    const std::size_t P = pops.size();
    replicated_sources out{std::vector<std::uint8_t>(P, 0), std::vector<range>(P, {0, 0}),
                           std::vector<std::vector<std::uint8_t>>(P)};
    if (dist.size() <= 1) return out;
    // Every rank's needed hulls, two values per population (exact as doubles below 2^53).
    std::vector<double> mine(2 * P, 0.0);
    for (std::size_t p = 0; p < P; ++p) {
        const auto& m = pops[p].model;
        if (!is_replicated_model(m)) continue;
        out.replicated[p] = 1;
        const auto [lo, hi] = needed_hull(net, p, plan);
        mine[2 * p] = lo;
        mine[2 * p + 1] = hi;
    }
    const auto all = dist.gather_values(mine);
    const auto me = dist.id(), ranks = dist.size();
    for (std::size_t p = 0; p < P; ++p) {
        if (!out.replicated[p]) continue;
        const std::uint32_t n = pops[p].size;
        // Sweep the neurons once with the ranks whose needed range covers them in a min-heap
        // (ranges by start; a rank leaves the heap lazily once its range has ended), so that the
        // lowest needing rank of each neuron costs O(log ranks), not O(ranks).
        std::vector<std::pair<std::uint32_t, int>> by_start;  // (start, rank)
        std::vector<std::uint32_t> end_of(static_cast<std::size_t>(ranks));
        for (int r = 0; r < ranks; ++r) {
            const auto lo = static_cast<std::uint32_t>(all[static_cast<std::size_t>(r) * 2 * P + 2 * p]);
            const auto hi = static_cast<std::uint32_t>(all[static_cast<std::size_t>(r) * 2 * P + 2 * p + 1]);
            end_of[static_cast<std::size_t>(r)] = hi;
            if (lo < hi) by_start.emplace_back(lo, r);
        }
        std::sort(by_start.begin(), by_start.end());
        std::priority_queue<int, std::vector<int>, std::greater<>> active;
        std::size_t next = 0;
        const auto [my_lo, my_hi] = range{static_cast<std::uint32_t>(mine[2 * p]), static_cast<std::uint32_t>(mine[2 * p + 1])};
        auto& rec = out.recorded[p];
        rec.assign(n, 0);
        std::uint32_t lo = n, hi = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            while (next < by_start.size() && by_start[next].first <= i) active.push(by_start[next++].second);
            while (!active.empty() && end_of[static_cast<std::size_t>(active.top())] <= i) active.pop();
            const std::uint32_t g = first[p] + i;
            rec[i] = active.empty() ? (g >= domain_lo && g < domain_hi) : active.top() == me;
            if (rec[i] || (i >= my_lo && i < my_hi)) {
                lo = std::min(lo, i);
                hi = std::max(hi, i + 1);
            }
        }
        out.generate[p] = lo < hi ? range{lo, hi} : range{0, 0};
    }
    return out;
}

}  // namespace volley::snn::detail
