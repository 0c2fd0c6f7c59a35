#pragma once
// Conversions between Python values and Volley's value specs, shared by the binding files.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <volley/snn/neuron_models.hpp>
#include <volley/snn/value.hpp>

#include <string>
#include <vector>

namespace volley::python {

/// volley.NeuronModel: a neuron_model in a struct of its own, since pybind11's std::variant
/// caster would otherwise take the variant apart.
struct model_handle {
    snn::neuron_model model;
};

/// C-order strides of `shape` for elements of `item_bytes`. Given explicitly to every array made
/// here: pybind11 before 2.12 reads the element size at NumPy 1.x's place in the descriptor, which
/// NumPy 2 moved, and would make zero strides.
std::vector<pybind11::ssize_t> c_strides(const std::vector<pybind11::ssize_t>& shape,
                                         std::size_t item_bytes);

/// A new C-order NumPy array, or a view of `data` kept alive by `base`.
template <class T>
pybind11::array_t<T> new_array(const std::vector<pybind11::ssize_t>& shape, const T* data = nullptr,
                               pybind11::handle base = pybind11::handle()) {
    return pybind11::array_t<T>(shape, c_strides(shape, sizeof(T)), data, base);
}

/// A NumPy copy of a vector.
template <class T>
pybind11::array_t<T> to_array(const std::vector<T>& v) {
    return new_array<T>({static_cast<pybind11::ssize_t>(v.size())}, v.data());
}

/// A number, a Uniform, a Normal, or a sequence (list, NumPy array) of one value per element.
snn::value_spec to_value_spec(const pybind11::handle& v);
/// The inverse, for reading a network back.
pybind11::object from_value_spec(const snn::value_spec& v);
/// The model `name` with the keyword parameters of volley.NeuronModel, validated.
snn::neuron_model make_model(const std::string& name, const pybind11::kwargs& kwargs);

}  // namespace volley::python
