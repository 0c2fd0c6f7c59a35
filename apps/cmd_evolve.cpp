// `volley evolve`: designs a temporal network with EONS (docs/temporal.md). Sequences of
// Fashion-MNIST frames are encoded as spikes (oracle features, or a converted CNN's output), a
// population of TENNLab networks is evolved on the training sequences on risp, danna2 or the
// DANNA grid, and the best one is written out and scored on test sequences beside the ideal
// bound and the hand-built network; on DANNA 2 it is also placed on the grid and run there.
// `--task cartpole` evolves a cart-pole controller from random networks instead
// (cmd_evolve_cartpole.cpp); both run the loop of evolve_run.hpp.

#include "cli_common.hpp"
#include "evolve_run.hpp"
#include "mpi_launch.hpp"

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_h5.hpp>
#include <volley/eons/evolution.hpp>
#include <volley/json_text.hpp>
#include <volley/temporal/fitness.hpp>
#include <volley/temporal/hand_networks.hpp>
#include <volley/temporal/ideal_bound.hpp>
#include <volley/temporal/evaluation_task.hpp>
#include <volley/temporal/sequence_runner.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <thread>

namespace volley::cli {

namespace {

/// Per-image features of the images the sequences use: the one-hot labels, or the output of a
/// converted network (`cnn:FILE.h5`, from volley convert --out).
temporal::feature_table features_for(const std::string& spec, const convert::image_dataset& set,
                                     const std::vector<temporal::sequence>& seqs, const evolve_cli_options& o) {
    if (spec == "oracle") return temporal::oracle_features(set.labels);
    if (!spec.starts_with("cnn:"))
        throw invalid_parameter("--features", "features", spec, "expected oracle or cnn:FILE.h5 (volley convert --out)");
    const auto net = convert::read_snn_h5(spec.substr(4)).snn;
    temporal::cnn_feature_options f;
    f.timesteps = o.timesteps;
    f.threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    f.seed = o.seed;
    return temporal::cnn_features(net, set, temporal::images_used(seqs), f);
}

/// The answers `net` gives to each sequence on a processor of `spec`.
std::vector<std::vector<std::uint8_t>> answers_on(const temporal::processor_spec& spec, const hw::tennlab_network& net,
                                                  const temporal::task_spec& task, const temporal::encoding_options& enc,
                                                  const temporal::decoding_options& dec,
                                                  const std::vector<temporal::encoded_sequence>& seqs) {
    temporal::sequence_runner runner(spec, net, task, enc, dec);
    std::vector<std::vector<std::uint8_t>> answers;
    for (const auto& q : seqs) answers.push_back(runner.run(q).answers);
    return answers;
}

nlohmann::json score_json(const temporal::network_score& s) {
    return {{"accuracy", s.accuracy},         {"neurons", s.neurons},         {"synapses", s.synapses},
            {"cycles_per_sequence", s.mean_cycles}, {"events_per_sequence", s.mean_events},
            {"time_s_per_sequence", s.mean_time_s}, {"energy_j_per_sequence", s.mean_energy_j}};
}


void run_evolve(const evolve_cli_options& o) {
    if (o.task == "cartpole") {
        run_evolve_cartpole(o);
        return;
    }
    temporal::task_spec task;
    task.kind = temporal::parse_question(o.task);
    task.class_a = o.class_a;
    task.class_b = o.class_b;
    task.frames = o.frames;
    task.validate();
    temporal::encoding_options enc;
    enc.mode = temporal::parse_encoding_mode(o.encoding);
    enc.cycles_per_frame = o.cycles_per_frame;
    enc.validate();
    temporal::processor_spec proc;
    proc.kind = o.processor;
    if (o.leak && o.processor != "risp")
        throw invalid_parameter("--leak", "processor", o.processor,
                                "the DANNA models have no RISP leak (leak_mode all): evolve leaky networks on risp");
    proc.proc_params = temporal::temporal_risp_params(enc, {.leak = o.leak});
    proc.make();  // unknown_name for a processor kind that does not exist, before any work
    // The hand-built network's delays: on danna2 and the grid, ones the grid can route, so that
    // the best network evolved from it can be placed there too.
    temporal::processor_spec grid = proc;
    grid.kind = "danna";
    const auto timing = o.processor == "risp" ? temporal::motif_timing{} : temporal::hand_built_timing(task, enc, grid);
    const auto dec = temporal::hand_built_decoding(timing);
    if (o.generations < 0)
        throw invalid_parameter("--generations", "generations", std::to_string(o.generations), "must be >= 0");
    if (o.train_sequences < 2 || o.test_sequences < 2)
        throw invalid_parameter("--train-sequences/--test-sequences", "sequences",
                                std::to_string(std::min(o.train_sequences, o.test_sequences)), "must be >= 2");
    const auto train = convert::load_fashion_mnist(o.data_dir, "train");
    const auto test = convert::load_fashion_mnist(o.data_dir, "test");
    const auto train_seqs = temporal::generate_sequences(task, train.labels, {.count = o.train_sequences, .seed = o.seed});
    const auto test_seqs = temporal::generate_sequences(task, test.labels, {.count = o.test_sequences, .seed = o.seed + 1});
    const auto train_features = features_for(o.features, train, train_seqs, o);
    const auto test_features = features_for(o.features, test, test_seqs, o);
    auto problem = std::make_shared<temporal::training_problem>();
    problem->task = task;
    problem->encoding = enc;
    problem->decoding = dec;
    problem->processor = proc;
    problem->sequences = temporal::encode_sequences(train_seqs, train_features, enc);
    const auto fitness = temporal::make_fitness(problem);
    const auto shape = temporal::make_network_template(task, proc);
    const auto hand = temporal::hand_built_network(task, enc, proc, timing);

    const std::string what = o.task + " on " + o.processor + ", " + std::to_string(o.train_sequences) +
                             " training sequences of " + std::to_string(o.frames) + " frames (" + o.features +
                             " features, " + o.encoding + " coding)";
    auto run = run_eons(o, shape, single_stage({fitness, what, temporal::make_case_fitness(problem)}),
                        o.seed_hand_built ? std::vector<hw::tennlab_network>{hand} : std::vector<hw::tennlab_network>{});
    const auto& state = run.state;
    const auto evaluations = run.evaluations;
    const double eval_s = run.eval_s;
    const int threads = run.threads;
    const bool writes = run.writes;
    auto best = state.best;
    // The processor it was evolved on, as TENNLab's tools and `volley danna run` read it: a
    // network with RISP's semantics (on danna2 and the grid too: refractory 0).
    best.associated_data["proc_params"] = proc.proc_params;
    best.associated_data["other"] = {{"proc_name", "risp"}};
    best.associated_data["volley_evolve"] = {{"task", o.task},         {"processor", o.processor},
                                             {"features", o.features}, {"encoding", o.encoding},
                                             {"cycles_per_frame", o.cycles_per_frame},
                                             {"training_fitness", state.best_fitness},
                                             {"generations", state.generation}, {"seed", o.seed},
                                             {"population", state.config.population},
                                             {"selection", state.config.to_json()["selection"]},
                                             {"train_sequences", o.train_sequences},
                                             {"started_from", o.seed_hand_built ? "the hand-built network" : "random networks"}};
    if (writes) hw::save_tennlab_network(best, o.out);

    // Test sequences: the evolved network, the hand-built one and the ideal bound.
    const auto test_enc = temporal::encode_sequences(test_seqs, test_features, enc);
    const auto t0 = std::chrono::steady_clock::now();
    const auto evolved = temporal::evaluate_network(proc, best, task, enc, dec, test_enc);
    const double run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto hand_score = temporal::evaluate_network(proc, hand, task, enc, dec, test_enc);
    const auto ideal = temporal::ideal_bound(task, test_seqs, test_features);
    nlohmann::json f;
    f["task"] = o.task;
    f["processor"] = o.processor;
    f["features"] = o.features;
    f["encoding"] = o.encoding;
    f["generations"] = state.generation;
    f["population"] = state.config.population;
    f["selection"] = state.config.to_json()["selection"];
    f["threads"] = threads;
    f["training_fitness"] = state.best_fitness;
    f["evaluations"] = evaluations;
    f["evaluations_per_s"] = eval_s > 0 ? static_cast<double>(evaluations) / eval_s : 0.0;
    f["test_sequences"] = o.test_sequences;
    f["evolved"] = score_json(evolved);
    f["evolved"]["sequences_per_s"] = run_s > 0 ? static_cast<double>(test_enc.size()) / run_s : 0.0;
    f["hand_built"] = score_json(hand_score);
    f["ideal_bound"] = ideal.accuracy();
    f["history"] = nlohmann::json::array();
    for (const auto& r : state.history) f["history"].push_back({{"generation", r.generation}, {"best", r.best}, {"mean", r.mean}});
    if (o.processor == "danna2") {  // the same network placed and routed on the grid, run there
        try {
            const auto on_d2 = answers_on(proc, best, task, enc, dec, test_enc);
            const auto on_grid = answers_on(grid, best, task, enc, dec, test_enc);
            std::size_t differ = 0;
            for (std::size_t i = 0; i < test_enc.size(); ++i) differ += on_grid[i] != on_d2[i];
            f["danna_grid"] = score_json(temporal::evaluate_network(grid, best, task, enc, dec, test_enc));
            f["danna_grid"]["sequences_differing_from_danna2"] = differ;
        } catch (const error& e) {
            f["danna_grid"] = {{"error", e.what()}};
        }
    }
    f["out"] = o.out;
    f["ranks"] = run.ranks;
    f["reached_fitness_1"] = run.plan_done;
    plot_fitness(o, run, "EONS on " + o.task + " (" + o.processor + ")",
                 o.features + " features, population " + std::to_string(state.config.population));
    if (!o.plot.empty()) f["plot"] = o.plot;
    if (o.json) {
        print_json(f);
        return;
    }
    std::printf("%-12s %10s %8s %9s %10s %10s %12s\n", "network", "accuracy", "neurons", "synapses", "cycles/seq",
                "events/seq", "energy/seq");
    auto row = [](const char* name, const nlohmann::json& s) {
        std::printf("%-12s %9.2f%% %8lld %9lld %10.1f %10.1f %10.3g J\n", name, 100 * s["accuracy"].get<double>(),
                    s["neurons"].get<long long>(), s["synapses"].get<long long>(), s["cycles_per_sequence"].get<double>(),
                    s["events_per_sequence"].get<double>(), s["energy_j_per_sequence"].get<double>());
    };
    row("evolved", f["evolved"]);
    row("hand-built", f["hand_built"]);
    if (f.contains("danna_grid") && f["danna_grid"].contains("accuracy")) row("DANNA grid", f["danna_grid"]);
    std::printf("ideal bound %.2f%% (exact temporal logic on the per-frame predictions)\n", 100 * ideal.accuracy());
    if (run.plan_done)
        std::printf("stopped after generation %d of %d: the best network answers every training sequence right "
                    "(fitness 1)\n", state.generation, o.generations);
    std::printf("EONS: %lld evaluations, %.0f per second on %d threads; best written to %s\n",
                static_cast<long long>(evaluations), f["evaluations_per_s"].get<double>(), threads, o.out.c_str());
}

}  // namespace

void register_evolve(CLI::App& app, command_context&) {
    auto* cmd = app.add_subcommand("evolve", "Design a network on a neuroprocessor with EONS: a temporal question (docs/temporal.md) or the cart-pole (docs/control.md)");
    auto o = std::make_shared<evolve_cli_options>();
    cmd->add_option("--task", o->task, "order, change, count or cartpole (docs/control.md)");
    cmd->add_option("--setting", o->setting, "cartpole: easy, medium, hard, hardest or a setting JSON file");
    cmd->add_option("--preset", o->preset, "cartpole: RISP preset risp-1+, risp-1, risp-7, risp-15+ or risp-127, or a RISP parameter file FILE.json");
    cmd->add_option("--episodes", o->episodes, "cartpole: training episodes per fitness evaluation");
    cmd->add_option("--training-steps", o->training_steps,
                    "cartpole: steps per training episode at most, one length per stage: once the best network "
                    "survives every training episode, the population is scored again on the next length (default "
                    "2000,0; 0: the setting's whole episode)");
    cmd->add_option("--validation-starts", o->validation_starts,
                    "cartpole: once the best network survives every training episode of the last stage, it runs from "
                    "the validation starts (the corners of the start box and this many further starts of the "
                    "training stream); those it fails join the training starts and the search goes on (default 100)");
    cmd->add_flag("--corner-starts,!--no-corner-starts", o->corner_starts,
                  "cartpole: the 16 corners of the start box are validation starts (default on)");
    cmd->add_option("--mined-per-round", o->mined_per_round,
                    "cartpole: failed validation starts added to the training starts per round at most (default 5)");
    cmd->add_flag("--grid-check,!--no-grid-check", o->grid_check,
                  "cartpole: networks the DANNA grid cannot place and route score half (default on)");
    cmd->add_option("--time-limit", o->time_limit,
                    "Stop after the generation that passes this many seconds (the checkpoint stays resumable)");
    cmd->add_option("--compare-episodes", o->compare_episodes,
                    "cartpole: test episodes run again on the other processors to compare actions");
    cmd->add_option("--processor", o->processor, "risp, danna2 or danna (the element grid)");
    cmd->add_option("--population", o->population, "Networks per generation, >= 2 (default: the config's, 100)");
    cmd->add_option("--selection", o->selection,
                    "EONS parent selection of a new run: tournament or lexicase (default: the config's 'selection'; "
                    "without one, lexicase for the cart-pole and tournament for the temporal questions)");
    cmd->add_option("--generations", o->generations, "Generations to run (stops early once the best network reaches fitness 1)")
        ->capture_default_str();
    add_threads_option(*cmd, o->threads, "OpenMP threads evaluating networks (0: all cores; same result)");
    cmd->add_option("--config", o->config, "EONS config JSON (docs/eons.md)");
    cmd->add_option("--checkpoint", o->checkpoint, "Write the population to FILE.json after every generation");
    cmd->add_option("--resume", o->resume, "Continue an evolution from a --checkpoint file");
    cmd->add_option("--out", o->out, "Where to write the best network (TENNLab JSON)")->required();
    cmd->add_option("--plot", o->plot, "Write the fitness per generation to FILE.svg");
    cmd->add_option("--features", o->features, "oracle (true labels) or cnn:SNN.h5 (a converted CNN's output)");
    cmd->add_option("--timesteps", o->timesteps, "cnn features: steps T per image");
    cmd->add_option("--encoding", o->encoding, "winner, rate or first_spike");
    cmd->add_option("--cycles-per-frame", o->cycles_per_frame, "Processor cycles per frame");
    cmd->add_option("--frames", o->frames, "Frames per sequence K");
    cmd->add_option("--class-a", o->class_a, "Class A of order and count (7: sneaker)");
    cmd->add_option("--class-b", o->class_b, "Class B of order (8: bag)");
    cmd->add_option("--train-sequences", o->train_sequences, "Training sequences (from training images)");
    cmd->add_option("--test-sequences", o->test_sequences, "Test sequences (from test images)");
    cmd->add_option("--seed", o->seed, "Seed of the sequences and the evolution");
    cmd->add_option("--data-dir", o->data_dir, "Fashion-MNIST folder");
    cmd->add_flag("--seed-hand-built", o->seed_hand_built, "Put the hand-built network in the first population");
    cmd->add_flag("--leak", o->leak,
                  "Temporal questions on risp: neurons that do not fire lose their charge every cycle (RISP's leak_mode "
                  "all; the DANNA models have none)");
    cmd->add_flag("--json", o->json, "Print one JSON object on stdout");
    cmd->add_flag("--quiet", o->quiet, "No progress output");
    cmd->callback([o] { run_evolve(*o); });
}

}  // namespace volley::cli
