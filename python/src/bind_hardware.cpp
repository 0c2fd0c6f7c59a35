// The neuroprocessors (RISP, danna2, the DANNA grid) behind volley.Processor, in the shape of
// the TENNLab framework's Python Processor: load_network, apply_spikes, run, output_counts,
// output_vectors (docs/risp.md, docs/danna.md). JSON values cross as Python dicts.

#include "bindings.hpp"

#include <pybind11/stl.h>

#include <volley/danna/processor_factory.hpp>
#include <volley/error.hpp>
#include <volley/hw/neuroprocessor.hpp>
#include <volley/hw/risp_processor.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <memory>

namespace volley::python {

namespace {

/// A processor and the name it was made with.
struct py_processor {
    std::unique_ptr<hw::neuroprocessor> proc;
    std::vector<std::string> warnings;
};

hw::spike to_spike(const py::handle& s) {
    if (py::isinstance<hw::spike>(s)) return py::cast<hw::spike>(s);
    const auto t = py::cast<py::tuple>(s);
    if (t.size() != 2 && t.size() != 3)
        throw invalid_parameter("apply_spikes", "spike", py::str(py::repr(s)),
                                "must be (id, time[, value])");
    return {py::cast<hw::node_id>(t[0]), py::cast<double>(t[1]),
            t.size() == 3 ? py::cast<double>(t[2]) : 1.0};
}

}  // namespace

void bind_hardware(py::module_& m) {
    py::class_<hw::spike>(
        m, "Spike", "An input spike: input node id, time [steps from the next run's start], value.")
        .def(py::init([](hw::node_id id, double time, double value) {
                 return hw::spike{id, time, value};
             }),
             py::arg("id"), py::arg("time"), py::arg("value") = 1.0)
        .def_readwrite("id", &hw::spike::id)
        .def_readwrite("time", &hw::spike::time)
        .def_readwrite("value", &hw::spike::value)
        .def("__repr__", [](const hw::spike& s) {
            return "volley.Spike(" + std::to_string(s.id) + ", " + std::to_string(s.time) + ", " +
                   std::to_string(s.value) + ")";
        });

    py::class_<hw::tennlab_network>(
        m, "TennlabNetwork",
        "A TENNLab network (RISP.md section e): nodes, edges, inputs, outputs.")
        .def_static(
            "load", [](const std::string& path) { return hw::load_tennlab_network(path); },
            py::arg("path"), "Reads a TENNLab network JSON file. Raises IoError or TennlabError.")
        .def_static(
            "from_dict",
            [](const py::object& d) {
                return hw::tennlab_network::from_json(to_json(d), "<dict>");
            },
            py::arg("network"), "Builds a network from its JSON as a dict. Raises TennlabError.")
        .def("to_dict", [](const hw::tennlab_network& n) { return from_json(n.to_json()); })
        .def(
            "save",
            [](const hw::tennlab_network& n, const std::string& path) {
                hw::save_tennlab_network(n, path);
            },
            py::arg("path"))
        .def_readonly("inputs", &hw::tennlab_network::inputs)
        .def_readonly("outputs", &hw::tennlab_network::outputs)
        .def_property_readonly(
            "associated_data",
            [](const hw::tennlab_network& n) { return from_json(n.associated_data); })
        .def_property_readonly("num_nodes",
                               [](const hw::tennlab_network& n) { return n.nodes.size(); })
        .def_property_readonly("num_edges",
                               [](const hw::tennlab_network& n) { return n.edges.size(); });

    py::class_<py_processor>(m, "Processor", R"doc(
A neuroprocessor: "risp", "danna2" or "danna" (the DANNA grid), made from its parameters as a
dict (TENNLab's proc_params; None for the defaults). A risp network on a DANNA model takes
proc_name="risp" (warnings lists what the model lacks). Times are in processor steps.)doc")
        .def(py::init([](const std::string& model, const py::object& params,
                         const std::string& proc_name) {
                 py_processor p;
                 const auto j = to_json(params);
                 if (model == "risp")
                     p.proc = std::make_unique<hw::risp_processor>(j);
                 else if (model == "danna" || model == "danna2")
                     p.proc = danna::make_processor(model, proc_name.empty() ? model : proc_name, j,
                                                    p.warnings);
                 else
                     throw unsupported_model(model, "not a neuroprocessor (risp, danna2, danna)");
                 return p;
             }),
             py::arg("model"), py::arg("params") = py::none(), py::arg("proc_name") = "")
        .def_property_readonly("name", [](const py_processor& p) { return p.proc->name(); })
        .def_property_readonly("warnings", [](const py_processor& p) { return p.warnings; })
        .def("get_params", [](const py_processor& p) { return from_json(p.proc->parameters()); })
        .def(
            "load_network",
            [](py_processor& p, const hw::tennlab_network& net, int network_id) {
                p.proc->load_network(net, network_id);
            },
            py::arg("network"), py::arg("network_id") = 0)
        .def(
            "clear", [](py_processor& p, int id) { p.proc->clear(id); }, py::arg("network_id") = 0)
        .def(
            "apply_spike",
            [](py_processor& p, const py::object& s, bool normalized, int id) {
                p.proc->apply_spike(to_spike(s), normalized, id);
            },
            py::arg("spike"), py::arg("normalized") = true, py::arg("network_id") = 0)
        .def(
            "apply_spikes",
            [](py_processor& p, const py::iterable& spikes, bool normalized, int id) {
                std::vector<hw::spike> v;
                for (const auto& s : spikes) v.push_back(to_spike(s));
                p.proc->apply_spikes(v, normalized, id);
            },
            py::arg("spikes"), py::arg("normalized") = true, py::arg("network_id") = 0,
            "Queues Spike objects or (id, time[, value]) tuples.")
        .def(
            "run",
            [](py_processor& p, double duration, int id) {
                py::gil_scoped_release release;
                p.proc->run(duration, id);
            },
            py::arg("duration"), py::arg("network_id") = 0, "Simulates `duration` steps.")
        .def(
            "clear_activity", [](py_processor& p, int id) { p.proc->clear_activity(id); },
            py::arg("network_id") = 0)
        .def(
            "total_steps", [](const py_processor& p, int id) { return p.proc->total_steps(id); },
            py::arg("network_id") = 0)
        .def(
            "track_output_events",
            [](py_processor& p, int o, bool t, int id) { p.proc->track_output_events(o, t, id); },
            py::arg("output_index"), py::arg("track") = true, py::arg("network_id") = 0)
        .def(
            "track_neuron_events",
            [](py_processor& p, hw::node_id n, bool t, int id) {
                p.proc->track_neuron_events(n, t, id);
            },
            py::arg("node_id"), py::arg("track") = true, py::arg("network_id") = 0)
        .def(
            "num_outputs", [](const py_processor& p, int id) { return p.proc->num_outputs(id); },
            py::arg("network_id") = 0)
        .def(
            "output_count",
            [](const py_processor& p, int o, int id) { return p.proc->output_count(o, id); },
            py::arg("output_index"), py::arg("network_id") = 0)
        .def(
            "output_counts",
            [](const py_processor& p, int id) { return p.proc->output_counts(id); },
            py::arg("network_id") = 0, "Fire count of every output in the last run.")
        .def(
            "output_last_fires",
            [](const py_processor& p, int id) { return p.proc->output_last_fires(id); },
            py::arg("network_id") = 0)
        .def(
            "output_vectors",
            [](const py_processor& p, int id) { return p.proc->output_vectors(id); },
            py::arg("network_id") = 0,
            "Fire times of every output in the last run [steps from its start].")
        .def(
            "neuron_ids", [](const py_processor& p, int id) { return p.proc->neuron_ids(id); },
            py::arg("network_id") = 0)
        .def(
            "neuron_charges",
            [](const py_processor& p, int id) { return p.proc->neuron_charges(id); },
            py::arg("network_id") = 0)
        .def(
            "neuron_counts",
            [](const py_processor& p, int id) { return p.proc->neuron_counts(id); },
            py::arg("network_id") = 0)
        .def(
            "neuron_vectors",
            [](const py_processor& p, int id) { return p.proc->neuron_vectors(id); },
            py::arg("network_id") = 0)
        .def(
            "costs",
            [](const py_processor& p, int id) { return from_json(p.proc->costs(id).to_json()); },
            py::arg("network_id") = 0,
            "Resources, cycles, events, time and energy since the load, as a dict.");
}

}  // namespace volley::python
