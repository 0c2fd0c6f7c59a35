#pragma once
// What recorded_run.cpp knows at the end of a run, from which run_figures.cpp computes its
// figures.

#include <cstdint>
#include <vector>

#include <volley/snn/recorded_run.hpp>

namespace volley::snn::detail {

struct run_span {
    const simulation& sim;
    /// The spikes recorded (every rank's, merged, on several ranks); recs[rec_of[p]] records
    /// population p, rec_of[p] = -1 when it is not recorded.
    const std::vector<spike_recorder>& recs;
    const std::vector<int>& rec_of;
    simulation_stats at_start;  ///< the simulation's figures when the run began (after resume)
    std::int64_t start_step = 0;
    bool completed = true;
};

/// The figures of the span: the engine's counts less those at its start (summed over the ranks,
/// the times the slowest rank's), the rates, the checksum of the recorded raster, and what
/// `options` wrote.
run_figures figures_of(const run_span& span, const recorded_run_options& options);

}  // namespace volley::snn::detail
