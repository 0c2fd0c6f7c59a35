#pragma once
// The RISP throughput benchmarks of issue 5, shared by `volley bench risp` and bench/micro:
// a saturated random network (every neuron fires every step) and a sparse one (1% of the
// neurons fire each step).

#include <volley/hw/risp_params.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <cstdint>

namespace volley::hw {

/// Shape of a benchmark network.
struct risp_benchmark_config {
    int neurons = 2000;          ///< number of neurons
    int fan_out = 16;            ///< distinct random targets per neuron
    double active_fraction = 1;  ///< fraction of neurons that fire every step (1 = saturated)
    bool discrete = true;        ///< integer mode
    std::int64_t steps = 5000;   ///< length of the run [steps]
    std::uint32_t seed = 1;      ///< seed of the random wiring
};

/// What one benchmark run measured.
struct risp_benchmark_result {
    std::int64_t synaptic_events = 0;  ///< events delivered along synapses (inputs excluded)
    std::int64_t fires = 0;            ///< neuron fires
    double seconds = 0;                ///< [s] wall time of the run() call only
    double events_per_s = 0;           ///< synaptic_events / seconds
    double cpu_seconds = 0;            ///< [s] CPU time of the calling thread during run()
    double events_per_cpu_s = 0;       ///< synaptic_events / cpu_seconds (robust on a busy host)
};

/// The processor parameters used by the benchmark networks.
risp_params risp_benchmark_params(const risp_benchmark_config& config);

/// Builds the network. Saturated: delay 1, threshold 1, weight 1, every neuron an input.
/// Sparse: the active neurons (threshold 1) each have a self-loop among their out-edges and
/// are the inputs; the others have a threshold they cannot reach, and leak_mode is "all".
tennlab_network make_risp_benchmark_network(const risp_benchmark_config& config);

/// Loads the network, fires every input at t = 0, and times run(steps).
risp_benchmark_result run_risp_benchmark(const risp_benchmark_config& config);

}  // namespace volley::hw
