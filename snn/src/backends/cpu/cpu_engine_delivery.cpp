// The CPU engine's delivery (see cpu_engine.hpp): each synapse table is delivered by the
// cheapest strategy compatible with it, chosen once when the engine is built (GeNN's pattern
// of presynaptic update strategies). A strategy is a compatibility test, an estimated cost per
// synaptic event and a delivery function; adding a fast path means adding an entry to
// delivery_strategies(), not a flag tested in the step. Every strategy adds the same integers
// into the same ring cells (or, for "direct", the same doubles in the same order as the ring
// would have delivered them), so the choice changes the speed, never the spikes.
// Structured projections (convolutions, max-pool gates) have no table; they deliver through
// their own objects (structured/structured_projection.hpp).

#include "backends/cpu/cpu_engine.hpp"

#include <volley/error.hpp>

#include "lowering/direct_inputs.hpp"

namespace volley::snn::detail {

std::span<const cpu_engine::delivery_strategy> cpu_engine::delivery_strategies() {
    // Costs: estimated memory operations per synaptic event (a ring cell's read-modify-write
    // and a touched-list entry count one each; a weight read half).
    static const delivery_strategy strategies[] = {
        {"direct",  // into the LIF currents after the target's update: no ring, no list
         [](const delivery_case& c) {
             return c.direct_pair && !c.zero_delay && c.input_after_update && c.table.uniform() && c.table.delay() == 1;
         },
         1.0, nullptr},
        {"analog",  // analog values: round(w·x) per synapse
         [](const delivery_case& c) { return c.analog_source; }, 3.0, &cpu_engine::deliver_analog},
        {"uniform",  // one receptor, delay and weight: the row is its target list
         [](const delivery_case& c) { return !c.analog_source && c.table.uniform(); }, 2.0,
         &cpu_engine::deliver_uniform},
        {"shared-targets",  // every row reaches the same targets: sum the rows, then add once
         [](const delivery_case& c) {
             return !c.analog_source && !c.table.uniform() && c.table.one_route() && !c.follows_touched_list &&
                    c.table.shared_targets();
         },
         0.5, &cpu_engine::deliver_shared},
        {"one-route",  // one receptor and delay onto a population that reads every cell: no list
         [](const delivery_case& c) {
             return !c.analog_source && !c.table.uniform() && c.table.one_route() && !c.follows_touched_list;
         },
         1.5, &cpu_engine::deliver_one_route},
        {"general",  // per-synapse receptor, delay and weight
         [](const delivery_case& c) { return !c.analog_source && !c.table.uniform(); }, 3.0,
         &cpu_engine::deliver_general},
    };
    return strategies;
}

void cpu_engine::choose_deliveries(const std::vector<std::uint8_t>& direct) {
    const std::size_t P = n_pops_, T = static_cast<std::size_t>(threads_);
    direct_table_.assign(T * P * P, 0);
    direct_.assign(P, 0);
    ring_input_.assign(P, 0);
    direct_boxes_.assign(T * P, {});
    delivery_.assign(T, std::vector<deliver_fn>(2 * P * P, nullptr));
    for (std::size_t t = 0; t < T; ++t)
        for (std::size_t k = 0; k < 2 * P * P; ++k) {
            const auto& table = tables_[t][k];
            if (table.synapses() == 0) continue;
            const std::size_t sp = (k % (P * P)) / P, tp = k % P;
            const auto* lif = std::get_if<lif_population>(&pops_[tp]);
            const auto* ode = std::get_if<ode_population>(&pops_[tp]);
            const bool after_update =
                (lif != nullptr && lif->takes_input_after_update()) || (ode != nullptr && ode->takes_input_after_update());
            const delivery_case c{table, k >= P * P, std::holds_alternative<analog_population>(pops_[sp]),
                                  follows_touched_list(static_cast<std::uint32_t>(tp)), after_update,
                                  direct[sp * P + tp] != 0};
            const delivery_strategy* best = nullptr;
            for (const auto& strategy : delivery_strategies())
                if (strategy.compatible(c) && (!best || strategy.cost < best->cost)) best = &strategy;
            if (!best) throw internal_error("no delivery strategy for the table of populations " + std::to_string(sp) +
                                            " -> " + std::to_string(tp));
            delivery_[t][k] = best->deliver;
            if (!best->deliver) {  // direct: delivered within the target's update (deliver_direct)
                direct_table_[t * P * P + k] = 1;
                direct_[tp] = 1;
            } else {
                ring_input_[tp] = 1;
            }
        }
    for (std::size_t t = 0; t < T; ++t) {
        for (const auto& projection : structured_[t])
            std::visit([&](const auto& q) { ring_input_[q.target()] = 1; }, projection);
        for (const auto& table : plastic_[t])
            if (table.synapses() > 0) ring_input_[table.target_population()] = 1;
    }
}

void cpu_engine::deliver(int t, std::int64_t s) {
    std::uint64_t events = 0;
    for (std::uint32_t sp = 0; sp < n_pops_; ++sp) events += deliver_from(t, s, sp, false);
    for (auto& table : plastic_[static_cast<std::size_t>(t)]) events += deliver_plastic(t, s, table);
    counters_[static_cast<std::size_t>(t)].events += events;
}

std::uint64_t cpu_engine::deliver_from(int t, std::int64_t s, std::uint32_t sp, bool now) {
    // Zero-delay tables hold delay 1: they arrive in step s as if sent in step s - 1.
    const std::int64_t sent = now ? s - 1 : s;
    const std::size_t first = (now ? std::size_t{n_pops_} * n_pops_ : 0) + std::size_t{sp} * n_pops_;
    const auto* tables = tables_[static_cast<std::size_t>(t)].data() + first;
    const auto* deliveries = delivery_[static_cast<std::size_t>(t)].data() + first;
    std::uint64_t events = 0;
    for (std::uint32_t tp = 0; tp < n_pops_; ++tp)
        if (const deliver_fn fn = deliveries[tp]) events += (this->*fn)(t, s, sent, sp, tp, tables[tp]);
    events += deliver_structured(t, s, sp, now);
    return events;
}

std::uint64_t cpu_engine::deliver_uniform(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp,
                                          std::uint32_t tp, const synapse_table& table) {
    // Add the weight at each target and list the row as touched (for a target that follows
    // the list), in one pass over it.
    const std::int64_t slot = (sent + table.delay()) & slot_mask_;
    std::int64_t* cells = ring_cells(t, slot, table.receptor());
    const std::int64_t w = table.weight();
    const bool listed = follows_touched_list(tp);
    auto& hit = touched(t, tp, slot);
    return for_each_row(s, sp, table, [&](std::span<const std::uint32_t> row) {
        for (const std::uint32_t off : row) cells[2 * std::size_t{off}] += w;
        if (listed) hit.insert(hit.end(), row.begin(), row.end());
    });
}

std::uint64_t cpu_engine::deliver_one_route(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp,
                                            std::uint32_t, const synapse_table& table) {
    // A converted dense layer: the row's weights add into one slot, with no list to keep.
    std::int64_t* cells = ring_cells(t, (sent + table.delay()) & slot_mask_, table.receptor());
    return for_each_weighted_row(s, sp, table, [&](std::span<const std::uint32_t> row, const std::int32_t* weights) {
        for (std::size_t k = 0; k < row.size(); ++k) cells[2 * std::size_t{table.target_of(row[k])}] += weights[k];
    });
}

std::uint64_t cpu_engine::deliver_shared(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp, std::uint32_t,
                                         const synapse_table& table) {
    return deliver_shared_targets(t, s, sp, table, ring_cells(t, (sent + table.delay()) & slot_mask_, table.receptor()));
}

std::uint64_t cpu_engine::deliver_general(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp,
                                          std::uint32_t tp, const synapse_table& table) {
    // Discrete populations read every ring cell: no touched list to keep.
    const bool listed = follows_touched_list(tp);
    const std::int64_t lo = lo_[t];
    return for_each_weighted_row(s, sp, table, [&](std::span<const std::uint32_t> row, const std::int32_t* weights) {
        for (std::size_t k = 0; k < row.size(); ++k) {
            const std::uint32_t word = row[k], off = table.target_of(word);
            const std::int64_t slot = (sent + table.delay_of(word)) & slot_mask_;
            ring_at(slot, lo + off)[table.receptor_of(word)] += weights[k];
            if (listed) touched(t, tp, slot).push_back(off);
        }
    });
}

std::uint64_t cpu_engine::deliver_structured(int t, std::int64_t s, std::uint32_t sp, bool now) {
    std::uint64_t events = 0;
    const auto* analog = std::get_if<analog_population>(&pops_[sp]);  // its events carry values
    auto& values = analog_values_[static_cast<std::size_t>(t)];
    for (auto& projection : structured_[static_cast<std::size_t>(t)])
        std::visit(
            [&](auto& p) {
                if (p.source() != sp || (p.delay() == 0) != now) return;
                for_each_spike_list(s, sp, [&](const std::vector<std::uint32_t>& spikes) {
                    if (!analog) {
                        events += p.take(spikes, nullptr);
                        return;
                    }
                    values.clear();
                    for (const std::uint32_t g : spikes) values.push_back(analog->value(s, g));
                    events += p.take(spikes, values.data());
                });
                const std::int64_t slot = (s + p.delay()) & slot_mask_;
                events += p.deliver(ring_at(slot, first_[p.target()]) + p.receptor(),
                                    std::int64_t{first_[p.target()]} - static_cast<std::int64_t>(lo_[t]),
                                    follows_touched_list(p.target()) ? &touched(t, p.target(), slot) : nullptr);
            },
            projection);
    return events;
}

// Pre spikes first (depression, then delivery of the new weight), then the post spikes of the
// thread's own targets (potentiation): the same order for every thread count.
std::uint64_t cpu_engine::deliver_plastic(int t, std::int64_t s, plastic_table& table) {
    if (table.synapses() == 0) return 0;
    const std::int64_t lo = lo_[t];
    const std::uint32_t tp = table.target_population(), r = table.receptor();
    std::uint64_t events = 0;
    auto add = [&](std::uint32_t off, std::uint32_t delay, std::int32_t w) {
        const std::int64_t slot = (s + delay) & slot_mask_;
        ring_at(slot, lo + off)[r] += w;
        touched(t, tp, slot).push_back(off);
    };
    table.flush_posts(s + 1, true);  // delayed post spikes (dendritic delay) before this step's
    for_each_spike_list(s, table.source_population(), [&](const std::vector<std::uint32_t>& fired) {
        for (const std::uint32_t g : fired) events += table.on_pre_spike(g, s + 1, add);
    });
    for (const std::uint32_t j : spikes_of(s, t, tp)) table.post_spike(j, s + 1);
    table.flush_posts(s + 1, false);
    return events;
}

}  // namespace volley::snn::detail
