#pragma once
// The linear NIR primitives as operators on per-sample vectors (C order), used to compose a
// chain of them into one sparse matrix by pushing basis vectors through it (nir_to_network.cpp).
// Each operator scatters from the non-zero inputs only, so a basis vector costs the fan-out of
// one element, not the size of the layer.

#include <volley/snn/nir_graph.hpp>

#include <string>
#include <vector>

namespace volley::snn::detail {

/// True for the types that map into projections: Affine, Linear, Scale, Conv1d, Conv2d,
/// SumPool2d, AvgPool2d, Flatten, Delay.
bool is_nir_linear(const std::string& type);

/// Adds the node's linear map (without bias) of `x` (its input, size of input_shape) to `y`
/// (size of output_shape).
void apply_nir_linear(const nir_node& node, const std::vector<double>& x, std::vector<double>& y);

/// The node's bias broadcast to its output shape, or an empty vector when it has none.
std::vector<double> nir_linear_bias(const nir_node& node);

/// The number of elements of a shape.
std::size_t nir_element_count(const std::vector<std::size_t>& shape);

}  // namespace volley::snn::detail
