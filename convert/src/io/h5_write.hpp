#pragma once
// Small HDF5 writing helpers for the model writers, on top of the snn library's RAII handles.

#include <volley/snn/hdf5_file.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace volley::convert::detail {

using snn::detail::hdf5_id;

/// Writes an N-D float32 dataset of shape `dims` from `values` (row-major).
void write_float_dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                         const std::vector<float>& values, const std::string& file);

/// Writes an N-D float64 dataset.
void write_double_dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                          const std::vector<double>& values, const std::string& file);

/// Writes an N-D int32 dataset.
void write_int_dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                       const std::vector<std::int32_t>& values, const std::string& file);

/// Writes a 1-D attribute of fixed-length, NUL-padded ASCII strings, as h5py writes numpy byte
/// strings (Keras's `layer_names` and `weight_names`). An empty list is written as an empty
/// float64 array, as h5py does for an empty numpy array.
void write_string_array_attribute(hid_t object, const std::string& name,
                                  const std::vector<std::string>& values, const std::string& file);

/// Writes a scalar int64 attribute.
void write_int_attribute(hid_t object, const std::string& name, std::int64_t value,
                         const std::string& file);

/// Writes a scalar float64 attribute.
void write_double_attribute(hid_t object, const std::string& name, double value,
                            const std::string& file);

/// Writes a 1-D int32 attribute.
void write_int_array_attribute(hid_t object, const std::string& name,
                               const std::vector<std::int32_t>& values, const std::string& file);

}  // namespace volley::convert::detail
