// `volley run`'s options (see run_options.hpp).

#include "run_options.hpp"

#include <volley/snn/run_length.hpp>

#include <algorithm>
#include <cmath>

namespace volley::cli {

void add_run_options(CLI::App& cmd, run_options& o) {
    cmd.add_option("network", o.network,
                   "Network JSON (docs/network-format.md), NIR (docs/nir.md) or converted SNN .h5 (docs/network-files.md)")
        ->required();
    cmd.add_option("--duration", o.duration_ms, "Biological time to simulate [ms] (default: the file's run.duration_ms)");
    cmd.add_option("--dt", o.dt_ms, "Time step [ms] (default: the file's run.dt_ms); for a .nir file in [s], default 1e-4");
    cmd.add_option("--input", o.nir.input,
                   ".nir: input per step, CSV (one row per step) or .npz (array x); converted .h5: images, "
                   "npz:FILE, idx:PREFIX or fashion-mnist");
    cmd.add_option("--steps", o.nir.steps,
                   ".nir: steps to run (default: the input's rows); converted .h5: steps per image (default: the "
                   "file's --timesteps)");
    cmd.add_option("--limit", o.limit, "converted .h5 only: the first N images (0: all)");
    cmd.add_option("--discretisation", o.nir.discretisation, ".nir only: euler (default) or exact");
    cmd.add_option("--reset", o.nir.reset,
                   ".nir only: to-v-reset (default; Norse), subtract (Sinabs), subtract-delayed (snnTorch), "
                   "subtract-no-delay, to-v-reset-delayed, none; or a framework: norse, sinabs, snntorch, "
                   "snntorch-no-delay, snntorch-rleaky-zero; NODE=MODE for one node; repeatable (docs/nir.md)")
        ->allow_extra_args(false);  // one value per --reset, so a file name after it stays positional
    add_threads_option(cmd, o.threads, "OpenMP threads (0: OMP_NUM_THREADS or all cores)");
    cmd.add_option("--seed", o.seed, "Seed of every random stream (default: the file's run.seed)");
    cmd.add_option("--out", o.out, "Write spikes to FILE.h5 (SONATA layout) or FILE.csv");
    cmd.add_option("--flush-every", o.flush_every_s,
                   "Flush the .h5 output at least every S seconds of wall-clock time (default 1; 0: at every "
                   "progress step): a killed run leaves a valid file up to the last flush");
    cmd.add_option("--plot", o.plot, "Write a raster plot with population rates to FILE.svg");
    cmd.add_option("--state", o.states, "Record POP:VAR[:INTERVAL_MS] into the .h5 output (repeatable)");
    cmd.add_option("--checkpoint", o.checkpoint,
                   "Write the whole simulation state to FILE.h5 at the end of the run (and when interrupted)");
    cmd.add_option("--checkpoint-every", o.checkpoint_every_ms,
                   "Also write the --checkpoint file every MS of simulated time (each one replaces the last)");
    cmd.add_option("--resume", o.resume,
                   "Continue from a checkpoint of the same network, dt, seed and threads; --duration is the time "
                   "to run on from it");
    add_tuning_options(cmd, o.tuning);
    cmd.add_option("--integrator", o.integrator,
                   "Scheme of every ODE population: adaptive, rk4, rk2, exponential_euler, euler, half_step_euler "
                   "(default: the file's; docs/integrators.md)");
    cmd.add_flag("--json", o.json, "Print one JSON object with the figures on stdout");
    cmd.add_flag("--quiet", o.quiet, "No progress bar");
}

void check_options_apply(const CLI::App& cmd, const std::string& file, network_file_kind kind) {
    std::vector<std::string> allowed{"--threads", "--json", "--quiet"};
    std::string usage;
    switch (kind) {
        case network_file_kind::volley_json:
            allowed.insert(allowed.end(), {"--duration", "--dt", "--seed", "--out", "--flush-every", "--plot", "--state",
                                           "--checkpoint", "--checkpoint-every", "--resume", "--cpu-isa", "--step-pairs",
                                           "--integrator", "--backend"});
            usage = "a network JSON file takes --duration, --dt, --seed, --out, --flush-every, --plot, --state, --checkpoint, "
                    "--checkpoint-every, --resume, --cpu-isa, --step-pairs, --integrator, --backend";
            break;
        case network_file_kind::nir:
            allowed.insert(allowed.end(), {"--input", "--steps", "--dt", "--discretisation", "--reset", "--out"});
            usage = "a NIR file takes --input, --steps, --dt [s], --discretisation, --reset, --out";
            break;
        case network_file_kind::converted_snn:
            allowed.insert(allowed.end(), {"--input", "--steps", "--limit", "--seed", "--cpu-isa"});
            usage = "a converted network takes --input IMAGES, --steps, --limit, --seed";
            break;
        default: return;
    }
    for (const auto* opt : cmd.get_options()) {
        const auto name = opt->get_name();
        if (opt->count() == 0 || !name.starts_with("--") || name == "--help") continue;
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
            throw invalid_parameter("volley run " + file, name, opt->as<std::string>(),
                                    "does not apply to a " + kind_name(kind) + " file (" + usage + ")");
    }
}

run_request network_json_request(const run_options& o) {
    auto file = snn::load_network_json(o.network);
    if (!o.integrator.empty()) apply_integrator_option(file.net, o.integrator);
    run_request req{.net = std::move(file.net), .settings = file.run, .threads = o.threads};
    if (o.duration_ms) req.settings.duration_ms = *o.duration_ms;
    if (o.dt_ms) req.settings.dt_ms = *o.dt_ms;
    if (o.seed) req.settings.seed = *o.seed;
    // Its length in steps fits (the simulation checks dt itself).
    if (req.settings.dt_ms > 0 && std::isfinite(req.settings.dt_ms))
        snn::duration_steps(req.settings.duration_ms, req.settings.dt_ms,
                            o.duration_ms ? std::string("--duration") : o.network + " run",
                            o.duration_ms ? "duration" : "duration_ms");
    if (!o.out.empty()) req.recording.out = o.out;
    if (!o.plot.empty()) req.recording.plot = o.plot;
    for (const auto& s : o.states) req.recording.states.push_back(snn::parse_state_request(s));
    if (!o.checkpoint.empty()) req.recording.checkpoint = o.checkpoint;
    if (!o.resume.empty()) req.recording.resume = o.resume;
    if (o.flush_every_s) {
        if (!(*o.flush_every_s >= 0) || !std::isfinite(*o.flush_every_s))
            throw invalid_parameter("--flush-every", "interval_s", std::to_string(*o.flush_every_s),
                                    "must be finite and >= 0");
        if (!req.recording.out || req.recording.out->extension() == ".csv")
            throw invalid_parameter("--flush-every", "output", req.recording.out ? req.recording.out->string() : "(none)",
                                    "only an .h5 output (--out FILE.h5) is flushed during the run");
        req.recording.flush_every_s = *o.flush_every_s;
    }
    if (o.checkpoint_every_ms) {
        if (!o.checkpoint_every_ms.has_value() || !(*o.checkpoint_every_ms > 0) ||
            !std::isfinite(*o.checkpoint_every_ms))
            throw invalid_parameter("--checkpoint-every", "interval_ms", std::to_string(*o.checkpoint_every_ms),
                                    "must be finite and > 0");
        if (!req.recording.checkpoint)
            throw invalid_parameter("--checkpoint-every", "checkpoint file", "(none)",
                                    "name the file to write with --checkpoint FILE.h5");
        req.recording.checkpoint_every_ms = *o.checkpoint_every_ms;
    }
    req.max_isa = snn::parse_instruction_set("--cpu-isa", o.tuning.isa);
    req.step_pairs = snn::parse_step_pairing("--step-pairs", o.tuning.pairs);
    req.backend = parse_backend(o.tuning.backend);
    req.quiet = o.quiet;
    req.recording.plot_title = o.network;
    return req;
}

}  // namespace volley::cli
