// `volley run FILE`: runs a Volley network file (run_options.cpp, run_driver.cpp), a NIR file
// (cmd_nir.cpp) or a converted network (cmd_run_converted.cpp), told apart by content
// (cmd_network_kind.cpp).

#include "cli_common.hpp"
#include "cmd_network_info.hpp"
#include "cmd_nir.hpp"
#include "cmd_run_converted.hpp"
#include "run_driver.hpp"
#include "run_options.hpp"

#include <memory>

namespace volley::cli {

void register_run(CLI::App& app, command_context& ctx) {
    auto* cmd = app.add_subcommand("run", "Run a network file and report spikes, rates and speed");
    auto o = std::make_shared<run_options>();
    add_run_options(*cmd, *o);
    cmd->callback([o, cmd, &ctx] {
        const auto kind = detect_network_file(o->network);
        check_options_apply(*cmd, o->network, kind);
        if (kind == network_file_kind::converted_snn) {
            run_converted_file({.file = o->network, .input = o->nir.input, .steps = o->nir.steps, .seed = o->seed,
                                .limit = o->limit, .threads = o->threads, .cpu_isa = o->tuning.isa, .json = o->json,
                                .quiet = o->quiet});
            return;
        }
        if (kind == network_file_kind::tennlab_json || kind == network_file_kind::danna_programme)
            throw invalid_parameter("volley run " + o->network, "file", kind_name(kind),
                                    "runs on a neuroprocessor model: volley danna run " + o->network +
                                        " --model danna2 --inputs SPIKES.csv --cycles N (or ML it in volley risp)");
        if (kind == network_file_kind::cnn_model)
            throw invalid_parameter("volley run " + o->network, "file", kind_name(kind),
                                    "a trained CNN is not a spiking network: convert it first, volley convert " +
                                        o->network + " --out snn.h5, then volley run snn.h5 --input IMAGES");
        if (kind == network_file_kind::spike_recording)
            throw invalid_parameter("volley run " + o->network, "file", kind_name(kind),
                                    "a recording written by volley run --out, not a network");
        if (kind == network_file_kind::nir) {
            o->nir.file = o->network;
            o->nir.dt_s = o->dt_ms;
            o->nir.out = o->out;
            o->nir.json = o->json;
            o->nir.threads = o->threads;
            run_nir_file(o->nir);
            return;
        }
        const auto outcome = execute_run(network_json_request(*o));
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
