#pragma once
// NIR datasets in HDF5: parameters as nir_array (any int or float width, gzip or not, scalar
// or array), scalar strings, and the (E,2) edge table.

#include "nir/nir_primitives.hpp"

#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/nir_graph.hpp>

#include <string>
#include <utility>
#include <vector>

namespace volley::snn::detail {

/// Reads dataset `where.path` (open as `dataset`) as a parameter. file_format_error naming it for
/// a type that is neither numeric nor a scalar string.
nir_array read_nir_array(hid_t dataset, const nir_location& where);

/// Reads a scalar string dataset (variable or fixed length); file_format_error when it is not one.
std::string read_nir_text(hid_t dataset, const nir_location& where);

/// Reads a graph's `edges`: an (E,2) string array, or any empty array for no edges.
std::vector<std::pair<std::string, std::string>> read_nir_edges(hid_t dataset,
                                                                const nir_location& where);

/// Writes a parameter: scalars plainly, arrays gzip-compressed in one chunk (as upstream does).
void write_nir_array(hid_t parent, const std::string& name, const nir_array& value,
                     const std::string& file);

/// Writes a scalar variable-length UTF-8 string dataset.
void write_nir_text(hid_t parent, const std::string& name, const std::string& text,
                    const std::string& file);

/// Writes the (E,2) edge table; a graph without edges gets a float64 array of shape (0,).
void write_nir_edges(hid_t parent, const std::vector<std::pair<std::string, std::string>>& edges,
                     const std::string& file);

}  // namespace volley::snn::detail
