#include <volley/snn/hdf5_dataset.hpp>

#include <volley/error.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace volley::snn::detail {

hdf5_id create_extendible_dataset(hid_t parent, const std::string& name, hid_t file_type,
                                  std::size_t columns, std::size_t chunk_rows,
                                  const std::string& file) {
    hdf5_quiet quiet;
    const int rank = columns == 0 ? 1 : 2;
    hsize_t dims[2] = {0, columns};
    hsize_t max_dims[2] = {H5S_UNLIMITED, columns};
    hsize_t chunk[2] = {std::max<std::size_t>(chunk_rows, 1), std::max<std::size_t>(columns, 1)};
    hdf5_id space(H5Screate_simple(rank, dims, max_dims), H5Sclose);
    hdf5_id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    check_hdf5(space.valid() && dcpl.valid() ? 0 : -1, file, "prepare dataset '" + name + "'");
    check_hdf5(H5Pset_chunk(dcpl.get(), rank, chunk), file, "chunk dataset '" + name + "'");
    hdf5_id dataset(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                               dcpl.get(), H5P_DEFAULT),
                    H5Dclose);
    if (!dataset.valid()) throw io_error(file, "HDF5 failed to create dataset '" + name + "'");
    return dataset;
}

void append_rows(hid_t dataset, hid_t mem_type, const void* data, std::size_t rows,
                 std::size_t columns, const std::string& file, const std::string& object) {
    if (rows == 0) return;
    hdf5_quiet quiet;
    const int rank = columns == 0 ? 1 : 2;
    hdf5_id old_space(H5Dget_space(dataset), H5Sclose);
    hsize_t dims[2] = {0, 0};
    check_hdf5(H5Sget_simple_extent_dims(old_space.get(), dims, nullptr), file,
               "read the extent of " + object);
    const hsize_t start_row = dims[0];
    hsize_t new_dims[2] = {start_row + rows, columns};
    check_hdf5(H5Dset_extent(dataset, new_dims), file, "extend " + object);
    hdf5_id file_space(H5Dget_space(dataset), H5Sclose);
    hsize_t start[2] = {start_row, 0};
    hsize_t count[2] = {rows, columns};
    check_hdf5(
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), file,
        "select the end of " + object);
    hdf5_id mem_space(H5Screate_simple(rank, count, nullptr), H5Sclose);
    check_hdf5(H5Dwrite(dataset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, data),
               file, "append to " + object);
}

hdf5_id write_fixed_dataset(hid_t parent, const std::string& name, hid_t file_type, hid_t mem_type,
                            const void* data, std::size_t count, const std::string& file) {
    hdf5_quiet quiet;
    hsize_t n = count;
    hdf5_id space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    hdf5_id dataset(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT),
                    H5Dclose);
    if (!dataset.valid()) throw io_error(file, "HDF5 failed to create dataset '" + name + "'");
    if (count > 0)
        check_hdf5(H5Dwrite(dataset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), file,
                   "write dataset '" + name + "'");
    return dataset;
}

void overwrite_dataset(hid_t dataset, hid_t mem_type, const void* data, const std::string& file,
                       const std::string& object) {
    hdf5_quiet quiet;
    check_hdf5(H5Dwrite(dataset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), file,
               "write " + object);
}

std::size_t checked_element_count(hid_t dataset, std::size_t element_bytes, const std::string& file,
                                  const std::string& object) {
    const auto shape = dataset_shape(dataset);
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    text += ")";
    constexpr std::uint64_t max_ratio = 1032;            // deflate's largest compression ratio
    constexpr std::uint64_t fill_allowance = 1u << 20;  // bytes read as fill values
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() / (max_ratio + 1);
    std::uint64_t count = 1;
    for (hsize_t d : shape) {
        if (d != 0 && count > limit / d)
            throw file_format_error(file, object, "the shape " + text + " has too many elements");
        count *= d;
    }
    const std::uint64_t element = std::max<std::size_t>(element_bytes, 1);
    if (count > limit / element)
        throw file_format_error(file, object, "the shape " + text + " has too many elements");
    hdf5_quiet quiet;
    const std::uint64_t stored = H5Dget_storage_size(dataset);
    const std::uint64_t bytes = count * element;
    if (bytes > fill_allowance && stored < limit && bytes > stored * max_ratio + fill_allowance)
        throw file_format_error(file, object,
                                "the shape " + text + " declares " + std::to_string(bytes) +
                                    " bytes, but the file stores " + std::to_string(stored) +
                                    " bytes for it (damaged or hostile file)");
    return static_cast<std::size_t>(count);
}

std::vector<hsize_t> dataset_shape(hid_t dataset) {
    hdf5_quiet quiet;
    hdf5_id space(H5Dget_space(dataset), H5Sclose);
    int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank <= 0) return {};
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return dims;
}

H5T_class_t dataset_class(hid_t dataset) {
    hdf5_quiet quiet;
    hdf5_id type(H5Dget_type(dataset), H5Tclose);
    return type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
}

void read_whole_dataset(hid_t dataset, hid_t mem_type, void* out, const std::string& file,
                        const std::string& object) {
    hdf5_quiet quiet;
    if (H5Dread(dataset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
        throw file_format_error(file, object, "cannot read the dataset's values");
}

}  // namespace volley::snn::detail
