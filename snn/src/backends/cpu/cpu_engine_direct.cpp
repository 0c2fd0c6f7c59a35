// Direct delivery (see cpu_engine.hpp): the spikes of a uniform projection with a delay of
// one step reach a lif_exp or lif_alpha population in the next step, after its dense update,
// which is exactly where the ring buffer's input would be added; likewise an ODE population
// whose input is a jump of a synaptic variable (every model but izhikevich), after its pass.
// So the engine adds them there straight from the synapse rows: one read-modify-write per
// synaptic event, where the ring costs a write, a touched-list entry, a read and a clear. In
// CUBA every projection is such a one, and the ring is never touched.
//
// Determinism: each neuron's input is a sum of doubles, but the lowering lets a pair of
// populations go direct only where every direct input onto a target receptor has one constant
// weight (lowering/direct_inputs.hpp): the sum is that value added once per event, the same
// in any order of the spikes and any partition of the work. (They are added in the order of the
// source neurons anyway.)

#include "backends/cpu/cpu_engine.hpp"

namespace volley::snn::detail {

bool cpu_engine::uses_ring() const {
    for (std::uint32_t p = 0; p < n_pops_; ++p)
        if (ring_input_[p] || (input_of(p) == kernel_input::every_cell && !all_input_direct(p))) return true;
    return false;
}

double cpu_engine::direct_weight(const synapse_table& table, std::uint32_t tp, const lif_population& lif,
                                 std::int64_t sent) const {
    return table.weight() * scale_[tp * 2 + table.receptor()] * lif.input_gain(sent + 1, table.receptor() != 0);
}

template <class Population>
void cpu_engine::deliver_direct(int t, std::int64_t sent, std::uint32_t tp, Population& pop) {
    const std::int64_t shift = std::int64_t{lo_[t]} - first_[tp];
    std::uint64_t events = 0;
    for (std::uint32_t sp = 0; sp < n_pops_; ++sp) {
        if (!is_direct(t, sp, tp)) continue;
        const auto& table = tables_[static_cast<std::size_t>(t)][std::size_t{sp} * n_pops_ + tp];
        const double w = direct_weight(table, tp, pop, sent);
        events += for_each_row(sent, sp, table, [&](std::span<const std::uint32_t> row) {
            pop.add_uniform_input(table.receptor(), row, shift, w);
        });
    }
    counters_[static_cast<std::size_t>(t)].events += events;
}
template void cpu_engine::deliver_direct(int, std::int64_t, std::uint32_t, lif_population&);
template void cpu_engine::deliver_direct(int, std::int64_t, std::uint32_t, ode_population&);

std::span<const lif_population::direct_route> cpu_engine::sort_direct(int t, std::int64_t sent, std::uint32_t tp,
                                                                      const lif_population& lif, std::uint32_t lb,
                                                                      std::uint32_t le) {
    constexpr std::uint32_t chunk = lif_population::direct_chunk;
    const std::int64_t shift = std::int64_t{lo_[t]} - first_[tp];  // row offset -> local index
    const std::size_t chunks = (le - lb + chunk - 1) / chunk;
    auto& box = direct_boxes_[static_cast<std::size_t>(t) * n_pops_ + tp];
    box.routes.clear();
    std::uint64_t events = 0;
    for (std::uint32_t sp = 0; sp < n_pops_; ++sp) {
        if (!is_direct(t, sp, tp)) continue;
        const auto& table = tables_[static_cast<std::size_t>(t)][std::size_t{sp} * n_pops_ + tp];
        const std::size_t first_list = box.routes.size() * chunks;
        if (box.lists.size() < first_list + chunks) box.lists.resize(first_list + chunks);
        std::vector<std::uint32_t>* lists = box.lists.data() + first_list;
        for (std::size_t c = 0; c < chunks; ++c) lists[c].clear();
        events += for_each_row(sent, sp, table, [&](std::span<const std::uint32_t> row) {
            for (const std::uint32_t off : row) {
                const auto i = static_cast<std::uint32_t>(off + shift);
                lists[(i - lb) / chunk].push_back(i);
            }
        });
        const double w = direct_weight(table, tp, lif, sent);
        box.routes.push_back({table.receptor(), w, nullptr});
    }
    for (std::size_t r = 0; r < box.routes.size(); ++r) box.routes[r].lists = box.lists.data() + r * chunks;
    counters_[static_cast<std::size_t>(t)].events += events;
    return box.routes;
}

}  // namespace volley::snn::detail
