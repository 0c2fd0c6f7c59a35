// The CPU engine's gated max-pool projections (gate_projection.hpp): their part of the build
// (one gate per thread over the windows it owns; the lowering plans their scale and delay) and
// their delivery. cpu_engine.cpp only calls these two hooks.

#include <algorithm>
#include <cmath>

#include "backends/cpu/cpu_engine.hpp"
#include "build/connectivity.hpp"

namespace volley::snn::detail {

void cpu_engine::build_gates(const network& net, const std::vector<std::uint32_t>& delays,
                             const std::vector<double>& to_fixed) {
    const auto& projs = net.projections();
    gates_.assign(static_cast<std::size_t>(threads_), {});
    for (std::size_t t = 0; t < gates_.size(); ++t)
        for (std::size_t q = 0; q < projs.size(); ++q) {
            const auto* g = std::get_if<max_pool_gate>(&projs[q].rule);
            if (!g) continue;
            const std::uint32_t sp = projs[q].source.value, tp = projs[q].target.value;
            const auto [b, e] = local_range(static_cast<int>(t), tp);
            if (b >= e) continue;
            const auto r = static_cast<std::uint8_t>(projs[q].synapse.receptor);
            const auto w = to_fixed_point(std::get<double>(projs[q].synapse.weight), to_fixed[tp * 2 + r]);
            gates_[t].emplace_back(*g, sp, tp, r, delays[q], w, b, e);
            table_bytes_ += gates_[t].back().bytes();
            synapse_count_ += gates_[t].back().synapses();
        }
}

std::uint64_t cpu_engine::deliver_gates(int t, std::int64_t s, std::uint32_t sp, bool now) {
    std::uint64_t events = 0;
    for (auto& gate : gates_[static_cast<std::size_t>(t)]) {
        if (gate.source() != sp || (gate.delay() == 0) != now) continue;
        for_each_spike_list(s, gate.source(), [&](const std::vector<std::uint32_t>& fired) { gate.count(fired); });
        const std::int64_t slot = (s + gate.delay()) & slot_mask_;
        const bool listed = follows_touched_list(gate.target());
        events += gate.deliver(ring_.data() + (static_cast<std::size_t>(slot) * n_ + first_[gate.target()]) * 2 + gate.receptor(),
                               std::int64_t{first_[gate.target()]} - static_cast<std::int64_t>(lo_[t]),
                               listed ? &touched(t, gate.target(), slot) : nullptr);
    }
    return events;
}

}  // namespace volley::snn::detail
