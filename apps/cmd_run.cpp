// `volley run NETWORK.json`: runs a Volley network file (or a NIR file: cmd_nir.cpp).

#include "cli_common.hpp"
#include "cmd_nir.hpp"
#include "run_driver.hpp"

#include <memory>

namespace volley::cli {

namespace {

struct run_options {
    std::string network;
    std::optional<double> duration_ms, dt_ms;
    std::optional<std::uint64_t> seed;
    int threads = 0;
    std::string out, plot;
    std::vector<std::string> states;
    bool json = false, quiet = false;
    nir_run_options nir;  ///< the options only a .nir file takes
};

}  // namespace

void register_run(CLI::App& app, command_context& ctx) {
    auto* cmd = app.add_subcommand("run", "Run a network file and report spikes, rates and speed");
    auto o = std::make_shared<run_options>();
    cmd->add_option("network", o->network, "Volley network JSON file (docs/network-format.md) or NIR file (docs/nir.md)")->required();
    cmd->add_option("--duration", o->duration_ms, "Biological time to simulate [ms] (default: the file's run.duration_ms)");
    cmd->add_option("--dt", o->dt_ms, "Time step [ms] (default: the file's run.dt_ms); for a .nir file in [s], default 1e-4");
    cmd->add_option("--input", o->nir.input, ".nir only: input per step, CSV (one row per step) or .npz (array x)");
    cmd->add_option("--steps", o->nir.steps, ".nir only: steps to run (default: the input's rows)");
    cmd->add_option("--discretisation", o->nir.discretisation, ".nir only: euler (default) or exact");
    cmd->add_option("--reset", o->nir.reset, ".nir only: to-v-reset (default) or subtract");
    cmd->add_option("--threads", o->threads, "OpenMP threads (0: OMP_NUM_THREADS or all cores)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--seed", o->seed, "Seed of every random stream (default: the file's run.seed)");
    cmd->add_option("--out", o->out, "Write spikes to FILE.h5 (SONATA layout) or FILE.csv");
    cmd->add_option("--plot", o->plot, "Write a raster plot with population rates to FILE.svg");
    cmd->add_option("--state", o->states, "Record POP:VAR[:INTERVAL_MS] into the .h5 output (repeatable)");
    cmd->add_flag("--json", o->json, "Print one JSON object with the figures on stdout");
    cmd->add_flag("--quiet", o->quiet, "No progress bar");
    cmd->callback([o, &ctx] {
        if (is_nir_file(o->network)) {
            o->nir.file = o->network;
            o->nir.dt_s = o->dt_ms;
            o->nir.out = o->out;
            o->nir.json = o->json;
            o->nir.threads = o->threads;
            run_nir_file(o->nir);
            return;
        }
        auto file = snn::load_network_json(o->network);
        run_request req{.net = std::move(file.net), .settings = file.run, .threads = o->threads};
        if (o->duration_ms) req.settings.duration_ms = *o->duration_ms;
        if (o->dt_ms) req.settings.dt_ms = *o->dt_ms;
        if (o->seed) req.settings.seed = *o->seed;
        if (!(req.settings.duration_ms >= 0))
            throw invalid_parameter("--duration", "duration_ms", std::to_string(req.settings.duration_ms), "must be >= 0");
        if (!o->out.empty()) req.out = o->out;
        if (!o->plot.empty()) req.plot = o->plot;
        for (const auto& s : o->states) req.states.push_back(parse_state_request(s));
        req.quiet = o->quiet;
        req.title = o->network;
        const auto outcome = execute_run(req);
        if (o->json) print_json(outcome.figures);
        else print_run_summary(outcome.figures);
        if (!outcome.completed) {
            std::fprintf(stderr, "volley: interrupted at t = %.1f ms; recordings up to then were kept\n",
                         outcome.figures["duration_ms"].get<double>());
            ctx.exit_code = 1;
        }
    });
}

}  // namespace volley::cli
