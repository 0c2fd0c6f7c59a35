#pragma once
// A recorded run: what `volley run` does around a simulation, for any caller (the CLI, the
// Python module, a C++ program). Spikes stream into a SONATA file as the run goes (or a CSV
// file at its end), state variables are sampled into the SONATA file, the whole state is
// checkpointed every so often and at the end, a run can continue from a checkpoint, and a
// raster plot and the run's figures (run_figures.hpp) come out at the end.
//
// The interrupted-run guarantee: a run stopped by the observer, or one that fails part way,
// leaves a valid output file with every spike recorded up to then, and (when a checkpoint is
// asked for) a checkpoint at the step it stopped at, from which `resume` continues to the same
// spikes as an uninterrupted run. A killed process leaves the SONATA file valid up to its last
// flush (docs/recording-format.md).
//
// The library draws nothing and installs no signal handler: the caller's observer shows the
// progress and says when to stop (the CLI's Ctrl-C handler and progress bar, Python's Ctrl-C).

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <volley/snn/run_figures.hpp>
#include <volley/snn/simulation.hpp>

namespace volley::snn {

/// A state variable to record into the SONATA output: population, variable (v_mv, ...) and the
/// sampling interval [ms] (whole steps, >= 1 step).
struct state_request {
    std::string population;
    std::string variable;
    double interval_ms = 1.0;
};

/// Parses "POP:VAR[:INTERVAL_MS]" (the interval 1 ms when left out); invalid_parameter naming
/// `option` and the text otherwise.
state_request parse_state_request(const std::string& text, const std::string& option = "--state");

/// What a recorded run writes, besides running.
struct recorded_run_options {
    /// Spikes to FILE.h5 (SONATA, streamed and flushed during the run) or FILE.csv (at the end).
    std::optional<std::filesystem::path> out{};
    /// A raster plot of the neurons' spikes with population rates, FILE.svg, at the end.
    std::optional<std::filesystem::path> plot{};
    std::string plot_title{};  ///< the plot's title
    /// State variables sampled into the SONATA output (an .h5 `out` is needed).
    std::vector<state_request> states{};
    /// Written at the end of the run, when it is stopped, and every checkpoint_every_ms of
    /// simulated time when that is > 0 (each one replaces the last).
    std::optional<std::filesystem::path> checkpoint{};
    double checkpoint_every_ms = 0;  ///< [ms]; needs `checkpoint`
    /// A checkpoint to continue from (simulation::restore) before anything is recorded; the run
    /// then lasts its duration from there, and the outputs and figures cover that span.
    std::optional<std::filesystem::path> resume{};
    /// The .h5 output is flushed (valid and complete up to there) when it is opened, and then at
    /// the first progress step after each flush_every_s of wall-clock time [s] (0: at every
    /// progress step, 1/200 of the run).
    double flush_every_s = 1.0;
    /// Record the spikes of source populations (Poisson drives, spike arrays) too. False for a
    /// network whose drive outnumbers its neurons' spikes many times over: they are counted, not
    /// kept, and the checksum and the outputs hold the neurons only.
    bool record_sources = true;
    /// Count spikes without recording them (no checksum, no `out`, `plot` or `states`): the
    /// memory of a peer that only counts, as Brian2's SpikeMonitor(record=False).
    bool count_only = false;
    /// When > 0 (and spikes are recorded), each population's figures also give its rate
    /// counting only spikes from this time [ms] on.
    double transient_ms = 0;
};

/// How the caller follows a recorded run. Both are consulted at the run's progress steps
/// (about 1/200 of it, at most every 1000 steps), in the thread that calls run_recorded.
struct run_observer {
    /// Called with the biological time simulated so far in this run and the run's length [ms].
    std::function<void(double done_ms, double total_ms)> progress{};
    /// When it reads true, the run stops after the current step: the outputs are finished with
    /// what was recorded, the checkpoint is written, and the figures say completed = false.
    const std::atomic<bool>* stop = nullptr;
};

/// Runs `sim` for `duration_ms` (whole steps) from where it is (or from options.resume),
/// writing the outputs of `options`, and returns the figures of this span. The recorders it
/// attaches are stopped when it returns; the progress callback of `sim` (on_progress) is
/// replaced during the run and cleared after it. On several ranks (a distributed context) the
/// spikes are gathered to every rank after the run and rank 0 writes the outputs; checkpoints,
/// resume, state recording and the weights of plastic projections in an .h5 output are refused
/// there. Throws invalid_parameter for options that do not fit together (naming the option),
/// and what the simulation, the writers and restore throw; an output being written when an
/// error is thrown keeps what was recorded.
run_figures run_recorded(simulation& sim, double duration_ms, const recorded_run_options& options,
                         const run_observer& observer = {});

/// Builds the simulation of `net` and runs it as above; the figures include its build time.
run_figures run_recorded(const network& net, const context& where, const simulation_options& sim_options,
                         double duration_ms, const recorded_run_options& options, const run_observer& observer = {});

}  // namespace volley::snn
