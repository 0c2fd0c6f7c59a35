// The CPU engine's build of its synapse tables, fixed-point scales, ring buffer and epoch
// length (see cpu_engine.hpp).

#include "backends/cpu/cpu_engine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "backends/cpu/thread_team.hpp"
#include "build/connectivity.hpp"
#include "lowering/lowered_network.hpp"
#include "lowering/model_family.hpp"

namespace volley::snn::detail {

// The tables are built in two passes over the connectors, each target drawing from its own
// streams: the lowering's plan (lowering/synapse_plan.hpp) counts each row and finds the scales
// and delays, then the fill regenerates the same synapses straight into their rows. No list of
// all synapses ever exists, so the peak memory of the build is the tables themselves plus one
// counter per source neuron.
void cpu_engine::build_synapses(const network& net, const simulation_options& options, lowered_network& low) {
    const auto& projs = net.projections();
    const std::size_t P = n_pops_, T = static_cast<std::size_t>(threads_);
    auto& plan = low.synapses;
    const std::vector<double>& to_fixed = plan.to_fixed;
    scale_ = plan.scale;
    std::vector<std::size_t> plastic_index(projs.size(), 0);  // position among the plastic projections
    for (std::size_t q = 0, n = 0; q < projs.size(); ++q)
        if (is_plastic(projs[q].synapse.plasticity)) plastic_index[q] = n++;
    plastic_.assign(T, std::vector<plastic_table>(static_cast<std::size_t>(
                           std::count_if(projs.begin(), projs.end(),
                                         [](const projection& p) { return is_plastic(p.synapse.plasticity); }))));
    parallel_for_threads(threads_, [&](int t) {
        for (std::size_t q = 0; q < projs.size(); ++q) {
            const std::uint32_t tp = projs[q].target.value;
            const auto [b, e] = local_range(t, tp);
            if (b >= e || !is_plastic(projs[q].synapse.plasticity)) continue;
            auto& table = plastic_[static_cast<std::size_t>(t)][plastic_index[q]];
            table = plastic_table(net, q, options, b, e, first_[tp] + b - lo_[t]);
            table.set_fixed_point(to_fixed[tp * 2 + table.receptor()]);
        }
    });
    for (auto& per_thread : plastic_)
        for (auto& table : per_thread) {
            plastic_count_ += table.synapses();
            plastic_bytes_ += table.bytes();
        }
    synapse_count_ += plastic_count_;
    table_bytes_ += plastic_bytes_;
    tables_.assign(T, std::vector<synapse_table>(2 * P * P));
    parallel_for_threads(threads_, [&](int ti) {
        const auto t = static_cast<std::size_t>(ti);
        const std::uint32_t span = std::max<std::uint32_t>(lo_[t + 1] - lo_[t], 1) - 1;
        for (std::size_t k = 0; k < 2 * P * P; ++k) {
            auto& part = plan.tables[t][k];
            if (part.row_sizes.empty()) continue;
            const std::size_t tp = k % P;
            const auto fixed = static_cast<std::int32_t>(to_fixed_point(part.shape.weight, to_fixed[tp * 2 + part.shape.receptor]));
            tables_[t][k] = synapse_table(part.row_sizes, part.shape, fixed, span);
            part.row_sizes = {};
        }
        for (std::size_t q = 0; q < projs.size(); ++q) {
            if (is_structured(projs[q].rule)) continue;
            const std::uint32_t tp = projs[q].target.value;
            const auto [b, e] = local_range(static_cast<int>(t), tp);
            if (b >= e || is_plastic(projs[q].synapse.plasticity)) continue;
            auto& table = tables_[t][table_key(projs[q], P)];
            const auto r = static_cast<std::uint8_t>(projs[q].synapse.receptor);
            const double fx = to_fixed[tp * 2 + r];
            const std::uint32_t base = first_[tp] - lo_[t];
            projection_expander ex(net, q, options.seed, options.dt_ms);
            for (std::uint32_t j = b; j < e; ++j) {
                ex.expand(j);
                for (std::size_t k = 0; k < ex.sources.size(); ++k)
                    table.put(ex.sources[k], base + j, r, static_cast<std::uint32_t>(std::max(ex.delays[k], 1)),
                              static_cast<std::int32_t>(to_fixed_point(ex.weights[k], fx)));
            }
        }
        for (auto& table : tables_[t]) table.finish();
    });
    structured_.assign(T, {});
    analog_values_.resize(T);
    row_sums_.resize(T);
    for (std::size_t t = 0; t < T; ++t)
        for (std::size_t q = 0; q < projs.size(); ++q) {
            if (!is_structured(projs[q].rule)) continue;
            const std::uint32_t sp = projs[q].source.value, tp = projs[q].target.value;
            const auto [b, e] = local_range(static_cast<int>(t), tp);
            if (b >= e) continue;
            const bool once = spikes_once_per_step(family_of(net.populations()[sp].model));
            const auto r = static_cast<std::uint8_t>(projs[q].synapse.receptor);
            structured_[t].push_back(make_structured({.net = net, .index = q, .delay = plan.structured_delay[q],
                                                      .to_fixed = to_fixed[tp * 2 + r], .begin = b, .end = e,
                                                      .source_spikes_once = once, .isa = isa_}));
            std::visit(
                [&](const auto& p) {
                    table_bytes_ += p.bytes();
                    synapse_count_ += p.synapses();
                },
                structured_[t].back());
        }
    find_in_place_convs(net);
    for (const auto& per_thread : tables_)
        for (const auto& tab : per_thread) {
            synapse_count_ += tab.synapses();
            table_bytes_ += tab.bytes();
        }
    choose_deliveries(low.direct);
    epoch_ = epoch_steps(plan.min_delay, plan.max_delay);
    // Deliveries after an epoch reach up to max_delay steps past its last step, while the
    // epoch's own slots are still being read: max_delay + epoch_ slots.
    slots_ = std::bit_ceil(static_cast<std::size_t>(plan.max_delay) + static_cast<std::size_t>(epoch_));
    slot_mask_ = static_cast<std::int64_t>(slots_ - 1);
    if (uses_ring()) ring_.assign(slots_ * 2 * (domain_hi_ - domain_lo_), 0);  // this rank's neurons only
}

// A zero-delay convolution into a population whose step can read its sums in place
// (reads_sums(): plain IF neurons) and that nothing else reaches: the step reads the
// convolution's 32-bit accumulator where the flush would have moved it into the cells, which
// then stay 0. The same integers reach the same arithmetic, so the same rasters.
void cpu_engine::find_in_place_convs(const network& net) {
    std::vector<std::uint32_t> inputs(n_pops_, 0);
    for (const auto& q : net.projections()) ++inputs[q.target.value];
    in_place_conv_.assign(structured_.size(), std::vector<std::int32_t>(n_pops_, -1));
    for (std::size_t t = 0; t < structured_.size(); ++t)
        for (std::size_t k = 0; k < structured_[t].size(); ++k) {
            auto* conv = std::get_if<conv_projection>(&structured_[t][k]);
            if (!conv) continue;
            const bool reads_sums = std::visit(
                [](const auto& pop) {
                    if constexpr (requires { pop.reads_sums(); }) return pop.reads_sums();
                    else return false;
                },
                pops_[conv->target()]);
            if (!reads_sums || inputs[conv->target()] != 1 || conv->delay() != 0 || !conv->narrow() ||
                conv->receptor() != 0)
                continue;
            conv->read_in_place();
            in_place_conv_[t][conv->target()] = static_cast<std::int32_t>(k);
        }
}

}  // namespace volley::snn::detail
