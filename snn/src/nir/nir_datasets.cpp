#include "nir/nir_datasets.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>

#include <cstdint>

namespace volley::snn::detail {

namespace {

std::vector<hsize_t> to_hsize(const std::vector<std::size_t>& shape) {
    return {shape.begin(), shape.end()};
}

/// A variable-length UTF-8 string type.
hdf5_id vlen_string_type(const std::string& file) {
    hdf5_id type(H5Tcopy(H5T_C_S1), H5Tclose);
    check_hdf5(type.valid() ? 0 : -1, file, "create a string type");
    check_hdf5(H5Tset_size(type.get(), H5T_VARIABLE), file, "create a string type");
    check_hdf5(H5Tset_cset(type.get(), H5T_CSET_UTF8), file, "create a string type");
    return type;
}

/// Reads every element of a string dataset, variable or fixed length.
std::vector<std::string> read_strings(hid_t dataset, std::size_t count, const nir_location& where) {
    hdf5_quiet quiet;
    hdf5_id file_type(H5Dget_type(dataset), H5Tclose);
    std::vector<std::string> out;
    if (H5Tis_variable_str(file_type.get()) > 0) {
        hdf5_id mem = vlen_string_type(where.file);
        H5Tset_cset(mem.get(), H5Tget_cset(file_type.get()));
        std::vector<char*> raw(count, nullptr);
        read_whole_dataset(dataset, mem.get(), raw.data(), where.file, where.path);
        for (char* s : raw) out.emplace_back(s ? s : "");
        hdf5_id space(H5Dget_space(dataset), H5Sclose);
        H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, raw.data());
        return out;
    }
    const std::size_t size = H5Tget_size(file_type.get());
    std::vector<char> raw(size * count + 1, '\0');
    read_whole_dataset(dataset, file_type.get(), raw.data(), where.file, where.path);
    for (std::size_t i = 0; i < count; ++i) {
        std::string s(raw.data() + i * size, size);
        out.push_back(s.substr(0, s.find('\0')));
    }
    return out;
}

}  // namespace

nir_array read_nir_array(hid_t dataset, const nir_location& where) {
    hdf5_quiet quiet;
    nir_array a;
    for (hsize_t d : dataset_shape(dataset)) a.shape.push_back(static_cast<std::size_t>(d));
    const std::size_t count = checked_element_count(dataset, sizeof(double), where.file, where.path);
    hdf5_id type(H5Dget_type(dataset), H5Tclose);
    switch (H5Tget_class(type.get())) {
        case H5T_STRING:
            if (!a.shape.empty())
                throw file_format_error(where.file, where.path,
                                        "a string array where a number or one string was expected");
            return nir_array::string(read_nir_text(dataset, where));
        case H5T_FLOAT:
            a.dtype = H5Tget_size(type.get()) <= 4 ? nir_dtype::float32 : nir_dtype::float64;
            a.values.resize(count);
            if (count > 0)
                read_whole_dataset(dataset, H5T_NATIVE_DOUBLE, a.values.data(), where.file,
                                   where.path);
            return a;
        case H5T_INTEGER: {
            a.dtype = nir_dtype::int64;
            std::vector<std::int64_t> raw(count);
            if (count > 0)
                read_whole_dataset(dataset, H5T_NATIVE_INT64, raw.data(), where.file, where.path);
            a.values.assign(raw.begin(), raw.end());
            return a;
        }
        default:
            throw file_format_error(where.file, where.path,
                                    "unsupported element type (expected numbers or a string)");
    }
}

std::string read_nir_text(hid_t dataset, const nir_location& where) {
    hdf5_quiet quiet;
    if (dataset_class(dataset) != H5T_STRING || !dataset_shape(dataset).empty())
        throw file_format_error(where.file, where.path, "expected a scalar string");
    return read_strings(dataset, 1, where).front();
}

std::vector<std::pair<std::string, std::string>> read_nir_edges(hid_t dataset,
                                                                const nir_location& where) {
    auto shape = dataset_shape(dataset);
    std::size_t count = 1;
    for (hsize_t d : shape) count *= static_cast<std::size_t>(d);
    if (count == 0 && !shape.empty()) return {};
    if (dataset_class(dataset) != H5T_STRING || shape.size() != 2 || shape[1] != 2)
        throw file_format_error(where.file, where.path,
                                "edges must be an (E, 2) array of strings, or empty");
    auto names = read_strings(dataset, count, where);
    std::vector<std::pair<std::string, std::string>> edges;
    for (std::size_t i = 0; i + 1 < names.size(); i += 2)
        edges.emplace_back(names[i], names[i + 1]);
    return edges;
}

void write_nir_array(hid_t parent, const std::string& name, const nir_array& value,
                     const std::string& file) {
    if (value.is_text()) return write_nir_text(parent, name, value.text, file);
    hdf5_quiet quiet;
    const auto dims = to_hsize(value.shape);
    hdf5_id space(value.shape.empty()
                      ? H5Screate(H5S_SCALAR)
                      : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                  H5Sclose);
    hdf5_id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    check_hdf5(space.valid() && dcpl.valid() ? 0 : -1, file, "prepare dataset '" + name + "'");
    if (!value.shape.empty() && !value.values.empty()) {
        check_hdf5(H5Pset_chunk(dcpl.get(), static_cast<int>(dims.size()), dims.data()), file,
                   "chunk dataset '" + name + "'");
        check_hdf5(H5Pset_deflate(dcpl.get(), 4), file, "compress dataset '" + name + "'");
    }
    hid_t file_type = value.dtype == nir_dtype::float32 ? H5T_IEEE_F32LE
                      : value.dtype == nir_dtype::int64 ? H5T_STD_I64LE
                                                        : H5T_IEEE_F64LE;
    hdf5_id dataset(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                               dcpl.get(), H5P_DEFAULT),
                    H5Dclose);
    if (!dataset.valid()) throw io_error(file, "HDF5 failed to create dataset '" + name + "'");
    if (value.values.empty()) return;
    if (value.dtype == nir_dtype::int64) {
        std::vector<std::int64_t> raw(value.values.begin(), value.values.end());
        overwrite_dataset(dataset.get(), H5T_NATIVE_INT64, raw.data(), file, name);
    } else {
        overwrite_dataset(dataset.get(), H5T_NATIVE_DOUBLE, value.values.data(), file, name);
    }
}

void write_nir_text(hid_t parent, const std::string& name, const std::string& text,
                    const std::string& file) {
    hdf5_quiet quiet;
    hdf5_id type = vlen_string_type(file);
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    hdf5_id dataset(H5Dcreate2(parent, name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT),
                    H5Dclose);
    if (!dataset.valid()) throw io_error(file, "HDF5 failed to create dataset '" + name + "'");
    const char* raw = text.c_str();
    overwrite_dataset(dataset.get(), type.get(), &raw, file, name);
}

void write_nir_edges(hid_t parent, const std::vector<std::pair<std::string, std::string>>& edges,
                     const std::string& file) {
    if (edges.empty()) {
        nir_array none;
        none.shape = {0};
        return write_nir_array(parent, "edges", none, file);
    }
    hdf5_quiet quiet;
    hdf5_id type = vlen_string_type(file);
    hsize_t dims[2] = {edges.size(), 2};
    hdf5_id space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    hdf5_id dataset(
        H5Dcreate2(parent, "edges", type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose);
    if (!dataset.valid()) throw io_error(file, "HDF5 failed to create dataset 'edges'");
    std::vector<const char*> raw;
    for (const auto& [source, target] : edges) {
        raw.push_back(source.c_str());
        raw.push_back(target.c_str());
    }
    overwrite_dataset(dataset.get(), type.get(), raw.data(), file, "edges");
}

}  // namespace volley::snn::detail
