// Replicated spike sources (see replicated_sources.hpp).

#include "lowering/replicated_sources.hpp"

#include <volley/snn/distributed_context.hpp>

#include <algorithm>

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
        if (!std::holds_alternative<poisson_source>(m) && !std::holds_alternative<spike_source>(m)) continue;
        out.replicated[p] = 1;
        const auto [lo, hi] = needed_hull(net, p, plan);
        mine[2 * p] = lo;
        mine[2 * p + 1] = hi;
    }
    const auto all = dist.gather_values(mine);
    const auto me = static_cast<std::size_t>(dist.id()), ranks = static_cast<std::size_t>(dist.size());
    for (std::size_t p = 0; p < P; ++p) {
        if (!out.replicated[p]) continue;
        const std::uint32_t n = pops[p].size;
        auto need = [&](std::size_t r, std::uint32_t i) {
            return i >= all[r * 2 * P + 2 * p] && i < all[r * 2 * P + 2 * p + 1];
        };
        auto& rec = out.recorded[p];
        rec.assign(n, 0);
        std::uint32_t lo = n, hi = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            std::size_t first_need = ranks;
            for (std::size_t r = 0; r < ranks && first_need == ranks; ++r)
                if (need(r, i)) first_need = r;
            const std::uint32_t g = first[p] + i;
            rec[i] = first_need == me || (first_need == ranks && g >= domain_lo && g < domain_hi);
            if (rec[i] || need(me, i)) {
                lo = std::min(lo, i);
                hi = std::max(hi, i + 1);
            }
        }
        out.generate[p] = lo < hi ? range{lo, hi} : range{0, 0};
    }
    return out;
}

}  // namespace volley::snn::detail
