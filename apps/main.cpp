// The `volley` command-line tool: one binary, one subcommand per job.

#include "cli_common.hpp"
#include "cmd_nir.hpp"
#include "mpi_launch.hpp"

#include <volley/error.hpp>

#include <csignal>
#include <cstdio>
#include <exception>

namespace {

/// Input errors (exit 2) are those caused by what the user gave us.
bool is_input_error(const volley::error& e) {
    return dynamic_cast<const volley::internal_error*>(&e) == nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    // A file-size limit (ulimit -f) makes a write fail with EFBIG, which the writers report as an
    // error naming the file, instead of killing the process with SIGXFSZ mid-write.
    std::signal(SIGXFSZ, SIG_IGN);
    try {
        volley::cli::start_mpi_if_launched(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "volley: error: %s\n", e.what());
        return 1;
    }
    CLI::App app{"Volley: event-driven spiking neural network simulator", "volley"};
    app.require_subcommand(1);
    app.set_version_flag("--version", VOLLEY_VERSION_STRING);
    volley::cli::command_context ctx;
    volley::cli::register_info(app, ctx);
    volley::cli::register_run(app, ctx);
    volley::cli::register_bench(app, ctx);
    volley::cli::register_demo(app, ctx);
    volley::cli::register_risp(app, ctx);
    volley::cli::register_danna(app, ctx);
    volley::cli::register_train(app, ctx);
    volley::cli::register_convert(app, ctx);
    volley::cli::register_nir(app, ctx);
    volley::cli::register_analyse(app, ctx);
    volley::cli::register_evolve(app, ctx);
    volley::cli::register_control(app, ctx);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    } catch (const volley::error& e) {
        std::fprintf(stderr, "volley: error: %s\n", e.what());
        return volley::cli::fail_all_ranks(is_input_error(e) ? 2 : 1);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "volley: error: %s\n", e.what());
        return volley::cli::fail_all_ranks(1);
    }
    return ctx.exit_code;
}
