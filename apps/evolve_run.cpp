// The evolution loop of `volley evolve` (see evolve_run.hpp).

#include "evolve_run.hpp"

#include "cli_common.hpp"
#include <volley/pipeline/fitness_plot.hpp>
#include "mpi_launch.hpp"

#include <volley/json_text.hpp>

#include <chrono>
#include <cstdio>
#include <limits>
#include <span>
#include <thread>

namespace volley::cli {

stage_plan single_stage(eons_stage stage) {
    stage_plan plan;
    plan.at = [stage](const nlohmann::json& point, const std::string& object) {
        if (point != 0) throw invalid_parameter(object, "volley_stage", point.dump(), "this task has one stage (0)");
        return stage;
    };
    return plan;
}

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

void plot_fitness(const evolve_cli_options& o, const evolution_run& run, const std::string& title, const std::string& note) {
    if (o.plot.empty() || !run.writes) return;
    pipeline::fitness_curve c;
    c.title = title;
    c.note = note;
    for (const auto& r : run.state.history) c.best.push_back(r.best), c.mean.push_back(r.mean);
    if (!c.best.empty()) pipeline::write_fitness_svg(o.plot, c);
}

}  // namespace volley::cli
