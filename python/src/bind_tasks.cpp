// The tasks networks are evolved for, and EONS, for Python (docs/control.md, docs/python.md):
// volley.CartpoleTask (fitness on training starts, evaluate on held-out ones), one cart-pole
// episode with its trace, and volley.evolve(task, ...) — the same evaluation_task interface
// that `volley evolve` uses. Networks cross as volley.TennlabNetwork or their JSON dict.

#include "bindings.hpp"

#include <pybind11/stl.h>

#include <volley/eons/evolution.hpp>
#include <volley/error.hpp>
#include <volley/temporal/evaluation_task.hpp>

#include <memory>

namespace volley::python {

namespace {

/// A TennlabNetwork or its JSON dict.
hw::tennlab_network network_of(const py::handle& n) {
    if (py::isinstance<hw::tennlab_network>(n)) return py::cast<hw::tennlab_network>(n);
    return hw::tennlab_network::from_json(to_json(n), "<dict>");
}

temporal::processor_spec spec_of(const std::string& processor, const std::string& preset, const py::object& params) {
    temporal::processor_spec spec;
    spec.kind = processor;
    spec.proc_params = params.is_none() ? temporal::risp_preset(preset) : to_json(params);
    spec.make();
    return spec;
}

}  // namespace

void bind_tasks(py::module_& m) {
    m.def("cartpole_settings", &temporal::builtin_cartpole_settings, "The built-in cart-pole settings, easiest first.");
    m.def(
        "risp_preset", [](const std::string& name) { return from_json(temporal::risp_preset(name)); }, py::arg("name"),
        "The proc_params of a TENNLab RISP preset (risp-1+, risp-1, risp-7, risp-15+, risp-127).");
    m.def(
        "cartpole_setting", [](const std::string& name) { return from_json(temporal::cartpole_setting::load(name).to_json()); },
        py::arg("name"), "A cart-pole setting (built-in name or JSON file) as a dict.");

    py::class_<temporal::evaluation_task, std::shared_ptr<temporal::evaluation_task>>(
        m, "EvaluationTask", "A task a network is evaluated on: a fitness on training material and a report on held-out material.")
        .def_property_readonly("name", &temporal::evaluation_task::name)
        .def("__repr__",
             [](const temporal::evaluation_task& t) {
                 return "volley.EvaluationTask('" + t.name() + "' on " + t.processor().kind + ")";
             })
        .def(
            "fitness",
            [](const temporal::evaluation_task& t, const py::object& net) {
                const auto n = network_of(net);
                py::gil_scoped_release release;
                return t.fitness(n);
            },
            py::arg("network"), "The fitness in [0, 1] on the training material.")
        .def(
            "evaluate",
            [](const temporal::evaluation_task& t, const py::object& net) {
                const auto n = network_of(net);
                nlohmann::json j;
                {
                    py::gil_scoped_release release;
                    j = t.evaluate(n);
                }
                return from_json(j);
            },
            py::arg("network"), "The network's figures on the held-out material, as a dict.")
        .def(
            "network_template",
            [](const temporal::evaluation_task& t) { return from_json(t.network_template().to_json()); },
            "The inputs, outputs and property pack of the task's networks.");

    py::class_<temporal::cartpole_task, temporal::evaluation_task, std::shared_ptr<temporal::cartpole_task>>(
        m, "CartpoleTask",
        "The cart-pole on a setting (docs/control.md): fitness = mean share of the training episodes survived.")
        .def(py::init([](const std::string& setting, const std::string& preset, const std::string& processor,
                         const py::object& proc_params, int training_episodes, int training_steps, std::uint64_t seed,
                         int test_episodes, bool placeable_on_grid) {
                 temporal::cartpole_task_options o;
                 o.training_episodes = training_episodes;
                 o.training_steps = training_steps;
                 o.seed = seed;
                 o.test_episodes = test_episodes;
                 o.placeable_on_grid = placeable_on_grid;
                 return std::make_shared<temporal::cartpole_task>(temporal::cartpole_setting::load(setting),
                                                                  spec_of(processor, preset, proc_params), o);
             }),
             py::arg("setting") = "easy", py::arg("preset") = "risp-1+", py::arg("processor") = "risp",
             py::arg("proc_params") = py::none(), py::arg("training_episodes") = 10, py::arg("training_steps") = 0,
             py::arg("seed") = 1, py::arg("test_episodes") = 20, py::arg("placeable_on_grid") = false)
        .def(
            "episode",
            [](const temporal::cartpole_task& t, const py::object& net, std::vector<double> start, int steps) {
                if (start.size() != 4)
                    throw invalid_parameter("CartpoleTask.episode", "start", std::to_string(start.size()) + " values",
                                            "give x, x_dot, theta, theta_dot");
                const auto n = network_of(net);
                temporal::episode_result r;
                {
                    py::gil_scoped_release release;
                    temporal::network_agent agent(t.processor(), n, t.setting(), "network");
                    temporal::episode_options o;
                    o.max_steps = steps;
                    o.keep_trace = true;
                    r = temporal::run_cartpole_episode(agent, t.setting(), {start[0], start[1], start[2], start[3]}, o);
                }
                py::list states, actions;
                for (const auto& s : r.trace) {
                    states.append(py::make_tuple(s.state.x, s.state.x_dot, s.state.theta, s.state.theta_dot));
                    actions.append(s.action);
                }
                py::dict d;
                d["steps"] = r.steps;
                d["survived"] = r.survived;
                d["states"] = states;
                d["actions"] = actions;
                return d;
            },
            py::arg("network"), py::arg("start"), py::arg("steps") = 0,
            "One episode from `start` (x, x_dot, theta, theta_dot): steps survived, the states seen and the actions.")
        .def("training_starts",
             [](const temporal::cartpole_task& t) {
                 std::vector<std::vector<double>> v;
                 for (const auto& s : t.training_starts()) v.push_back({s.x, s.x_dot, s.theta, s.theta_dot});
                 return v;
             })
        .def("test_starts", [](const temporal::cartpole_task& t) {
            std::vector<std::vector<double>> v;
            for (const auto& s : t.test_starts()) v.push_back({s.x, s.x_dot, s.theta, s.theta_dot});
            return v;
        });

    m.def(
        "evolve",
        [](const std::shared_ptr<temporal::evaluation_task>& task, int generations, std::uint64_t seed, int threads,
           const py::object& config, int population) {
            eons::eons_config c = config.is_none() ? eons::eons_config{} : eons::eons_config::from_json(to_json(config), "config");
            if (population > 0) c.population = population;
            c.validate("config");
            auto state = eons::start_evolution(c, task->network_template(), seed);
            eons::evolve_options o;
            o.generations = generations;
            o.threads = threads;
            o.stop_at = 1.0;
            {
                py::gil_scoped_release release;
                eons::evolve(state, temporal::fitness_of(task), o);
            }
            py::list history;
            for (const auto& r : state.history) {
                py::dict h;
                h["generation"] = r.generation;
                h["best"] = r.best;
                h["mean"] = r.mean;
                history.append(h);
            }
            py::dict d;
            d["best"] = state.best;
            d["best_fitness"] = state.best_fitness;
            d["generations"] = state.generation;
            d["history"] = history;
            return d;
        },
        py::arg("task"), py::arg("generations") = 50, py::arg("seed") = 1, py::arg("threads") = 1,
        py::arg("config") = py::none(), py::arg("population") = 0,
        "EONS on a task from random networks (docs/eons.md): the best network (TennlabNetwork), its fitness and the "
        "history. Stops early at fitness 1. The same seed gives the same result for any thread count.");
}

}  // namespace volley::python
