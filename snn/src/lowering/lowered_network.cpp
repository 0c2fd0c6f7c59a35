// The lowering (see lowered_network.hpp).

#include "lowering/lowered_network.hpp"

#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>

#include "lowering/direct_inputs.hpp"
#include "lowering/domain_decomposition.hpp"

namespace volley::snn::detail {

lowered_network lower(const network& net, const simulation_options& options, const distributed_context& dist,
                      int parts, part_runner run) {
    if (net.neuron_count() >= (std::uint64_t{1} << 32) - 1)
        throw invalid_parameter("network", "neurons", std::to_string(net.neuron_count()), "more than 2^32 - 2 neurons");
    lowered_network low;
    const std::size_t P = net.populations().size();
    low.first.assign(P + 1, 0);
    for (std::size_t p = 0; p < P; ++p) low.first[p + 1] = low.first[p] + net.populations()[p].size;
    low.order = order_populations(net);
    low.rank_bounds = rank_bounds(net, dist.size());
    const std::uint64_t lo = low.rank_bounds[static_cast<std::size_t>(dist.id())],
                        hi = low.rank_bounds[static_cast<std::size_t>(dist.id()) + 1];
    for (int k = 0; k <= parts; ++k)
        low.part_bounds.push_back(
            static_cast<std::uint32_t>(lo + (hi - lo) * static_cast<std::uint64_t>(k) / static_cast<std::uint64_t>(parts)));
    low.by_family.resize(model_families);
    for (const std::uint32_t p : low.order.order)
        low.by_family[static_cast<std::size_t>(family_of(net.populations()[p].model))].push_back(p);
    low.direct = direct_pairs(net, options.dt_ms);
    low.fed.assign(P, 0);
    low.inhibited.assign(P, 0);
    for (const auto& q : net.projections()) {
        low.fed[q.target.value] = 1;
        if (q.synapse.receptor == receptor_type::inhibitory) low.inhibited[q.target.value] = 1;
    }
    low.synapses = plan_synapses(net, options, low.part_bounds, dist, run);
    low.sources = replicate_sources(net, dist, static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(hi), low.first,
                                    low.synapses);
    return low;
}

}  // namespace volley::snn::detail
