// `volley evolve --task cartpole`: EONS from random networks on a cart-pole setting
// (docs/control.md): staged training episodes, a report on the held-out test starts, and the
// same network's actions on the other processors.

#include "evolve_run.hpp"

#include "cli_common.hpp"

#include <volley/temporal/cartpole_curriculum.hpp>
#include <volley/temporal/evaluation_task.hpp>

#include <chrono>
#include <cstdio>

namespace volley::cli {

namespace {

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

}  // namespace

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

}  // namespace volley::cli
