#pragma once
// Chunked, extendible HDF5 datasets that recorders append to, and whole-dataset reads for the
// readers; built on the layer of volley/snn/hdf5_file.hpp. Rows are along the first dimension;
// a 1-D dataset has `columns` = 0.

#include <volley/snn/hdf5_file.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace volley::snn::detail {

/// Creates a dataset of shape [0] (columns = 0) or [0, columns], chunked by `chunk_rows` rows and
/// extendible without limit along the first dimension.
hdf5_id create_extendible_dataset(hid_t parent, const std::string& name, hid_t file_type,
                                  std::size_t columns, std::size_t chunk_rows,
                                  const std::string& file);

/// Appends `rows` rows (each `columns` wide, 0 for 1-D) of `mem_type` values after the current
/// end of the first dimension.
void append_rows(hid_t dataset, hid_t mem_type, const void* data, std::size_t rows,
                 std::size_t columns, const std::string& file, const std::string& object);

/// Creates a fixed-size 1-D dataset of `count` values and writes them.
hdf5_id write_fixed_dataset(hid_t parent, const std::string& name, hid_t file_type, hid_t mem_type,
                            const void* data, std::size_t count, const std::string& file);

/// Overwrites the whole of an existing dataset from `mem_type` values.
void overwrite_dataset(hid_t dataset, hid_t mem_type, const void* data, const std::string& file,
                       const std::string& object);

/// The dataset's shape (one entry per dimension; empty for a scalar).
std::vector<hsize_t> dataset_shape(hid_t dataset);

/// The number of elements of the dataset, checked before a reader allocates memory for them: a
/// damaged or hostile file can declare a shape far larger than what it stores. file_format_error
/// naming `file`, `object` and the shape when the count overflows, or when count × element_bytes
/// is more than the dataset stores times 1032 (deflate's largest compression ratio) plus 1 MiB
/// (a small dataset that stores nothing reads as its fill value).
std::size_t checked_element_count(hid_t dataset, std::size_t element_bytes, const std::string& file,
                                  const std::string& object);

/// The class of the dataset's element type (H5T_INTEGER, H5T_FLOAT, ...).
H5T_class_t dataset_class(hid_t dataset);

/// Reads the whole dataset, converted by HDF5 to `mem_type`, into `out` (which must be large
/// enough). file_format_error naming `file` and `object` if HDF5 cannot convert it.
void read_whole_dataset(hid_t dataset, hid_t mem_type, void* out, const std::string& file,
                        const std::string& object);

/// The whole dataset as T values (converted by HDF5 to `mem_type`), allocated only after
/// checked_element_count: how every reader takes a dataset whose size it does not know.
template <class T>
std::vector<T> read_dataset_values(hid_t dataset, hid_t mem_type, const std::string& file, const std::string& object) {
    std::vector<T> out(checked_element_count(dataset, sizeof(T), file, object));
    if (!out.empty()) read_whole_dataset(dataset, mem_type, out.data(), file, object);
    return out;
}

}  // namespace volley::snn::detail
