// HDF5 datasets and attributes for the model writers.

#include "io/h5_write.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cstring>

namespace volley::convert::detail {

namespace {

void write_dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                   hid_t file_type, hid_t mem_type, const void* data, const std::string& file) {
    hdf5_id space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
    if (!space.valid()) throw io_error(file, "cannot create the dataspace of '" + name + "'");
    hdf5_id set(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT),
                H5Dclose);
    if (!set.valid()) throw io_error(file, "cannot create dataset '" + name + "'");
    snn::detail::check_hdf5(H5Dwrite(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
                            file, "writing dataset '" + name + "'");
}

void write_attribute(hid_t object, const std::string& name, hid_t type, hid_t space,
                     const void* data, const std::string& file) {
    if (H5Aexists(object, name.c_str()) > 0) H5Adelete(object, name.c_str());
    hdf5_id attr(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attr.valid()) throw io_error(file, "cannot create attribute '" + name + "'");
    if (data == nullptr) return;  // an empty array: nothing to write
    snn::detail::check_hdf5(H5Awrite(attr.get(), type, data), file,
                            "writing attribute '" + name + "'");
}

}  // namespace

void write_float_dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                         const std::vector<float>& values, const std::string& file) {
    write_dataset(parent, name, dims, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, values.data(), file);
}

void write_double_dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                          const std::vector<double>& values, const std::string& file) {
    write_dataset(parent, name, dims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(), file);
}

void write_int_dataset(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                       const std::vector<std::int32_t>& values, const std::string& file) {
    write_dataset(parent, name, dims, H5T_STD_I32LE, H5T_NATIVE_INT32, values.data(), file);
}

void write_string_array_attribute(hid_t object, const std::string& name,
                                  const std::vector<std::string>& values, const std::string& file) {
    const hsize_t count = values.size();
    hdf5_id space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    if (values.empty()) {
        write_attribute(object, name, H5T_IEEE_F64LE, space.get(), nullptr, file);
        return;
    }
    std::size_t width = 1;
    for (const auto& v : values) width = std::max(width, v.size());
    hdf5_id type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), width);
    H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
    std::vector<char> buffer(width * values.size(), '\0');
    for (std::size_t i = 0; i < values.size(); ++i)
        std::memcpy(buffer.data() + i * width, values[i].data(), values[i].size());
    write_attribute(object, name, type.get(), space.get(), buffer.data(), file);
}

void write_int_attribute(hid_t object, const std::string& name, std::int64_t value,
                         const std::string& file) {
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    if (H5Aexists(object, name.c_str()) > 0) H5Adelete(object, name.c_str());
    hdf5_id attr(H5Acreate2(object, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT,
                            H5P_DEFAULT),
                 H5Aclose);
    if (!attr.valid()) throw io_error(file, "cannot create attribute '" + name + "'");
    snn::detail::check_hdf5(H5Awrite(attr.get(), H5T_NATIVE_INT64, &value), file,
                            "writing attribute '" + name + "'");
}

void write_double_attribute(hid_t object, const std::string& name, double value,
                            const std::string& file) {
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    write_attribute(object, name, H5T_NATIVE_DOUBLE, space.get(), &value, file);
}

void write_int_array_attribute(hid_t object, const std::string& name,
                               const std::vector<std::int32_t>& values, const std::string& file) {
    const hsize_t count = values.size();
    hdf5_id space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    write_attribute(object, name, H5T_NATIVE_INT32, space.get(), values.data(), file);
}

}  // namespace volley::convert::detail
