#pragma once
// The throughput benchmark of the element grid (issue 6, "Speed"): a fully used array whose
// columns are chains neuron -> fan-out -> synapse -> neuron -> ..., every cell programmed.
// Dense: the top neuron of every column fires on its own every cycle (threshold 0,
// refractory 0), so after the pipeline fills every element works every cycle. Sparse: only
// `active_columns` columns fire; the rest of the array is idle and must cost nothing.

#include <volley/danna/grid_programme.hpp>

#include <cstdint>
#include <string>

namespace volley::danna {

/// What to run.
struct grid_benchmark_config {
    std::string preset = "fpga2014";  ///< grid preset
    int active_columns = -1;          ///< columns that fire; -1 = all (dense)
    std::int64_t cycles = 2000;       ///< network cycles simulated
};

/// What was measured (wall time around the engine's run only).
struct grid_benchmark_result {
    std::int64_t cells = 0;            ///< elements in the array (all programmed)
    std::int64_t cycles = 0;           ///< network cycles
    std::int64_t element_updates = 0;  ///< element evaluations actually performed
    std::int64_t neuron_fires = 0;     ///< neuron fires
    double seconds = 0;                ///< [s] wall time of the run
    double network_cycles_per_s = 0;   ///< cycles / seconds
    double element_updates_per_s = 0;  ///< cells × cycles / seconds (the array's rate)
    double work_updates_per_s = 0;     ///< element_updates / seconds (work actually done)
};

/// The benchmark programme (all cells used).
grid_programme benchmark_programme(const std::string& preset, int active_columns);

/// Builds the programme and times one run.
grid_benchmark_result run_grid_benchmark(const grid_benchmark_config& config);

}  // namespace volley::danna
