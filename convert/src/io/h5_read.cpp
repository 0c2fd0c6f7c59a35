// Reading helpers for the CNN readers: numeric datasets and Keras's string attributes.

#include "io/h5_read.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>

#include <cmath>
#include <cstdio>

namespace volley::convert::detail {

namespace {

using snn::detail::hdf5_quiet;

/// Reads all strings of an attribute of string type (scalar or 1-D).
std::vector<std::string> read_strings(hid_t attr, hid_t type, const std::string& file,
                                      const std::string& name) {
    hdf5_id space(H5Aget_space(attr), H5Sclose);
    const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    std::vector<std::string> out;
    if (count == 0) return out;
    if (H5Tis_variable_str(type) > 0) {
        hdf5_id mem(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(mem.get(), H5T_VARIABLE);
        H5Tset_cset(mem.get(), H5Tget_cset(type));
        std::vector<char*> ptrs(count, nullptr);
        if (H5Aread(attr, mem.get(), ptrs.data()) < 0)
            throw file_format_error(file, name, "cannot read the variable-length strings");
        for (char* p : ptrs) out.emplace_back(p ? p : "");
        H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, ptrs.data());
        return out;
    }
    const std::size_t size = H5Tget_size(type);
    std::vector<char> buffer(size * count + 1, '\0');
    if (H5Aread(attr, type, buffer.data()) < 0)
        throw file_format_error(file, name, "cannot read the fixed-length strings");
    for (std::size_t i = 0; i < count; ++i) {
        const char* begin = buffer.data() + i * size;
        std::size_t len = 0;
        while (len < size && begin[len] != '\0') ++len;
        out.emplace_back(begin, len);
    }
    return out;
}

std::optional<std::vector<std::string>> read_one(hid_t object, const std::string& name,
                                                 const std::string& file) {
    hdf5_quiet quiet;
    if (H5Aexists(object, name.c_str()) <= 0) return std::nullopt;
    hdf5_id attr(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose);
    hdf5_id type(H5Aget_type(attr.get()), H5Tclose);
    if (!type.valid()) throw file_format_error(file, name, "unreadable attribute type");
    if (H5Tget_class(type.get()) != H5T_STRING) {
        hdf5_id space(H5Aget_space(attr.get()), H5Sclose);
        if (H5Sget_simple_extent_npoints(space.get()) == 0) return std::vector<std::string>{};
        throw file_format_error(file, name, "expected a string attribute");
    }
    return read_strings(attr.get(), type.get(), file, name);
}

}  // namespace

std::string shape_text(const std::vector<std::size_t>& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    return s + ")";
}

float_array read_float_array(hid_t parent, const std::string& name, const std::string& file,
                             const std::string& path) {
    auto ds = snn::detail::open_dataset_if_present(parent, name);
    if (!ds.valid()) throw file_format_error(file, path, "missing weight dataset '" + name + "'");
    const auto cls = snn::detail::dataset_class(ds.get());
    if (cls != H5T_FLOAT && cls != H5T_INTEGER)
        throw file_format_error(file, path, "dataset '" + name + "' is not numeric");
    float_array out;
    for (auto d : snn::detail::dataset_shape(ds.get())) out.shape.push_back(static_cast<std::size_t>(d));
    out.values = snn::detail::read_dataset_values<float>(ds.get(), H5T_NATIVE_FLOAT, file, path);
    return out;
}

std::vector<std::int64_t> read_int_array(hid_t parent, const std::string& name,
                                         const std::string& file, const std::string& path) {
    auto ds = snn::detail::open_dataset_if_present(parent, name);
    if (!ds.valid()) throw file_format_error(file, path, "missing dataset '" + name + "'");
    return snn::detail::read_dataset_values<std::int64_t>(ds.get(), H5T_NATIVE_INT64, file, path);
}

std::optional<std::vector<std::string>> read_string_list_attribute(hid_t object,
                                                                   const std::string& name,
                                                                   const std::string& file) {
    if (auto whole = read_one(object, name, file)) return whole;
    // Keras's save_attributes_to_hdf5_group splits long lists into name0, name1, ...
    std::optional<std::vector<std::string>> joined;
    for (int chunk = 0;; ++chunk) {
        auto part = read_one(object, name + std::to_string(chunk), file);
        if (!part) break;
        if (!joined) joined.emplace();
        joined->insert(joined->end(), part->begin(), part->end());
    }
    return joined;
}

std::optional<std::string> read_text_attribute(hid_t object, const std::string& name,
                                               const std::string& file) {
    auto list = read_one(object, name, file);
    if (!list) return std::nullopt;
    if (list->size() != 1)
        throw file_format_error(file, name,
                                "expected one string, found " + std::to_string(list->size()));
    return list->front();
}

std::optional<std::vector<std::int64_t>> read_int_list_attribute(hid_t object,
                                                                 const std::string& name,
                                                                 const std::string& file,
                                                                 const std::string& path) {
    hdf5_quiet quiet;
    if (H5Aexists(object, name.c_str()) <= 0) return std::nullopt;
    hdf5_id attr(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose);
    hdf5_id type(H5Aget_type(attr.get()), H5Tclose);
    const auto cls = H5Tget_class(type.get());
    if (cls != H5T_INTEGER && cls != H5T_FLOAT)
        throw file_format_error(file, path + " attribute '" + name + "'", "expected a number");
    hdf5_id space(H5Aget_space(attr.get()), H5Sclose);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
    std::vector<double> values(n);
    if (n && H5Aread(attr.get(), H5T_NATIVE_DOUBLE, values.data()) < 0)
        throw file_format_error(file, path + " attribute '" + name + "'", "unreadable");
    std::vector<std::int64_t> out;
    for (double v : values) {
        // In int64's range first: converting a double outside it is undefined (found by
        // fuzz_volley_cnn_h5: 9.22e18 in a damaged layer attribute).
        if (!(v >= -0x1p63 && v < 0x1p63) || v != std::trunc(v)) {
            char shown[32];
            std::snprintf(shown, sizeof shown, "%.17g", v);
            throw file_format_error(file, path + " attribute '" + name + "'",
                                    std::string("expected an integer (64-bit), found ") + shown);
        }
        out.push_back(static_cast<std::int64_t>(v));
    }
    return out;
}

std::optional<double> read_double_attribute(hid_t object, const std::string& name,
                                            const std::string& file, const std::string& path) {
    hdf5_quiet quiet;
    if (H5Aexists(object, name.c_str()) <= 0) return std::nullopt;
    hdf5_id attr(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose);
    hdf5_id space(H5Aget_space(attr.get()), H5Sclose);
    double v = 0;
    if (H5Sget_simple_extent_npoints(space.get()) != 1 ||
        H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v) < 0)
        throw file_format_error(file, path + " attribute '" + name + "'", "expected one number");
    return v;
}

}  // namespace volley::convert::detail
