// `volley evolve`: designs a temporal network with EONS (docs/temporal.md). Sequences of
// Fashion-MNIST frames are encoded as spikes (oracle features, or a converted CNN's output), a
// population of TENNLab networks is evolved on the training sequences on risp, danna2 or the
// DANNA grid, and the best one is written out and scored on test sequences beside the ideal
// bound and the hand-built network; on DANNA 2 it is also placed on the grid and run there.
// `--task cartpole` evolves a cart-pole controller from random networks instead (docs/control.md):
// staged training episodes, a report on the held-out test starts, and the same network's actions
// on the other processors.

#include "cli_common.hpp"
#include "fitness_plot.hpp"
#include "mpi_launch.hpp"

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_h5.hpp>
#include <volley/eons/evolution.hpp>
#include <volley/json_text.hpp>
#include <volley/temporal/fitness.hpp>
#include <volley/temporal/hand_networks.hpp>
#include <volley/temporal/ideal_bound.hpp>
#include <volley/temporal/cartpole_curriculum.hpp>
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

struct evolve_cli_options {
    std::string task = "order", processor = "risp", features = "oracle", encoding = "winner";
    int class_a = 7, class_b = 8, frames = 8, cycles_per_frame = 10;
    std::optional<int> population;  ///< default: the config's
    std::string selection;          ///< EONS parent selection (empty: the config's, else the task's default)
    int generations = 50, threads = 0;
    std::size_t train_sequences = 400, test_sequences = 1000;
    std::uint64_t seed = 1;
    std::int64_t timesteps = 32;  ///< cnn features: T steps per image
    std::string config, checkpoint, resume, out, plot, data_dir{convert::default_fashion_mnist_dir};
    bool seed_hand_built = false, json = false, quiet = false;
    bool leak = false;  ///< temporal questions: RISP's leak_mode all
    std::string setting = "easy", preset = "risp-1+";  ///< cartpole only
    int episodes = 10, compare_episodes = 2;  ///< cartpole only
    std::string training_steps = "2000,0";      ///< cartpole: the stages' episode lengths (0: the setting's)
    int validation_starts = 100, mined_per_round = 5;  ///< cartpole: the curriculum's validation rounds
    bool corner_starts = true;                         ///< cartpole: the start box's corners validate too
    double time_limit = 0;  ///< [s] stop after the generation that passes it (0: none)
    bool grid_check = true;  ///< cartpole: networks the DANNA grid cannot place score half
};

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

/// What an evolution did, for the report.
struct evolution_run {
    eons::evolution_state state;
    std::int64_t evaluations = 0;
    double eval_s = 0;
    int threads = 1;
    bool writes = true;  ///< this process writes files (rank 0)
    bool stopped_by_time = false;  ///< --time-limit ended the run
    int ranks = 1;
    nlohmann::json point;  ///< where the stage plan stood when the run ended
    bool plan_done = false;  ///< the best network reached 1 at the plan's last point
};

/// One stage of an evolution: its fitness and a description for the header line.
struct eons_stage {
    eons::fitness_function fitness;
    std::string what;
    eons::case_fitness_function cases = {};  ///< the fitness as cases, for lexicase selection (empty: one case)
};

/// The stages of an evolution: a point (a JSON value, kept in checkpoints as "volley_stage"),
/// the stage at a point (invalid_parameter naming the object for a point the plan does not
/// have), and where to go once the best network at a point reaches fitness 1 (nullopt: done).
struct stage_plan {
    nlohmann::json first = 0;
    std::function<eons_stage(const nlohmann::json& point, const std::string& object)> at;
    std::function<std::optional<nlohmann::json>(const nlohmann::json& point, const hw::tennlab_network& best)> next =
        [](const nlohmann::json&, const hw::tennlab_network&) { return std::nullopt; };
};

/// One stage and nothing after it.
stage_plan single_stage(eons_stage stage) {
    stage_plan plan;
    plan.at = [stage](const nlohmann::json& point, const std::string& object) {
        if (point != 0) throw invalid_parameter(object, "volley_stage", point.dump(), "this task has one stage (0)");
        return stage;
    };
    return plan;
}

/// Starts (or resumes from --resume) an evolution of networks of `shape` and runs --generations
/// of it, printing progress and writing --checkpoint files (with the plan's point). Once the
/// best network at a point reaches fitness 1, the plan names the next point (a longer episode,
/// more training starts) and every network is scored again with its fitness; the run ends when
/// the plan has no next point, at --generations or at --time-limit. A checkpoint resumes at its
/// point, to the result of the run straight through.
evolution_run run_eons(const evolve_cli_options& o, const eons::network_template& shape, const stage_plan& plan,
                       const std::vector<hw::tennlab_network>& seeds) {
    std::FILE* log = o.json ? stderr : stdout;
    const bool talk = !o.quiet;
    evolution_run run;
    auto& state = run.state;
    auto& point = run.point;
    point = plan.first;
    if (!o.resume.empty()) {
        const auto j = read_json_file(o.resume);
        state = eons::evolution_state::from_json(j, o.resume);
        if (state.shape.inputs != shape.inputs || state.shape.outputs != shape.outputs ||
            !state.shape.properties.matches(shape.properties))
            throw invalid_parameter("--resume " + o.resume, "network template",
                                    std::to_string(state.shape.inputs) + " inputs, " +
                                        std::to_string(state.shape.outputs) + " outputs",
                                    "the task on " + o.processor + " needs " + std::to_string(shape.inputs) +
                                        " inputs, " + std::to_string(shape.outputs) + " outputs and its property pack");
        if (j.contains("volley_stage")) point = j["volley_stage"];
    } else {
        eons::eons_config config;
        const nlohmann::json file = o.config.empty() ? nlohmann::json::object() : read_json_file(o.config);
        if (!o.config.empty()) config = eons::eons_config::from_json(file, o.config);
        // The cart-pole selects by lexicase unless told otherwise: it took medium on RISP-1 from 2
        // to 8 seeds of 10 (bench/macro/eons/README.md, fourth round); on the temporal questions
        // it did not help, and tournaments stay.
        if (!o.selection.empty())
            config.selection = eons::eons_config::from_json({{"selection", o.selection}}, "--selection").selection;
        else if (o.task == "cartpole" && !file.contains("selection"))
            config.selection = eons::eons_config::selection_kind::lexicase;
        if (o.population) config.population = *o.population;
        config.validate(o.population ? "--population" : o.config.empty() ? "EONS config" : o.config);
        state = eons::start_evolution(config, shape, o.seed, seeds);
    }
    auto stage = plan.at(point, o.resume.empty() ? std::string("stage plan") : "--resume " + o.resume);
    run.threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const bool bar = talk && stderr_is_terminal();
    // Under mpirun every rank runs this command with the same options and evaluates its block of
    // each generation's networks (docs/mpi.md, "EONS on ranks"); only rank 0 writes files. Every
    // rank takes the plan's next step itself, from the same best network.
    const auto ranks = launch_context();
    run.writes = ranks.id() == 0;
    run.ranks = ranks.size();
    const auto started = std::chrono::steady_clock::now();
    int remaining = o.generations;
    for (;;) {
        // A point whose best network reached 1 (also in a checkpoint taken just then) hands its
        // population to the next point, every network to be scored again.
        if (state.best_fitness >= 1.0 && state.generation > 0) {
            const auto next = plan.next(point, state.best);
            if (!next) {
                run.plan_done = true;
                break;
            }
            if (remaining <= 0) break;  // the run ends where it stands, its best scored there
            point = *next;
            stage = plan.at(point, "stage plan");
            std::fill(state.fitness.begin(), state.fitness.end(), std::numeric_limits<double>::quiet_NaN());
            state.cases.assign(state.fitness.size(), {});
            state.best_fitness = -1;  // no best at this point yet: the next generation's replaces it
        }
        if (talk)
            std::fprintf(log, "volley evolve: %s, population %d, %d generations from %d, %d threads\n", stage.what.c_str(),
                         state.config.population, remaining, state.generation, run.threads);
        if (remaining <= 0) break;
        eons::evolve_options eo;
        eo.generations = remaining;
        eo.threads = run.threads;
        if (ranks.size() > 1)
            eo.share = {ranks.id(), ranks.size(), [ranks](std::span<const double> mine) { return ranks.gather_values(mine); }};
        eo.stop_at = 1.0;
        eo.progress = [&](const eons::generation_record& r) {
            run.evaluations += r.evaluations;
            run.eval_s += r.seconds;
            if (bar)
                std::fprintf(stderr, "\r\033[Kgeneration %d: best %.4f, mean %.4f, %d nodes, %d edges (%.2f s)", r.generation,
                             r.best, r.mean, r.best_nodes, r.best_edges, r.seconds);
            else if (talk && !o.json)
                std::fprintf(log, "generation %d: best %.4f, mean %.4f, %d nodes, %d edges (%.2f s)\n", r.generation, r.best,
                             r.mean, r.best_nodes, r.best_edges, r.seconds);
            if (talk && !o.json) std::fflush(log);  // progress reaches a file or a pipe as it happens
            // All ranks must stop together: rank 0's clock decides (gather_values is collective).
            const double late = o.time_limit > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                                                            .count() > o.time_limit;
            run.stopped_by_time = (ranks.size() > 1 ? ranks.gather_values(std::vector<double>{late})[0] : late) != 0;
            return !run.stopped_by_time;
        };
        if (!o.checkpoint.empty() && run.writes)
            eo.checkpoint = [&](const eons::evolution_state& s) {
                auto j = s.to_json();
                j["volley_stage"] = point;
                write_json_file(o.checkpoint, j);
            };
        const int before = state.generation;
        if (state.config.selection == eons::eons_config::selection_kind::lexicase)
            eons::evolve(state, stage.cases ? stage.cases : eons::one_case(stage.fitness), eo);
        else
            eons::evolve(state, stage.fitness, eo);
        if (bar) std::fputs("\r\033[K", stderr);
        remaining -= state.generation - before;
        if (run.stopped_by_time || state.best_fitness < 1.0) break;
    }
    return run;
}

/// Writes the fitness plot of --plot (rank 0 only).
void plot_fitness(const evolve_cli_options& o, const evolution_run& run, const std::string& title, const std::string& note) {
    if (o.plot.empty() || !run.writes) return;
    fitness_curve c;
    c.title = title;
    c.note = note;
    for (const auto& r : run.state.history) c.best.push_back(r.best), c.mean.push_back(r.mean);
    if (!c.best.empty()) write_fitness_svg(o.plot, c);
}


/// The actions of one whole episode of `net` on a processor of `spec`.
std::vector<int> episode_actions(const temporal::processor_spec& spec, const hw::tennlab_network& net,
                                 const temporal::cartpole_setting& setting, const temporal::cartpole_state& start) {
    temporal::network_agent agent(spec, net, setting, "evolved network");
    temporal::episode_options eo;
    eo.keep_trace = true;
    std::vector<int> actions;
    for (const auto& s : temporal::run_cartpole_episode(agent, setting, start, eo).trace) actions.push_back(s.action);
    return actions;
}

/// `volley evolve --task cartpole`: EONS from random networks on a cart-pole setting.
void run_evolve_cartpole(const evolve_cli_options& o) {
    if (o.generations < 0)
        throw invalid_parameter("--generations", "generations", std::to_string(o.generations), "must be >= 0");
    if (o.seed_hand_built)
        throw invalid_parameter("--seed-hand-built", "task", o.task, "there is no hand-built cart-pole network");
    if (o.leak)
        throw invalid_parameter("--leak", "task", o.task, "the cart-pole's RISP comes from --preset (the presets have no leak)");
    const auto setting = temporal::cartpole_setting::load(o.setting);
    temporal::processor_spec proc;
    proc.kind = o.processor;
    proc.proc_params = temporal::risp_preset(o.preset);
    // The stages: one training episode length each, e.g. "2000,0" (0: the setting's whole episode).
    std::vector<int> caps;
    {
        std::stringstream in(o.training_steps);
        std::string item;
        while (std::getline(in, item, ',')) {
            std::size_t used = 0;
            int v = -1;
            try {
                v = std::stoi(item, &used);
            } catch (const std::exception&) {
            }
            if (v < 0 || used != item.size())
                throw invalid_parameter("--training-steps", "training_steps", o.training_steps,
                                        "expected episode lengths >= 0 separated by commas, e.g. 2000,0");
            caps.push_back(v);
        }
        if (caps.empty())
            throw invalid_parameter("--training-steps", "training_steps", "\"\"", "give at least one episode length");
    }
    temporal::cartpole_task_options to;
    to.training_episodes = o.episodes;
    to.seed = o.seed;
    to.placeable_on_grid = o.grid_check;
    temporal::curriculum_options co;
    co.stage_steps = caps;
    co.validation_starts = o.validation_starts;
    co.mined_per_round = o.mined_per_round;
    co.corner_starts = o.corner_starts;
    const temporal::cartpole_curriculum curriculum(setting, proc, to, co);
    const auto task = curriculum.task_at({});
    const std::string what = "cart-pole " + setting.name + " on " + o.processor + " (" + o.preset + "), ";
    const auto t0 = std::chrono::steady_clock::now();
    stage_plan plan;
    plan.first = temporal::curriculum_point{}.to_json();
    plan.at = [&](const nlohmann::json& j, const std::string& object) {
        const auto p = temporal::curriculum_point::from_json(j, object);
        const auto task = curriculum.task_at(p, object);
        return eons_stage{temporal::fitness_of(task), what + curriculum.describe(p), temporal::case_fitness_of(task)};
    };
    plan.next = [&](const nlohmann::json& j, const hw::tennlab_network& best) -> std::optional<nlohmann::json> {
        const auto p = curriculum.next(temporal::curriculum_point::from_json(j, "stage plan"), best);
        if (!p) return std::nullopt;
        return p->to_json();
    };
    auto run = run_eons(o, task->network_template(), plan, {});
    const auto ended = temporal::curriculum_point::from_json(run.point, "stage plan");
    const double evolve_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    auto best = run.state.best;
    best.associated_data["proc_params"] = proc.proc_params;
    best.associated_data["other"] = {{"proc_name", "risp"}};
    best.associated_data["volley_evolve"] = {{"task", "cartpole"},
                                             {"setting", setting.name},
                                             {"processor", o.processor},
                                             {"preset", o.preset},
                                             {"training_episodes", o.episodes},
                                             {"training_steps", o.training_steps},
                                             {"validation_starts", o.validation_starts},
                                             {"corner_starts", o.corner_starts},
                                             {"mined_starts", ended.mined},
                                             {"training_fitness", run.state.best_fitness},
                                             {"generations", run.state.generation},
                                             {"seed", o.seed}};
    if (run.writes) hw::save_tennlab_network(best, o.out);
    nlohmann::json f;
    f["task"] = "cartpole";
    f["setting"] = setting.name;
    f["processor"] = o.processor;
    f["preset"] = o.preset;
    f["generations"] = run.state.generation;
    f["population"] = run.state.config.population;
    f["selection"] = run.state.config.to_json()["selection"];
    f["threads"] = run.threads;
    f["ranks"] = run.ranks;
    f["seed"] = o.seed;
    f["training_fitness"] = run.state.best_fitness;
    f["evaluations"] = run.evaluations;
    f["evolve_s"] = evolve_s;
    f["stopped_by_time"] = run.stopped_by_time;
    f["stage"] = ended.stage + 1;
    f["stages"] = caps.size();
    f["validation_starts"] = o.validation_starts;
    f["corner_starts"] = o.corner_starts;
    f["mined_starts"] = ended.mined;
    f["curriculum_done"] = run.plan_done;
    f["grid_check"] = o.grid_check;
    f["test"] = task->evaluate(best);
    // The same network on the other processors: the actions of the first test episodes.
    const auto starts = task->test_starts();
    const std::size_t compared = std::min<std::size_t>(starts.size(), static_cast<std::size_t>(o.compare_episodes));
    std::vector<std::vector<int>> evolved_actions;  // on the processor it was evolved on, once
    for (std::size_t i = 0; i < compared; ++i) evolved_actions.push_back(episode_actions(proc, best, setting, starts[i]));
    for (const char* kind : {"risp", "danna2", "danna"}) {
        if (kind == o.processor || compared == 0) continue;
        temporal::processor_spec other = proc;
        other.kind = kind;
        try {
            std::size_t differ = 0;
            for (std::size_t i = 0; i < compared; ++i)
                differ += episode_actions(other, best, setting, starts[i]) != evolved_actions[i];
            f["same_actions_on"][kind] = {{"episodes", compared}, {"episodes_differing", differ}};
        } catch (const error& e) {
            f["same_actions_on"][kind] = {{"error", e.what()}};
        }
    }
    f["out"] = o.out;
    f["history"] = nlohmann::json::array();
    for (const auto& r : run.state.history)
        f["history"].push_back({{"generation", r.generation}, {"best", r.best}, {"mean", r.mean}});
    plot_fitness(o, run, "EONS on cart-pole " + setting.name + " (" + o.processor + ", " + o.preset + ")",
                 "fitness: mean share of the training episodes survived, population " +
                     std::to_string(run.state.config.population) +
                     (run.state.config.selection == eons::eons_config::selection_kind::lexicase ? ", lexicase selection"
                                                                                                 : ", tournaments"));
    if (!o.plot.empty()) f["plot"] = o.plot;
    if (o.json) {
        print_json(f);
        return;
    }
    const auto& t = f["test"];
    if (run.plan_done)
        std::printf("stopped after generation %d: the best network survives every training and validation episode "
                    "of the last stage (the curriculum is done)\n", run.state.generation);
    std::printf("best network: %zu neurons, %zu synapses, training fitness %.4f after %d generations (%.1f s)\n",
                best.nodes.size(), best.edges.size(), run.state.best_fitness, run.state.generation, evolve_s);
    std::printf("test: %d of %d held-out starts survived all %d steps; mean %.1f, minimum %d steps\n",
                t["survived"].get<int>(), t["episodes"].get<int>(), setting.episode_steps, t["mean_steps"].get<double>(),
                t["min_steps"].get<int>());
    for (const auto& [kind, v] : f["same_actions_on"].items()) {
        if (v.contains("error"))
            std::printf("on %s: %s\n", kind.c_str(), v["error"].get<std::string>().c_str());
        else
            std::printf("on %s: %d of %d test episodes with other actions than on %s\n", kind.c_str(),
                        v["episodes_differing"].get<int>(), v["episodes"].get<int>(), o.processor.c_str());
    }
    std::printf("best written to %s\n", o.out.c_str());
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
                                             {"generations", state.generation}, {"seed", o.seed}};
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
    cmd->add_option("--preset", o->preset, "cartpole: RISP preset risp-1+, risp-1, risp-7, risp-15+ or risp-127");
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
