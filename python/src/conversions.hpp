#pragma once
// Conversions between Python values and Volley's value specs, shared by the binding files.

#include <pybind11/pybind11.h>

#include <volley/snn/neuron_models.hpp>
#include <volley/snn/value.hpp>

#include <string>

namespace volley::python {

/// volley.NeuronModel: a neuron_model in a struct of its own, since pybind11's std::variant
/// caster would otherwise take the variant apart.
struct model_handle {
    snn::neuron_model model;
};

/// A number, a Uniform, a Normal, or a sequence (list, NumPy array) of one value per element.
snn::value_spec to_value_spec(const pybind11::handle& v);
/// The inverse, for reading a network back.
pybind11::object from_value_spec(const snn::value_spec& v);
/// The model `name` with the keyword parameters of volley.NeuronModel, validated.
snn::neuron_model make_model(const std::string& name, const pybind11::kwargs& kwargs);

}  // namespace volley::python
