#pragma once
// `volley nir info FILE.nir` and the NIR branch of `volley run FILE.nir --input ...`.

#include "cli_common.hpp"

#include <volley/snn/nir_network.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace volley::cli {

/// The options of `volley run` that apply to a NIR file.
struct nir_run_options {
    std::string file;
    std::string input;                  ///< CSV (one row per step) or .npz (array x)
    std::optional<double> dt_s;         ///< default 1e-4 s
    std::optional<std::int64_t> steps;  ///< default: the input's rows
    std::string discretisation = "euler";
    std::vector<std::string> reset;     ///< --reset MODE or NODE=MODE (snn::apply_nir_reset)
    std::string out;                    ///< SONATA spikes .h5, optional
    int threads = 0;                    ///< 0: the OpenMP default
    bool json = false;
};

/// Runs a NIR file and prints the options used and the spikes per node (and, with --json, each
/// Output node's spike steps when there are at most 100,000).
void run_nir_file(const nir_run_options& o);

/// Prints each warning to stderr ("warning: LIF node '1': dt/tau = 100 >= 1 ...") and returns
/// them as the JSON array of `warnings` (node, parameter, dt_over_tau, neurons, message).
nlohmann::json report_nir_step_warnings(const std::vector<snn::nir_step_warning>& warnings);

/// Adds `volley nir` (subcommand `info`).
void register_nir(CLI::App& app, command_context& ctx);

}  // namespace volley::cli
