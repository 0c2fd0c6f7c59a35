#pragma once
// The parameter rules of each NIR primitive (docs/specs/NIR.md, "Primitives"): which parameters a
// node may and must carry, their valid ranges, and the spec's defaults.

#include <volley/snn/nir_graph.hpp>

#include <string>
#include <vector>

namespace volley::snn::detail {

/// Where a node sits, for error messages: the file and the HDF5 path of its group.
struct nir_location {
    std::string file;
    std::string path;
};

/// Checks that `node` is a known primitive with known, present and in-range parameters, and adds
/// the spec's defaults (v_reset = 0, w_in = 1). Throws file_format_error naming the node for an
/// unknown type or parameter or a missing one, invalid_parameter for a bad value (τ ≤ 0, ...).
/// NIRGraph nodes are accepted here; their contents are checked by the caller.
void check_nir_params(nir_node& node, const nir_location& where);

/// Reads an integer pair parameter (stride, padding, ...): a scalar or one value expands to
/// (v, v). `fallback` when absent. Throws file_format_error naming the node otherwise.
std::vector<long long> nir_int_tuple(const nir_node& node, const std::string& key, std::size_t rank,
                                     long long fallback, const nir_location& where);

/// The shape text "[2, 34, 34]" for messages.
std::string nir_shape_text(const std::vector<std::size_t>& shape);

}  // namespace volley::snn::detail
