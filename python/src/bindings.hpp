#pragma once
// The pieces of the volley Python module (docs/python.md), one function per part; module.cpp
// calls them in dependency order.

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

#include <volley/json_text.hpp>
#include <volley/snn/context.hpp>
#include <volley/snn/network.hpp>

#include <cstdint>
#include <string>
#include <variant>

namespace volley::python {

namespace py = pybind11;

/// The exception classes (volley.Error and its subclasses) and their translators.
void bind_errors(py::module_& m);
/// Value specs, neuron models, connectors, stimuli, plasticity rules.
void bind_models(py::module_& m);
/// snn::network, network JSON in and out, NIR in and out.
void bind_network(py::module_& m);
/// snn::simulation and the recorders, with NumPy views of their data.
void bind_simulation(py::module_& m);
/// CnnModel and ConvertedSnn: CNN-to-SNN conversion and its evaluation.
void bind_convert(py::module_& m);
/// volley.analysis: the spike-train analysis library.
void bind_analysis(py::module_& m);
/// The neuroprocessors (RISP, danna2, the DANNA grid) behind a TENNLab-like Processor.
void bind_hardware(py::module_& m);
/// The tasks networks are evolved for (the cart-pole) and EONS on them.
void bind_tasks(py::module_& m);
/// volley.pipeline: the hybrid pipeline (`volley demo` as a function).
void bind_pipeline(py::module_& m);

/// A population named by its index (a PopulationIndex or an int) or by its name, as every call
/// that takes one accepts.
using population_ref = std::variant<snn::population_index, std::uint32_t, std::string>;
/// The index of `ref` in `net`; throws unknown_name for a name the network does not have.
snn::population_index resolve(const snn::network& net, const population_ref& ref);

/// A Python value (dict, list, number, ...; None: an empty object) as JSON, through json.dumps.
inline nlohmann::json to_json(const py::handle& value) {
    if (value.is_none()) return nlohmann::json::object();
    const auto text = py::cast<std::string>(py::module_::import("json").attr("dumps")(value));
    return parse_json_text(text, "a Python value");
}

/// JSON as a Python value, through json.loads.
inline py::object from_json(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

/// "auto", "cpu", "portable" or "cuda" (snn::backend_kind); invalid_parameter otherwise.
snn::backend_kind backend_from_name(const std::string& name);

}  // namespace volley::python
