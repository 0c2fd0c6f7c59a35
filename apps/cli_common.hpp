#pragma once
// Shared pieces of the `volley` command line: the exit-code convention and JSON output.
//   exit 0: success; 2: usage or input error (message on stderr); 1: any other failure.

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <volley/error.hpp>
#include <volley/snn/context.hpp>
#include <volley/thread_limit.hpp>

#include <cstdio>
#include <string>

namespace volley::cli {

/// State shared between main() and the subcommands.
struct command_context {
    int exit_code = 0;  ///< set by a subcommand that finishes with a status other than 0
};

/// Prints one JSON object on stdout, as every subcommand does under --json.
inline void print_json(const nlohmann::json& j) {
    std::fputs((j.dump(2) + "\n").c_str(), stdout);
    std::fflush(stdout);
}

/// Adds `--threads` to `cmd`: 0 (all cores) up to max_thread_count(); a larger or negative count
/// is a usage error (exit 2) that gives the bound.
inline CLI::Option* add_threads_option(CLI::App& cmd, int& threads, const std::string& help) {
    return cmd.add_option("--threads", threads, help)->check(CLI::Validator(
        [](std::string& text) -> std::string {
            try {
                check_thread_count("--threads", std::stoi(text));
            } catch (const invalid_parameter& e) {
                return e.what();
            } catch (const std::exception&) {
                return "--threads: threads = " + text + ": not an integer";
            }
            return "";
        },
        "0.." + std::to_string(max_thread_count())));
}

/// The engine's tuning options of a subcommand, as typed (docs/engine.md, "Tuning"): they change
/// the speed, never the spikes.
struct tuning_words {
    std::string isa = "best";   ///< --cpu-isa: best, avx2 or baseline
    std::string pairs = "auto"; ///< --step-pairs: auto, off or on
    std::string backend = "cpu";  ///< --backend: cpu, portable or cuda (docs/cuda.md; same spikes)
};

/// Adds --cpu-isa and --step-pairs to `cmd`.
inline void add_tuning_options(CLI::App& cmd, tuning_words& w) {
    cmd.add_option("--cpu-isa", w.isa, "Widest kernels the engine may use: best, avx2 or baseline (same spikes)");
    cmd.add_option("--step-pairs", w.pairs, "LIF steps two at a time: auto, off or on (same spikes)");
    cmd.add_option("--backend", w.backend,
                   "Engine: cpu, portable (the CUDA backend's source on OpenMP) or cuda (GPU 0); same spikes "
                   "(docs/cuda.md)");
}

/// The engine named by --backend; throws invalid_parameter for another word.
inline snn::backend_kind parse_backend(const std::string& word) {
    if (word == "cpu") return snn::backend_kind::cpu;
    if (word == "portable") return snn::backend_kind::portable;
    if (word == "cuda") return snn::backend_kind::cuda;
    throw invalid_parameter("--backend", "backend", word, "expected cpu, portable or cuda");
}

/// Peak resident set size of this process, in bytes.
std::size_t peak_rss_bytes();

/// True when stderr is a terminal (progress bars are drawn only then).
bool stderr_is_terminal();

// One registration function per subcommand, each in its own cmd_<name>.cpp.
void register_info(CLI::App& app, command_context& ctx);
void register_run(CLI::App& app, command_context& ctx);
void register_bench(CLI::App& app, command_context& ctx);
void register_demo(CLI::App& app, command_context& ctx);
void register_risp(CLI::App& app, command_context& ctx);
void register_danna(CLI::App& app, command_context& ctx);
void register_train(CLI::App& app, command_context& ctx);
void register_convert(CLI::App& app, command_context& ctx);
void register_analyse(CLI::App& app, command_context& ctx);
void register_evolve(CLI::App& app, command_context& ctx);
void register_control(CLI::App& app, command_context& ctx);
/// Adds `volley bench risp` under the `bench` subcommand.
void register_bench_risp(CLI::App& bench, command_context& ctx);
/// Adds `volley bench peers` (Volley beside Brian2 and NEST) under the `bench` subcommand.
void register_bench_peers(CLI::App& bench, command_context& ctx);
/// Adds `volley bench danna` under the `bench` subcommand.
void register_bench_danna(CLI::App& bench, command_context& ctx);

}  // namespace volley::cli
