// volley.Network (snn::network) and the network files: Volley's network JSON in and out, NIR in
// and out (docs/network-format.md, docs/nir.md).

#include "bindings.hpp"
#include "conversions.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <volley/error.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>
#include <volley/snn/standard_networks.hpp>

#include <optional>

namespace volley::python {

snn::population_index resolve(const snn::network& net, const population_ref& ref) {
    if (const auto* name = std::get_if<std::string>(&ref)) return net.find(*name);
    const auto pop = std::holds_alternative<std::uint32_t>(ref)
                         ? snn::population_index{std::get<std::uint32_t>(ref)}
                         : std::get<snn::population_index>(ref);
    net.at(pop);  // throws for an index out of range
    return pop;
}

namespace {

snn::receptor_type receptor_from_name(const std::string& word) {
    if (word == "excitatory") return snn::excitatory;
    if (word == "inhibitory") return snn::inhibitory;
    throw invalid_parameter("connect", "receptor", word, "must be 'excitatory' or 'inhibitory'");
}

snn::plasticity_rule to_plasticity(const py::object& rule) {
    if (rule.is_none()) return std::monostate{};
    if (py::isinstance<snn::stdp_pair>(rule)) return py::cast<snn::stdp_pair>(rule);
    if (py::isinstance<snn::tsodyks_markram>(rule)) return py::cast<snn::tsodyks_markram>(rule);
    if (py::isinstance<snn::stochastic_release>(rule)) return py::cast<snn::stochastic_release>(rule);
    if (py::isinstance<snn::quantal_release>(rule)) return py::cast<snn::quantal_release>(rule);
    throw invalid_parameter("connect", "plasticity", py::str(py::repr(rule)),
                            "must be None, a volley.StdpPair, a volley.TsodyksMarkram, a volley.StochasticRelease or a "
                            "volley.QuantalRelease");
}

py::dict population_dict(const snn::network& net, const snn::population& p) {
    py::dict d;
    d["name"] = p.name;
    d["size"] = p.size;
    d["model"] = model_handle{p.model};
    py::dict params, init;
    for (const auto& [k, v] : p.parameters) params[py::str(k)] = from_value_spec(v);
    for (const auto& [k, v] : p.initial_values) init[py::str(k)] = from_value_spec(v);
    d["parameters"] = params;
    d["initial_values"] = init;
    d["index"] = net.find(p.name);
    return d;
}

py::dict projection_dict(const snn::network& net, const snn::projection& q) {
    py::dict d;
    d["source"] = net.at(q.source).name;
    d["target"] = net.at(q.target).name;
    d["connector"] = snn::connector_name(q.rule);
    d["weight"] = from_value_spec(q.synapse.weight);
    d["delay_ms"] = from_value_spec(q.synapse.delay_ms);
    d["receptor"] = q.synapse.receptor == snn::excitatory ? "excitatory" : "inhibitory";
    d["plasticity"] = snn::plasticity_name(q.synapse.plasticity);
    return d;
}

snn::nir_import_options nir_options(double dt_s, const std::string& discretisation,
                                    const std::string& reset) {
    snn::nir_import_options o;
    o.dt_s = dt_s;
    o.discretisation = snn::integration_from_name(discretisation, "discretisation");
    o.reset = snn::nir_reset_from_name(reset, "reset");
    return o;
}

}  // namespace

void bind_network(py::module_& m) {
    py::class_<snn::population_index>(m, "PopulationIndex", "A population's index in its network.")
        .def(py::init([](std::uint32_t v) { return snn::population_index{v}; }), py::arg("value"))
        .def_readonly("value", &snn::population_index::value)
        .def("__int__", [](snn::population_index p) { return p.value; })
        .def("__index__", [](snn::population_index p) { return p.value; })
        .def("__eq__", [](snn::population_index a, snn::population_index b) { return a == b; })
        .def("__hash__", [](snn::population_index p) { return p.value; })
        .def("__repr__", [](snn::population_index p) {
            return "volley.PopulationIndex(" + std::to_string(p.value) + ")";
        });

    py::class_<snn::network>(m, "Network", R"doc(
A network description: populations, projections and current stimuli. Every method validates
its input and raises InvalidParameter, UnknownName or UnsupportedModel naming the object and
the value. Populations are named by their PopulationIndex or by their name.)doc")
        .def(py::init<>())
        .def(
            "add_population",
            [](snn::network& net, std::string name, std::uint32_t size, const py::object& model,
               const py::kwargs& kw) {
                snn::neuron_model nm;
                if (py::isinstance<py::str>(model))
                    nm = make_model(py::cast<std::string>(model), kw);
                else {
                    if (py::len(kw) != 0)
                        throw invalid_parameter("population '" + name + "'", "parameters",
                                                "(keywords)",
                                                "give them to NeuronModel, or the model by name");
                    nm = py::cast<const model_handle&>(model).model;
                }
                return net.add_population(std::move(name), size, std::move(nm));
            },
            py::arg("name"), py::arg("size"), py::arg("model"),
            "Adds a population of `size` neurons of `model` (a NeuronModel, or a model name "
            "followed by its "
            "parameters as keywords). Returns its PopulationIndex.")
        .def(
            "set_parameter",
            [](snn::network& net, const population_ref& pop, const std::string& name,
               const py::object& value) {
                net.set_parameter(resolve(net, pop), name, to_value_spec(value));
            },
            py::arg("population"), py::arg("name"), py::arg("value"),
            "Overrides a parameter per neuron: a number, one value per neuron, a Uniform or a "
            "Normal.")
        .def(
            "initialise",
            [](snn::network& net, const population_ref& pop, const std::string& variable,
               const py::object& value) {
                net.initialise(resolve(net, pop), variable, to_value_spec(value));
            },
            py::arg("population"), py::arg("variable"), py::arg("value"),
            "Sets the initial value of a state variable (v_mv, ...): a number, one value per "
            "neuron, a Uniform or a "
            "Normal.")
        .def(
            "connect",
            [](snn::network& net, const population_ref& source, const population_ref& target,
               const snn::connector& rule, const py::object& weight, const py::object& delay_ms,
               const std::string& receptor, const py::object& plasticity) {
                snn::synapse_spec s;
                s.weight = to_value_spec(weight);
                s.delay_ms = to_value_spec(delay_ms);
                s.receptor = receptor_from_name(receptor);
                s.plasticity = to_plasticity(plasticity);
                return net.connect(resolve(net, source), resolve(net, target), rule, std::move(s));
            },
            py::arg("source"), py::arg("target"), py::arg("connector"), py::arg("weight") = 1.0,
            py::arg("delay_ms") = 1.0, py::arg("receptor") = "excitatory",
            py::arg("plasticity") = py::none(),
            "Connects two populations. weight and delay_ms are numbers, per-synapse lists or "
            "distributions; "
            "weights are R*I jumps [mV] for current synapses, conductances [nS] for conductance "
            "models. Returns the "
            "projection's index.")
        .def(
            "inject",
            [](snn::network& net, const population_ref& target,
               const snn::current_waveform& waveform, std::vector<std::uint32_t> neurons) {
                net.inject(resolve(net, target), waveform, std::move(neurons));
            },
            py::arg("target"), py::arg("current"),
            py::arg("neurons") = std::vector<std::uint32_t>{},
            "Injects a DCCurrent, StepCurrent, ACCurrent or NoiseCurrent into a population, or into "
            "the listed neurons of it.")
        .def(
            "set_integrator",
            [](snn::network& net, const population_ref& pop, const std::string& scheme,
               double abs_tol, double rel_tol) {
                net.set_integrator(resolve(net, pop),
                                   {snn::scheme_from_name(scheme, "integrator"), abs_tol, rel_tol});
            },
            py::arg("population"), py::arg("scheme"), py::arg("abs_tol") = 1e-8,
            py::arg("rel_tol") = 1e-8,
            "Sets the integration scheme of an ODE population: adaptive, rk4, rk2, "
            "exponential_euler, euler, "
            "half_step_euler.")
        .def(
            "find", [](const snn::network& net, const std::string& name) { return net.find(name); },
            py::arg("name"))
        .def(
            "population",
            [](const snn::network& net, const population_ref& pop) {
                return population_dict(net, net.at(resolve(net, pop)));
            },
            py::arg("population"),
            "The population as a dict: name, size, model, parameters, initial_values, index.")
        .def_property_readonly("population_names",
                               [](const snn::network& net) {
                                   std::vector<std::string> names;
                                   for (const auto& p : net.populations()) names.push_back(p.name);
                                   return names;
                               })
        .def_property_readonly(
            "projections",
            [](const snn::network& net) {
                py::list out;
                for (const auto& q : net.projections()) out.append(projection_dict(net, q));
                return out;
            },
            "Every projection as a dict: source, target, connector, weight, delay_ms, receptor, "
            "plasticity.")
        .def_property_readonly("neuron_count", &snn::network::neuron_count)
        .def("__eq__", [](const snn::network& a, const snn::network& b) { return a == b; })
        .def("__repr__", [](const snn::network& net) {
            return "volley.Network(" + std::to_string(net.populations().size()) + " populations, " +
                   std::to_string(net.projections().size()) + " projections, " +
                   std::to_string(net.neuron_count()) + " neurons)";
        });

    m.def(
        "current_trace",
        [](const snn::network& net, std::size_t stimulus, std::uint32_t neuron, double dt_ms, std::uint64_t seed,
           std::int64_t steps) {
            return to_array(snn::current_trace(net, stimulus, neuron, dt_ms, seed, steps));
        },
        py::arg("network"), py::arg("stimulus"), py::arg("neuron"), py::arg("dt_ms"), py::arg("seed"),
        py::arg("steps"),
        "The current [mV, or pA for the conductance models] that stimulus `stimulus` (its index in the "
        "order of inject()) adds to `neuron` in each of the first `steps` steps of a run with this dt and "
        "seed: what the engine applies, step by step (noise included).");
    m.def("cuba_network", &snn::cuba_network, py::arg("neurons"), py::arg("dt_ms") = 0.1,
          "The CUBA benchmark network (Vogels & Abbott 2005) as `volley bench cuba` builds it.");
    m.def("coba_network", &snn::coba_network, py::arg("neurons"), py::arg("dt_ms") = 0.1,
          "The COBA benchmark network (conductance LIF) as `volley bench coba` builds it.");
    m.def("cobahh_network", &snn::cobahh_network, py::arg("neurons"), py::arg("dt_ms") = 0.1,
          "The COBAHH benchmark network (Hodgkin-Huxley) as `volley bench cobahh` builds it.");
    m.def(
        "microcircuit_network",
        [](double scale, std::optional<double> in_degree_scale, const std::string& drive, double dt_ms) {
            if (drive != "poisson" && drive != "dc")
                throw invalid_parameter("microcircuit_network", "drive", drive, "must be \"poisson\" or \"dc\"");
            return snn::microcircuit_network({.scale = scale,
                                              .in_degree_scale = in_degree_scale.value_or(scale),
                                              .poisson_drive = drive == "poisson",
                                              .dt_ms = dt_ms});
        },
        py::arg("scale") = 0.1, py::arg("in_degree_scale") = py::none(), py::arg("drive") = "poisson",
        py::arg("dt_ms") = 0.1,
        "The Potjans-Diesmann cortical microcircuit as `volley bench microcircuit` builds it: scale x "
        "77,169 neurons (populations L23E ... L6I, then drive_L23E ... with the Poisson drive); "
        "in_degree_scale defaults to scale, as NEST's example.");
    m.def(
        "microcircuit_full_scale_rates_hz",
        [] {
            const auto names = snn::microcircuit_populations();
            const auto rates = snn::microcircuit_full_scale_rates_hz();
            py::dict d;
            for (std::size_t i = 0; i < names.size(); ++i) d[py::str(names[i])] = rates[i];
            return d;
        },
        "NEST's full-scale rates [Hz] of the microcircuit's populations (the reference of the bench).");

    m.def(
        "to_json",
        [](const snn::network& net, double dt_ms, double duration_ms, std::uint64_t seed) {
            return snn::to_network_json(net, {dt_ms, duration_ms, seed});
        },
        py::arg("network"), py::arg("dt_ms") = 0.1, py::arg("duration_ms") = 1000.0,
        py::arg("seed") = 42,
        "The network file (docs/network-format.md) as JSON text, with its run settings.");
    m.def(
        "save_json",
        [](const snn::network& net, const std::filesystem::path& file, double dt_ms,
           double duration_ms, std::uint64_t seed) {
            snn::save_network_json(net, file, {dt_ms, duration_ms, seed});
        },
        py::arg("network"), py::arg("file"), py::arg("dt_ms") = 0.1,
        py::arg("duration_ms") = 1000.0, py::arg("seed") = 42,
        "Writes a network file atomically. Raises IoError.");
    auto file_tuple = [](snn::network_file f) {
        py::dict settings;
        settings["dt_ms"] = f.run.dt_ms;
        settings["duration_ms"] = f.run.duration_ms;
        settings["seed"] = f.run.seed;
        return py::make_tuple(std::move(f.net), settings);
    };
    m.def(
        "from_json",
        [file_tuple](const std::string& text) { return file_tuple(snn::parse_network_json(text)); },
        py::arg("text"),
        "Parses network-file JSON text: (Network, run settings dict). Raises FileFormatError.");
    m.def(
        "load_json",
        [file_tuple](const std::filesystem::path& file) {
            return file_tuple(snn::load_network_json(file));
        },
        py::arg("file"),
        "Reads a network file: (Network, run settings dict). Raises IoError, FileFormatError.");

    m.def(
        "load_nir",
        [](const std::filesystem::path& file, double dt_s, const std::string& discretisation,
           const std::string& reset) {
            auto mapped =
                snn::nir_to_network(snn::read_nir(file), nir_options(dt_s, discretisation, reset));
            py::dict info;
            info["inputs"] = mapped.inputs;
            std::vector<std::string> outputs;
            for (const auto& o : mapped.outputs) outputs.push_back(o.source);
            info["outputs"] = outputs;
            info["notes"] = mapped.notes;
            std::vector<std::string> warnings;
            for (const auto& w : mapped.warnings) warnings.push_back(w.message);
            info["warnings"] = warnings;
            info["max_depth"] = mapped.max_depth();
            return py::make_tuple(std::move(mapped.net), info);
        },
        py::arg("file"), py::arg("dt_s") = 1e-4, py::arg("discretisation") = "euler",
        py::arg("reset") = "to-v-reset",
        "Reads a NIR file and maps it onto the engine (docs/nir.md): (Network, info dict with the "
        "input "
        "populations, the populations feeding each Output, notes and step warnings).");
    m.def(
        "save_nir",
        [](const snn::network& net, const std::filesystem::path& file, double dt_s,
           const std::string& discretisation, const std::string& reset) {
            snn::write_nir(snn::network_to_nir(net, nir_options(dt_s, discretisation, reset)),
                           file);
        },
        py::arg("network"), py::arg("file"), py::arg("dt_s") = 1e-4,
        py::arg("discretisation") = "euler", py::arg("reset") = "to-v-reset",
        "Writes a network of discrete_neuron and analog_source populations as a NIR file. Raises "
        "UnsupportedModel for other models.");
}

}  // namespace volley::python
