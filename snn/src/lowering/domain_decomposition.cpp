// The domain decomposition (see domain_decomposition.hpp).

#include "lowering/domain_decomposition.hpp"

#include "lowering/update_order.hpp"

#include <algorithm>

namespace volley::snn::detail {

std::vector<std::uint32_t> rank_bounds(const network& net, int ranks) {
    const auto& pops = net.populations();
    const std::size_t P = pops.size();
    std::vector<std::uint32_t> first(P + 1, 0);
    for (std::size_t p = 0; p < P; ++p) first[p + 1] = first[p] + pops[p].size;
    const std::uint64_t n = first[P];
    // A unit of more than one population may be cut neither inside its populations nor at a
    // boundary between its lowest and highest population.
    const auto unit = compound_units(net);
    std::vector<std::uint32_t> last_of_unit(P, 0), members(P, 0);
    for (std::uint32_t p = 0; p < P; ++p) {
        last_of_unit[unit[p]] = p;
        ++members[unit[p]];
    }
    std::vector<std::uint8_t> whole(P, 0), no_cut_before(P + 1, 0);  // population p is never cut / no cut at first[p]
    for (std::uint32_t u = 0; u < P; ++u) {
        if (unit[u] != u || members[u] < 2) continue;
        for (std::uint32_t k = u; k <= last_of_unit[u]; ++k) {  // the populations the unit spans
            whole[k] = 1;
            if (k > u) no_cut_before[k] = 1;
        }
    }
    // The allowed cut nearest to x (the lower one on a tie).
    auto allowed = [&](std::uint64_t x) -> std::uint32_t {
        if (x >= n) return static_cast<std::uint32_t>(n);
        const auto p = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), x) - first.begin() - 1);
        if (x > first[p] && !whole[p]) return static_cast<std::uint32_t>(x);  // inside a population that may be cut
        std::size_t lo = p, hi = x == first[p] ? p : p + 1;  // candidate boundaries below and above
        while (lo > 0 && no_cut_before[lo]) --lo;
        while (hi < P && no_cut_before[hi]) ++hi;
        const std::uint64_t below = first[lo], above = first[hi];
        return static_cast<std::uint32_t>(x - below <= above - x ? below : above);
    };
    // The shares are of the neurons that integrate (a source's spikes are drawn or read, at a
    // small fraction of a neuron's cost): [wfirst[p], wfirst[p + 1]) is population p's span of
    // that weight, empty for a source (all of them count when the network has only sources).
    std::vector<std::uint64_t> wfirst(P + 1, 0);
    for (std::size_t p = 0; p < P; ++p) wfirst[p + 1] = wfirst[p] + (is_source_model(pops[p].model) ? 0 : pops[p].size);
    const bool weighted = wfirst[P] > 0;
    const std::uint64_t w_total = weighted ? wfirst[P] : n;
    // The global id at which the weight before it reaches w.
    auto id_of_weight = [&](std::uint64_t w) -> std::uint64_t {
        if (!weighted) return w;
        for (std::size_t p = 0; p < P; ++p)
            if (w < wfirst[p + 1]) return first[p] + (w - wfirst[p]);
        return n;
    };
    std::vector<std::uint32_t> bounds{0};
    for (int r = 1; r < ranks; ++r)
        bounds.push_back(std::max(
            bounds.back(), allowed(id_of_weight(w_total * static_cast<std::uint64_t>(r) / static_cast<std::uint64_t>(ranks)))));
    bounds.push_back(static_cast<std::uint32_t>(n));
    return bounds;
}

}  // namespace volley::snn::detail
