#pragma once
// The options of `volley run` (cmd_run.cpp): declared on the subcommand, checked against the
// kind of file given, and turned into a run_request for a Volley network JSON file.

#include "cli_common.hpp"
#include "cmd_network_info.hpp"
#include "cmd_nir.hpp"
#include "run_driver.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace volley::cli {

/// `volley run`'s options, as typed.
struct run_options {
    std::string network;
    std::optional<double> duration_ms, dt_ms;
    std::optional<std::uint64_t> seed;
    int threads = 0;
    std::string out, plot, checkpoint, resume;
    std::optional<double> checkpoint_every_ms;
    std::optional<double> flush_every_s;
    std::vector<std::string> states;
    std::string integrator;
    bool json = false, quiet = false;
    tuning_words tuning;
    nir_run_options nir;  ///< the options of a NIR file (--input and --steps also serve a converted one)
    std::size_t limit = 0;  ///< converted networks: the first N images
};

/// Declares every option of `volley run` on `cmd`, filling `o`.
void add_run_options(CLI::App& cmd, run_options& o);

/// Refuses the options given on the command line that do not apply to a file of this kind.
void check_options_apply(const CLI::App& cmd, const std::string& file, network_file_kind kind);

/// Loads the network JSON file o.network and applies the options to it: the run request, or
/// invalid_parameter naming the option that is out of range or does not fit the others.
run_request network_json_request(const run_options& o);

}  // namespace volley::cli
