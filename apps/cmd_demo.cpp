// `volley demo`: the main job. Until the conversion pipeline lands (issues 7 and 8), it runs
// the CUBA network and writes its spikes (SONATA HDF5) and raster plot.

#include "cli_common.hpp"
#include "run_driver.hpp"

#include <volley/snn/standard_networks.hpp>

#include <filesystem>
#include <memory>

namespace volley::cli {

namespace {

struct demo_options {
    std::string out_dir = "out";
    std::uint32_t neurons = 4000;
    double duration_ms = 1000;
    int threads = 0;
    bool json = false, quiet = false;
};

}  // namespace

void register_demo(CLI::App& app, command_context& ctx) {
    auto* cmd = app.add_subcommand("demo", "The main job: run the CUBA network, write spikes and a raster plot");
    auto o = std::make_shared<demo_options>();
    cmd->add_option("--out-dir", o->out_dir, "Directory for cuba_spikes.h5 and cuba_raster.svg");
    cmd->add_option("--neurons", o->neurons, "Number of neurons")->check(CLI::Range(10u, 100000000u));
    cmd->add_option("--duration", o->duration_ms, "Biological time [ms]")->check(CLI::NonNegativeNumber);
    cmd->add_option("--threads", o->threads, "OpenMP threads (0: default)")->check(CLI::NonNegativeNumber);
    cmd->add_flag("--json", o->json, "Print one JSON object with the figures on stdout");
    cmd->add_flag("--quiet", o->quiet, "No progress bar");
    cmd->callback([o, &ctx] {
        const std::filesystem::path dir(o->out_dir);
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec) throw io_error(dir.string(), "cannot create output directory: " + ec.message());
        run_request req{.net = snn::cuba_network(o->neurons),
                        .settings = {.dt_ms = 0.1, .duration_ms = o->duration_ms, .seed = 42},
                        .threads = o->threads};
        req.out = dir / "cuba_spikes.h5";
        req.plot = dir / "cuba_raster.svg";
        req.quiet = o->quiet;
        req.title = "CUBA network (Vogels & Abbott 2005), N = " + std::to_string(o->neurons);
        auto outcome = execute_run(req);
        outcome.figures["network"] = "cuba";
        if (o->json) {
            print_json(outcome.figures);
        } else {
            std::printf("Volley demo: the CUBA benchmark network (Brian2 gives 5.6-5.9 Hz at N = 4000)\n\n");
            print_run_summary(outcome.figures);
        }
        if (!outcome.completed) ctx.exit_code = 1;
    });
}

}  // namespace volley::cli
