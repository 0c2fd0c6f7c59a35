// Weights in HDF5 (see weights_file.hpp).

#include <volley/snn/weights_file.hpp>

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>

#include <algorithm>

namespace volley::snn {

namespace {

using detail::hdf5_id;

std::string group_name(std::uint32_t projection) { return "projection_" + std::to_string(projection); }

hdf5_id require_dataset(hid_t parent, const std::string& name, H5T_class_t expected, std::size_t rank,
                        const std::string& file, const std::string& object) {
    hdf5_id dataset = detail::open_dataset_if_present(parent, name);
    if (!dataset.valid()) throw file_format_error(file, object, "missing dataset");
    if (detail::dataset_class(dataset.get()) != expected)
        throw file_format_error(file, object,
                                expected == H5T_INTEGER ? "expected an integer dataset" : "expected a floating-point dataset");
    if (detail::dataset_shape(dataset.get()).size() != rank)
        throw file_format_error(file, object, "expected a " + std::to_string(rank) + "-D dataset");
    return dataset;
}

template <class T>
std::vector<T> read_1d(hid_t group, const std::string& name, H5T_class_t cls, hid_t mem, const std::string& file,
                       const std::string& path) {
    hdf5_id d = require_dataset(group, name, cls, 1, file, path + "/" + name);
    return detail::read_dataset_values<T>(d.get(), mem, file, path + "/" + name);
}

void write_record(hid_t parent, const projection_weight_record& r, const std::string& file) {
    const std::string name = group_name(r.projection), object = "/weights/" + name;
    const std::size_t n = r.weights.size();
    if (r.sources.size() != n || r.targets.size() != n)
        throw invalid_parameter(object, "sources/targets", std::to_string(r.sources.size()) + "/" + std::to_string(r.targets.size()),
                                "expected one source and one target per weight (" + std::to_string(n) + ")");
    if (r.history.size() != r.history_time_ms.size() * n)
        throw invalid_parameter(object, "history", std::to_string(r.history.size()) + " values",
                                "expected samples x synapses = " + std::to_string(r.history_time_ms.size() * n));
    if (detail::has_link(parent, name)) throw invalid_parameter(object, "group", name, "already exists in " + file);
    hdf5_id g = detail::create_group(parent, name, file);
    detail::write_string_attribute(g.get(), "source", r.source, file);
    detail::write_string_attribute(g.get(), "target", r.target, file);
    detail::write_string_attribute(g.get(), "rule", r.rule, file);
    const std::uint32_t index[1] = {r.projection};
    detail::write_u32_attribute(g.get(), "projection", index, file);
    const std::vector<std::uint64_t> src(r.sources.begin(), r.sources.end()), tgt(r.targets.begin(), r.targets.end());
    detail::write_fixed_dataset(g.get(), "source", H5T_STD_U64LE, H5T_NATIVE_UINT64, src.data(), n, file);
    detail::write_fixed_dataset(g.get(), "target", H5T_STD_U64LE, H5T_NATIVE_UINT64, tgt.data(), n, file);
    hdf5_id w = detail::write_fixed_dataset(g.get(), "weight", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.weights.data(), n, file);
    detail::write_string_attribute(w.get(), "units", "mV", file);
    detail::write_fixed_dataset(g.get(), "time_ms", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &r.time_ms, 1, file);
    if (r.history_time_ms.empty()) return;
    detail::write_fixed_dataset(g.get(), "history_time_ms", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.history_time_ms.data(),
                                r.history_time_ms.size(), file);
    hdf5_id h = detail::create_extendible_dataset(g.get(), "history", H5T_IEEE_F64LE, std::max<std::size_t>(n, 1),
                                                  std::max<std::size_t>(1, 131072 / std::max<std::size_t>(n, 1)), file);
    if (n > 0)
        detail::append_rows(h.get(), H5T_NATIVE_DOUBLE, r.history.data(), r.history_time_ms.size(), n, file,
                            object + "/history");
    detail::write_string_attribute(h.get(), "units", "mV", file);
}

}  // namespace

void write_weights(const std::filesystem::path& file, const std::vector<projection_weight_record>& records) {
    detail::hdf5_quiet quiet;
    const std::string name = file.string();
    hdf5_id h5 = std::filesystem::exists(file) ? detail::open_hdf5_file(file, true) : detail::create_hdf5_file(file);
    // Room on disk for everything this call writes, before HDF5 writes any of it, so that a full
    // disk leaves the file as it was (detail::reserve_file_space): the values, whole chunks of
    // history, and 32 KiB of groups and attributes per projection.
    std::uint64_t bytes = 64u << 10;
    for (const auto& r : records) {
        const std::uint64_t n = std::max<std::size_t>(r.weights.size(), 1);
        const std::uint64_t rows = std::max<std::uint64_t>(1, 131072 / n);
        bytes += (32u << 10) + n * 24 + r.history_time_ms.size() * 8 + (r.history_time_ms.size() + rows) * n * 8;
    }
    detail::reserve_file_space(h5.get(), bytes, name);
    hdf5_id root = detail::open_group_if_present(h5.get(), "weights");
    if (!root.valid()) {
        if (detail::has_link(h5.get(), "weights")) throw file_format_error(name, "/weights", "exists but is not a group");
        root = detail::create_group(h5.get(), "weights", name);
    }
    for (const auto& r : records) write_record(root.get(), r, name);
    root.reset();
    detail::check_hdf5(H5Fflush(h5.get(), H5F_SCOPE_GLOBAL), name, "flush");
    detail::release_reserved_space(h5.get(), name);
}

std::vector<projection_weight_record> read_weights(const std::filesystem::path& file) {
    detail::hdf5_quiet quiet;
    const std::string name = file.string();
    hdf5_id h5 = detail::open_hdf5_file(file, false);
    hdf5_id root = detail::open_group_if_present(h5.get(), "weights");
    if (!root.valid()) throw file_format_error(name, "/weights", "missing group");
    std::vector<projection_weight_record> out;
    for (const auto& child : detail::child_names(root.get(), name, "/weights")) {
        const std::string path = "/weights/" + child;
        hdf5_id g = detail::open_group_if_present(root.get(), child);
        if (!g.valid()) throw file_format_error(name, path, "expected a group");
        projection_weight_record r;
        r.source = detail::read_string_attribute(g.get(), "source").value_or("");
        r.target = detail::read_string_attribute(g.get(), "target").value_or("");
        r.rule = detail::read_string_attribute(g.get(), "rule").value_or("");
        if (H5Aexists(g.get(), "projection") <= 0) throw file_format_error(name, path, "missing attribute 'projection'");
        hdf5_id attr(H5Aopen(g.get(), "projection", H5P_DEFAULT), H5Aclose);
        if (!attr.valid() || H5Aread(attr.get(), H5T_NATIVE_UINT32, &r.projection) < 0)
            throw file_format_error(name, path, "attribute 'projection' is not an unsigned integer");
        r.sources = read_1d<std::uint32_t>(g.get(), "source", H5T_INTEGER, H5T_NATIVE_UINT32, name, path);
        r.targets = read_1d<std::uint32_t>(g.get(), "target", H5T_INTEGER, H5T_NATIVE_UINT32, name, path);
        r.weights = read_1d<double>(g.get(), "weight", H5T_FLOAT, H5T_NATIVE_DOUBLE, name, path);
        const auto t = read_1d<double>(g.get(), "time_ms", H5T_FLOAT, H5T_NATIVE_DOUBLE, name, path);
        if (r.sources.size() != r.weights.size() || r.targets.size() != r.weights.size() || t.size() != 1)
            throw file_format_error(name, path, "source, target and weight differ in length, or time_ms is not one value");
        r.time_ms = t[0];
        if (detail::has_link(g.get(), "history")) {
            r.history_time_ms = read_1d<double>(g.get(), "history_time_ms", H5T_FLOAT, H5T_NATIVE_DOUBLE, name, path);
            hdf5_id h = require_dataset(g.get(), "history", H5T_FLOAT, 2, name, path + "/history");
            const auto shape = detail::dataset_shape(h.get());
            if (shape[0] != r.history_time_ms.size() || (shape[1] != r.weights.size() && !r.weights.empty()))
                throw file_format_error(name, path + "/history", "shape does not match history_time_ms x weight");
            r.history = detail::read_dataset_values<double>(h.get(), H5T_NATIVE_DOUBLE, name, path + "/history");
            if (r.weights.empty()) r.history.clear();
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace volley::snn
