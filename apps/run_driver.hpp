#pragma once
// Running a network from the command line: build, run with progress and Ctrl-C handling,
// stream recordings to disk, and report the figures that every `run` and `bench` prints.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/simulation.hpp>

namespace volley::cli {

/// A state variable to record: population, variable and sampling interval [ms].
struct state_request {
    std::string population;
    std::string variable;
    double interval_ms = 1.0;
};

/// What to run and where to write it.
struct run_request {
    snn::network net{};
    snn::run_settings settings{};
    int threads = 0;  ///< 0: the OpenMP default
    snn::instruction_set max_isa = snn::instruction_set::best;  ///< tuning (same spikes)
    snn::step_pairing step_pairs = snn::step_pairing::automatic;
    snn::backend_kind backend = snn::backend_kind::cpu;  ///< --backend (cuda runs on GPU 0)
    std::optional<std::filesystem::path> out{};   ///< .h5 (SONATA) or .csv
    std::optional<std::filesystem::path> plot{};  ///< .svg raster with rates
    std::vector<state_request> states{};          ///< recorded into the .h5 output
    bool quiet = false;
    /// Count spikes without recording them (no raster, no checksum, no --out or --plot): the
    /// memory of a peer that only counts, as Brian2's SpikeMonitor(record=False).
    bool count_only = false;
    std::string title{};  ///< used in the plot
    /// Record the spikes of source populations (Poisson drives, spike arrays) too. False for a
    /// network whose drive outnumbers its neurons' spikes many times over (the microcircuit's
    /// drive fires 1.7e9 spikes in 1.5 s at full scale): they are counted, not kept, and the
    /// raster, its checksum and the outputs hold the neurons only.
    bool record_sources = true;
    /// When > 0 (and spikes are recorded), each population's figures also give
    /// `rate_after_transient_hz`: its rate counting only spikes from this time [ms] on.
    double transient_ms = 0;
    /// The .h5 output is flushed (valid and complete up to there, docs/recording-format.md) when
    /// it is opened, and then at the first progress step after each flush_every_s of wall-clock
    /// time [s] (0: at every progress step, 1/200 of the run).
    double flush_every_s = 1.0;
    /// Written at the end of the run, when interrupted, and every checkpoint_every_ms (when > 0).
    std::optional<std::filesystem::path> checkpoint{};
    double checkpoint_every_ms = 0;
    /// A checkpoint to continue from; the run then lasts settings.duration_ms from there.
    std::optional<std::filesystem::path> resume{};
    /// When set: run rank 0 of projection->ranks alone (snn::projected_rank; count_only only),
    /// filling projection->record; the figures then count what that rank did, times the ranks.
    struct projection_request {
        int ranks = 1;
        std::shared_ptr<snn::projection_record> record = std::make_shared<snn::projection_record>();
    };
    std::optional<projection_request> projection{};
};

/// The outcome: the figures (the JSON object of --json) and whether the run completed.
struct run_outcome {
    nlohmann::json figures;
    bool completed = true;
};

/// Builds and runs the network, writing outputs as it goes. Throws volley::error on bad input.
run_outcome execute_run(const run_request& request);

/// --integrator SCHEME: sets the scheme of every ODE population of `net`; throws
/// invalid_parameter for an unknown scheme or a network without one, unsupported_model for a
/// population whose model does not support it.
void apply_integrator_option(snn::network& net, const std::string& scheme);

/// Prints the human-readable summary of a run's figures on stdout.
void print_run_summary(const nlohmann::json& figures);

/// Parses "POP:VAR[:INTERVAL_MS]"; throws volley::invalid_parameter.
state_request parse_state_request(const std::string& text);

}  // namespace volley::cli
