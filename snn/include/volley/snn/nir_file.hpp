#pragma once
// Reading and writing NIR files (HDF5, docs/specs/NIR.md) to and from an in-memory nir_graph.

#include <volley/snn/nir_graph.hpp>

#include <filesystem>
#include <string_view>

namespace volley::snn {

/// The version string write_nir stores in `/version`: the current upstream `nir` release.
inline constexpr std::string_view nir_write_version = "1.0.8";

/// Reads a NIR file and analyses it (analyse_nir_graph): any float or int width, gzip-compressed
/// chunked arrays, scalar or pair parameters, string padding, nested graphs.
/// Throws io_error when the file cannot be opened, file_format_error naming the file and the HDF5
/// object (not HDF5, missing `type`, unknown primitive or parameter, an edge to a missing node,
/// mismatched weight shapes), invalid_parameter for out-of-range values such as a negative τ.
nir_graph read_nir(const std::filesystem::path& file);

/// Writes `graph` as a NIR file at nir_write_version, in the layout of the upstream writer
/// (gzip-compressed arrays, edges as an (E,2) string array). The graph is validated first.
void write_nir(const nir_graph& graph, const std::filesystem::path& file);

}  // namespace volley::snn
