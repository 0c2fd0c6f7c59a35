#pragma once
// Running a network from the command line: the CLI's glue around the library's recorded run
// (volley/snn/recorded_run.hpp): the MPI launch context or a projected rank, the option names in
// messages, the Ctrl-C handler and the progress bar, and the summary every `run` and `bench`
// prints.

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/recorded_run.hpp>
#include <volley/snn/simulation.hpp>

namespace volley::cli {

/// What to run and where to write it.
struct run_request {
    snn::network net{};
    snn::run_settings settings{};
    int threads = 0;  ///< 0: the OpenMP default
    snn::instruction_set max_isa = snn::instruction_set::best;  ///< tuning (same spikes)
    snn::step_pairing step_pairs = snn::step_pairing::automatic;
    snn::backend_kind backend = snn::backend_kind::cpu;  ///< --backend (cuda runs on GPU 0)
    /// --out, --plot (its title: the file or the benchmark), --state, --checkpoint,
    /// --checkpoint-every, --resume, --flush-every, --count-only, and the benchmarks' choices.
    snn::recorded_run_options recording{};
    bool quiet = false;  ///< no progress bar
    /// When set: run rank 0 of projection->ranks alone (snn::projected_rank; count_only only),
    /// filling projection->record; the figures then count what that rank did, times the ranks.
    /// The CLI's benchmarking tool (bench/mpi/README.md), so it stays here.
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

/// Builds the network in the launch context and runs it (snn::run_recorded) with a progress bar
/// and Ctrl-C stopping it. Throws volley::error on bad input, naming the command-line option.
run_outcome execute_run(const run_request& request);

/// --integrator SCHEME: sets the scheme of every ODE population of `net`; throws
/// invalid_parameter for an unknown scheme or a network without one, unsupported_model for a
/// population whose model does not support it.
void apply_integrator_option(snn::network& net, const std::string& scheme);

/// Prints the human-readable summary of a run's figures on stdout.
void print_run_summary(const nlohmann::json& figures);

}  // namespace volley::cli
