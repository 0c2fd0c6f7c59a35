// RISP throughput on the issue-5 networks: saturated (2,000 neurons x 16 out-edges, delay 1,
// threshold 1, weight 1, all fired at t = 0, RUN 5000: about 160 M synaptic events) and
// sparse (1% of the neurons fire each step). The counter "events/s" is synaptic events per
// second of wall time, measured around run() only.

#include <volley/hw/risp_benchmark.hpp>

#include <benchmark/benchmark.h>

namespace {

void run_config(benchmark::State& state, volley::hw::risp_benchmark_config config) {
    double events = 0, seconds = 0, cpu_seconds = 0;
    for (auto _ : state) {
        const auto r = volley::hw::run_risp_benchmark(config);
        events += static_cast<double>(r.synaptic_events);
        seconds += r.seconds;
        cpu_seconds += r.cpu_seconds;
        state.SetIterationTime(r.seconds);
    }
    state.counters["events/s"] = events / seconds;
    state.counters["events/cpu_s"] = events / cpu_seconds;
    state.counters["events"] = events / static_cast<double>(state.iterations());
}

void saturated_discrete(benchmark::State& state) {
    run_config(state, {});
}

void saturated_float(benchmark::State& state) {
    volley::hw::risp_benchmark_config c;
    c.discrete = false;
    run_config(state, c);
}

void sparse_discrete(benchmark::State& state) {
    volley::hw::risp_benchmark_config c;
    c.active_fraction = 0.01;
    c.steps = 50000;
    run_config(state, c);
}

}  // namespace

BENCHMARK(saturated_discrete)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(saturated_float)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(sparse_discrete)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
