// The CPU backend's population construction (population_factory.hpp), run-time changes (reset, set_input) and the delivery of analog values (see cpu_engine.hpp).
//
// An analog value x reaches a synapse of fixed-point weight w as round(w·x), an integer, so
// analog input sums in the same int64 ring buffer as spikes and is independent of the thread
// count and of the order of additions. |x| <= 1e6 and |w| <= 2^30 keep every term below 2^50.

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

#include "backends/cpu/cpu_engine.hpp"

namespace volley::snn::detail {

population_state cpu_engine::make_population(const network& net, std::uint32_t p) const {
    return make_population_kernel(net, {p}, {.dt_ms = dt_ms_, .seed = seed_, .threads = threads_, .isa = isa_});
}

std::uint64_t cpu_engine::deliver_analog(int t, std::int64_t s, std::int64_t sent, std::uint32_t sp, std::uint32_t tp,
                                         const synapse_table& table) {
    const auto& source = std::get<analog_population>(pops_[sp]);
    const std::int64_t lo = lo_[t];
    std::uint64_t events = 0;
    for_each_spike_list(s, sp, [&](const std::vector<std::uint32_t>& fired) {
        for (const std::uint32_t g : fired) {
            const double x = source.value(s, g);
            const auto row = table.row(g);
            events += row.size();
            if (table.uniform()) {
                const std::int64_t slot = (sent + table.delay()) & slot_mask_;
                const std::int64_t w = std::llround(static_cast<double>(table.weight()) * x);
                std::int64_t* cells = ring_at(slot, lo) + table.receptor();
                for (const std::uint32_t off : row) cells[2 * std::size_t{off}] += w;
                auto& hit = touched(t, tp, slot);
                hit.insert(hit.end(), row.begin(), row.end());
            } else {
                const std::int32_t* weights = table.row_weights(g);
                for (std::size_t k = 0; k < row.size(); ++k) {
                    const std::uint32_t word = row[k], off = table.target_of(word);
                    const std::int64_t slot = (sent + table.delay_of(word)) & slot_mask_;
                    ring_at(slot, lo + off)[table.receptor_of(word)] +=
                        std::llround(static_cast<double>(weights[k]) * x);
                    touched(t, tp, slot).push_back(off);
                }
            }
        }
    });
    return events;
}

void cpu_engine::reset(const network& net) {
    // A discrete population only returns to its initial state (its parameters, i_bias
    // included, are those of `net`); the others are rebuilt.
    for (std::uint32_t p = 0; p < n_pops_; ++p) {
        const bool restarted = std::visit(
            [](auto& k) {
                if constexpr (requires { k.restart(); }) return k.restart(), true;
                else return false;
            },
            pops_[p]);
        if (!restarted) pops_[p] = make_population(net, p);
    }
    for (auto& per_thread : plastic_)
        for (auto& table : per_thread) table.rebuild(net, {.dt_ms = dt_ms_, .seed = seed_});
    std::fill(ring_.begin(), ring_.end(), 0);
    for (auto& per_thread : structured_)
        for (auto& projection : per_thread)
            std::visit(
                [](auto& p) {
                    if constexpr (requires { p.reset(); }) p.reset();
                },
                projection);
    for (auto& list : touched_) list.clear();
    for (auto& buffer : spikes_)
        for (auto& list : buffer) list.clear();
    for (auto& buffer : remote_)
        for (auto& lists : buffer) lists.before.clear(), lists.after.clear();
    for (auto& c : counters_) c.events = 0;
    step_ = 0;
    spike_count_ = 0;
    std::fill(population_spikes_.begin(), population_spikes_.end(), 0);
    sim_s_ = 0;
    exchange_s_ = 0;
    for (auto& sink : spike_sinks_) {
        sink.data->node_ids.clear();
        sink.data->steps.clear();
        sink.data->steps_recorded = 0;
    }
    for (auto& sink : state_sinks_) {
        sink.data->sample_steps.clear();
        sink.data->values.clear();
        sink.start = 0;
        sample_state(sink);
    }
}

void cpu_engine::set_input(population_index pop, const population_input& input) {
    if (const auto* c = std::get_if<constant_input>(&input))
        std::get<discrete_population>(pops_[pop.value]).set_bias(c->per_neuron);
    else
        std::get<analog_population>(pops_[pop.value]).set_values(std::get<step_table_input>(input).per_step);
}

void cpu_engine::refresh_inputs(const network& net, population_index pop) {
    std::visit(
        [&](auto& k) {
            if constexpr (requires { k.refresh_parameters(net, pop, seed_); }) k.refresh_parameters(net, pop, seed_);
            if constexpr (requires { k.refresh_currents(net, pop, seed_, step_); }) k.refresh_currents(net, pop, seed_, step_);
            if constexpr (requires { k.refresh(net, pop, step_); }) k.refresh(net, pop, step_);
        },
        pops_[pop.value]);
}

}  // namespace volley::snn::detail
