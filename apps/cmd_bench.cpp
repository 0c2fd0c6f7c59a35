// `volley bench <network>`: standard benchmark networks built in code.

#include "cli_common.hpp"
#include "run_driver.hpp"

#include <volley/snn/standard_networks.hpp>

#include <memory>

namespace volley::cli {

namespace {

struct cuba_options {
    std::uint32_t neurons = 4000;
    double duration_ms = 1000, dt_ms = 0.1;
    std::uint64_t seed = 42;
    int threads = 0;
    std::string out, plot;
    bool json = false, quiet = false;
};

}  // namespace

void register_bench(CLI::App& app, command_context& ctx) {
    auto* bench = app.add_subcommand("bench", "Run benchmark networks and print their figures");
    bench->require_subcommand(1);
    auto* cuba = bench->add_subcommand(
        "cuba", "The CUBA network (Vogels & Abbott 2005; Brette et al. 2007): 80/20 exc/inh lif_exp, ~80 inputs each");
    auto o = std::make_shared<cuba_options>();
    cuba->add_option("--neurons", o->neurons, "Number of neurons N (p = 80/N)")->check(CLI::Range(10u, 100000000u));
    cuba->add_option("--duration", o->duration_ms, "Biological time [ms]")->check(CLI::NonNegativeNumber);
    cuba->add_option("--dt", o->dt_ms, "Time step [ms]")->check(CLI::PositiveNumber);
    cuba->add_option("--threads", o->threads, "OpenMP threads (0: default)")->check(CLI::NonNegativeNumber);
    cuba->add_option("--seed", o->seed, "Seed");
    cuba->add_option("--out", o->out, "Write spikes to FILE.h5 or FILE.csv");
    cuba->add_option("--plot", o->plot, "Write a raster plot to FILE.svg");
    cuba->add_flag("--json", o->json, "Print one JSON object with the figures on stdout");
    cuba->add_flag("--quiet", o->quiet, "No progress bar");
    cuba->callback([o, &ctx] {
        run_request req{.net = snn::cuba_network(o->neurons, o->dt_ms),
                        .settings = {.dt_ms = o->dt_ms, .duration_ms = o->duration_ms, .seed = o->seed},
                        .threads = o->threads};
        if (!o->out.empty()) req.out = o->out;
        if (!o->plot.empty()) req.plot = o->plot;
        req.quiet = o->quiet;
        req.title = "CUBA, N = " + std::to_string(o->neurons);
        auto outcome = execute_run(req);
        outcome.figures["network"] = "cuba";
        if (outcome.figures["threads"].get<int>() > 1 && outcome.completed) {
            // The same network on one thread, to report the speed-up (rasters are identical).
            run_request one{.net = req.net, .settings = req.settings, .threads = 1};
            one.quiet = true;
            const auto single = execute_run(one);
            outcome.figures["sim_s_1_thread"] = single.figures["sim_s"];
            outcome.figures["speedup_over_1_thread"] = single.figures["sim_s"].get<double>() / outcome.figures["sim_s"].get<double>();
            outcome.figures["raster_matches_1_thread"] = single.figures["spike_checksum"] == outcome.figures["spike_checksum"];
        }
        if (o->json) print_json(outcome.figures);
        else print_run_summary(outcome.figures);
        if (!o->json && outcome.figures.contains("speedup_over_1_thread"))
            std::printf("speed-up over 1 thread %.2fx (1 thread: %.3f s; same raster: %s)\n",
                        outcome.figures["speedup_over_1_thread"].get<double>(), outcome.figures["sim_s_1_thread"].get<double>(),
                        outcome.figures["raster_matches_1_thread"].get<bool>() ? "yes" : "NO");
        if (!outcome.completed) ctx.exit_code = 1;
    });
    register_bench_risp(*bench, ctx);
    register_bench_peers(*bench, ctx);
    register_bench_danna(*bench, ctx);
}

}  // namespace volley::cli
