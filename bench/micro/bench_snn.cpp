// Micro-benchmarks of the engine, each through the public API on a network built to isolate
// one cost. items_per_second is synaptic events/s (queue, propagation) or neuron updates/s.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <optional>

#include <volley/snn/network.hpp>
#include <volley/snn/simulation.hpp>

namespace vs = volley::snn;

namespace {

const vs::lif_exp quiet_cell{{.tau_m_ms = 20, .tau_syn_e_ms = 5, .tau_syn_i_ms = 10, .v_rest_mv = -65,
                              .v_reset_mv = -65, .v_thresh_mv = 1e9, .t_ref_ms = 2, .i_e_mv = 0}};

/// Runs `ms` of `net` on one thread and sets the counters from the engine's statistics.
void run_and_count(benchmark::State& state, const vs::network& net, double ms, bool events) {
    std::uint64_t items = 0, synapses = 0;
    for (auto _ : state) {
        state.PauseTiming();
        vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.1, .seed = 42});
        state.ResumeTiming();
        sim.run(ms);
        const auto st = sim.stats();
        items += events ? st.synaptic_events : st.neurons * static_cast<std::uint64_t>(st.steps);
        synapses = st.synapses;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(items));
    state.counters["synapses"] = static_cast<double>(synapses);
}

/// The event queue: a Poisson source population fans out to `targets` silent neurons with a
/// fixed in-degree chosen so that each source has `fanout` targets; delays spread over
/// `slots` steps. Args: fanout, delay slots, targets.
void event_queue(benchmark::State& state) {
    const auto fanout = static_cast<std::uint32_t>(state.range(0));
    const auto slots = static_cast<double>(state.range(1));
    const auto targets = static_cast<std::uint32_t>(state.range(2));
    const std::uint32_t sources = 1000;
    vs::network net;
    const auto src = net.add_population("src", sources, vs::poisson_source{{.rate_hz = 50}});
    const auto tgt = net.add_population("tgt", targets, quiet_cell);
    const double p = std::min(1.0, double(fanout) / targets);
    vs::value_spec delay = 0.1;
    if (slots > 1) delay = vs::uniform{0.1, 0.1 * slots};
    net.connect(src, tgt, vs::fixed_probability{.p = p}, {.weight = 0.1, .delay_ms = delay});
    run_and_count(state, net, 100, true);
    state.counters["fanout"] = fanout;
    state.counters["slots"] = slots;
    state.counters["targets"] = targets;
}
BENCHMARK(event_queue)
    ->ArgsProduct({{10, 100, 1000, 10000}, {1}, {100000}})
    ->ArgsProduct({{100}, {1, 16, 256}, {100000}})
    ->ArgsProduct({{100}, {1}, {1000, 10000, 100000, 1000000}})
    ->Unit(benchmark::kMillisecond);

/// Spike propagation per connector (0 fixed probability, 1 fixed in-degree, 2 all-to-all,
/// 3 one-to-one) and weight distribution (0 constant, 1 uniform, 2 normal).
void propagation(benchmark::State& state) {
    const auto connector = state.range(0), weights = state.range(1);
    vs::network net;
    const std::uint32_t n = connector == 2 ? 500 : 10000;
    const auto src = net.add_population("src", n, vs::poisson_source{{.rate_hz = 50}});
    const auto tgt = net.add_population("tgt", n, quiet_cell);
    vs::value_spec w = 0.1;
    if (weights == 1) w = vs::uniform{0.05, 0.15};
    if (weights == 2) w = vs::normal{0.1, 0.02};
    vs::connector rule = vs::fixed_probability{.p = 100.0 / n};
    if (connector == 1) rule = vs::fixed_in_degree{.k = 100};
    if (connector == 2) rule = vs::all_to_all{};
    if (connector == 3) rule = vs::one_to_one{};
    net.connect(src, tgt, rule, {.weight = w, .delay_ms = 0.1});
    run_and_count(state, net, 100, true);
}
BENCHMARK(propagation)->ArgsProduct({{0, 1, 2, 3}, {0, 1, 2}})->Unit(benchmark::kMillisecond);

/// Neuron updates per model (0 lif_delta, 1 lif_exp, 2 lif_alpha), 100,000 neurons driven to
/// fire by a constant current, no synapses.
void neuron_update(benchmark::State& state) {
    vs::network net;
    vs::neuron_model model = vs::lif_exp{{.tau_m_ms = 20, .v_rest_mv = -65, .v_thresh_mv = -50, .i_e_mv = 20}};
    if (state.range(0) == 0) model = vs::lif_delta{{.tau_m_ms = 20, .v_rest_mv = -65, .v_thresh_mv = -50, .i_e_mv = 20}};
    if (state.range(0) == 2) model = vs::lif_alpha{{.tau_m_ms = 20, .v_rest_mv = -65, .v_thresh_mv = -50, .i_e_mv = 20}};
    net.add_population("cells", 100000, model);
    run_and_count(state, net, 50, false);
}
BENCHMARK(neuron_update)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

/// Recording overhead: 0 nothing, 1 every spike, 2 v of every neuron at every step.
void recording(benchmark::State& state) {
    vs::network net;
    const auto pop = net.add_population(
        "cells", 20000, vs::lif_exp{{.tau_m_ms = 20, .v_rest_mv = -65, .v_thresh_mv = -50, .i_e_mv = 20}});
    std::uint64_t items = 0;
    for (auto _ : state) {
        state.PauseTiming();
        vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.1, .seed = 42});
        std::optional<vs::spike_recorder> spikes;
        std::optional<vs::state_recorder> v;
        if (state.range(0) == 1) spikes.emplace(sim.record_spikes(pop));
        if (state.range(0) == 2) v.emplace(sim.record_state(pop, "v_mv", 0.1));
        state.ResumeTiming();
        sim.run(20);
        items += 20000ull * static_cast<std::uint64_t>(sim.stats().steps);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(items));
}
BENCHMARK(recording)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
