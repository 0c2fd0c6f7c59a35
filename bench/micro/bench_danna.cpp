// DANNA grid throughput on a fully used fpga2014 array (65 x 65 = 4,225 elements; columns of
// neuron -> fan-out -> synapse chains). Dense: every column's top neuron fires every cycle,
// so every element works every cycle. Sparse: one column of 65 fires. Counters:
// "element_updates/s" = cells x cycles / wall time (the array's rate, as hardware would do
// it), "work/s" = element evaluations actually performed / wall time, "cycles/s".

#include <volley/danna/grid_benchmark.hpp>

#include <benchmark/benchmark.h>

namespace {

void run_config(benchmark::State& state, volley::danna::grid_benchmark_config config) {
    double cells_cycles = 0, work = 0, cycles = 0, seconds = 0;
    for (auto _ : state) {
        const auto r = volley::danna::run_grid_benchmark(config);
        cells_cycles += static_cast<double>(r.cells) * static_cast<double>(r.cycles);
        work += static_cast<double>(r.element_updates);
        cycles += static_cast<double>(r.cycles);
        seconds += r.seconds;
        state.SetIterationTime(r.seconds);
    }
    state.counters["element_updates/s"] = cells_cycles / seconds;
    state.counters["work/s"] = work / seconds;
    state.counters["cycles/s"] = cycles / seconds;
}

void fpga2014_dense(benchmark::State& state) {
    run_config(state, {"fpga2014", -1, 2000});
}

void fpga2014_sparse(benchmark::State& state) {
    run_config(state, {"fpga2014", 1, 100000});
}

void vlsi2016_dense(benchmark::State& state) {
    run_config(state, {"vlsi2016", -1, 2000});
}

}  // namespace

BENCHMARK(fpga2014_dense)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(fpga2014_sparse)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(vlsi2016_dense)->UseManualTime()->Unit(benchmark::kMillisecond);
