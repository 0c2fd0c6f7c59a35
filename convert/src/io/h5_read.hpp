#pragma once
// Small HDF5 reading helpers for the CNN readers, on top of the snn library's RAII handles.
// Every function takes the file name and the object's path so that its errors can name both.

#include <volley/snn/hdf5_file.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace volley::convert::detail {

using snn::detail::hdf5_id;

/// A dataset read as float32 (HDF5 converts float64 or integers), with its shape.
struct float_array {
    std::vector<std::size_t> shape;
    std::vector<float> values;
};

/// Reads a whole numeric dataset as float. file_format_error naming `file` and `path` if it is
/// missing, not a dataset or not numeric.
float_array read_float_array(hid_t parent, const std::string& name, const std::string& file,
                             const std::string& path);

/// Reads a whole integer dataset as int64.
std::vector<std::int64_t> read_int_array(hid_t parent, const std::string& name,
                                         const std::string& file, const std::string& path);

/// Reads a string attribute that is a scalar or a 1-D array of fixed- or variable-length strings.
/// An attribute split by Keras into `name0`, `name1`, ... (because of HDF5's 64 KiB header
/// limit) is joined. An empty numeric array (how h5py stores an empty list) gives no strings.
/// nullopt when absent.
std::optional<std::vector<std::string>> read_string_list_attribute(hid_t object,
                                                                   const std::string& name,
                                                                   const std::string& file);

/// A scalar string attribute (fixed or variable length, or a one-element array).
std::optional<std::string> read_text_attribute(hid_t object, const std::string& name,
                                               const std::string& file);

/// A numeric attribute, scalar or 1-D, as int64 values; nullopt when absent.
/// file_format_error if it is present but not numeric.
std::optional<std::vector<std::int64_t>> read_int_list_attribute(hid_t object,
                                                                 const std::string& name,
                                                                 const std::string& file,
                                                                 const std::string& path);

/// A scalar numeric attribute as double; nullopt when absent.
std::optional<double> read_double_attribute(hid_t object, const std::string& name,
                                            const std::string& file, const std::string& path);

/// "(3, 3, 1, 16)".
std::string shape_text(const std::vector<std::size_t>& shape);

}  // namespace volley::convert::detail
