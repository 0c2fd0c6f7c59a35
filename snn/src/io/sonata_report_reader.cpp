#include <volley/snn/sonata_report.hpp>

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>

namespace volley::snn {

namespace {

using detail::hdf5_id;

hdf5_id require_dataset(hid_t parent, const std::string& name, H5T_class_t expected,
                        std::size_t rank, const std::string& file, const std::string& object) {
    hdf5_id dataset = detail::open_dataset_if_present(parent, name);
    if (!dataset.valid()) throw file_format_error(file, object, "missing dataset");
    if (detail::dataset_class(dataset.get()) != expected)
        throw file_format_error(file, object,
                                expected == H5T_INTEGER ? "expected an integer dataset"
                                                        : "expected a floating-point dataset");
    if (detail::dataset_shape(dataset.get()).size() != rank)
        throw file_format_error(file, object, "expected a " + std::to_string(rank) + "-D dataset");
    return dataset;
}

population_report read_report(hid_t report_group, const std::string& name,
                              const std::string& file) {
    const std::string path = "/report/" + name;
    hdf5_id group = detail::open_group_if_present(report_group, name);
    if (!group.valid())
        throw file_format_error(file, path,
                                "expected a report group (SONATA layout "
                                "/report/<population>/{data,mapping})");
    hdf5_id mapping = detail::open_group_if_present(group.get(), "mapping");
    if (!mapping.valid()) throw file_format_error(file, path + "/mapping", "missing group");
    hdf5_id data = require_dataset(group.get(), "data", H5T_FLOAT, 2, file, path + "/data");
    hdf5_id ids = require_dataset(mapping.get(), "node_ids", H5T_INTEGER, 1, file,
                                  path + "/mapping/node_ids");
    hdf5_id time =
        require_dataset(mapping.get(), "time", H5T_FLOAT, 1, file, path + "/mapping/time");

    population_report out;
    out.population = detail::read_string_attribute(group.get(), "population").value_or(name);
    out.variable = detail::read_string_attribute(data.get(), "variable").value_or("");
    out.units = detail::read_string_attribute(data.get(), "units").value_or("");

    const auto time_shape = detail::dataset_shape(time.get());
    if (time_shape[0] != 3)
        throw file_format_error(
            file, path + "/mapping/time",
            "has " + std::to_string(time_shape[0]) + " entries; expected 3 (t_start, t_stop, dt)");
    double t[3];
    detail::read_whole_dataset(time.get(), H5T_NATIVE_DOUBLE, t, file, path + "/mapping/time");
    double scale_to_ms = 1.0;
    const auto time_units = detail::read_string_attribute(time.get(), "units");
    if (time_units && *time_units == "s") {
        scale_to_ms = 1000.0;
    } else if (time_units && *time_units != "ms") {
        throw file_format_error(file, path + "/mapping/time",
                                "units = '" + *time_units + "': expected 'ms' or 's'");
    }
    out.t_start_ms = t[0] * scale_to_ms;
    out.t_stop_ms = t[1] * scale_to_ms;
    out.dt_ms = t[2] * scale_to_ms;

    const auto shape = detail::dataset_shape(data.get());
    const auto n_nodes = detail::dataset_shape(ids.get())[0];
    if (shape[1] != n_nodes)
        throw file_format_error(file, path + "/data",
                                "has " + std::to_string(shape[1]) + " columns but mapping has " +
                                    std::to_string(n_nodes) + " node_ids");
    out.node_ids = detail::read_dataset_values<std::uint64_t>(ids.get(), H5T_NATIVE_UINT64, file,
                                                              path + "/mapping/node_ids");
    out.samples = shape[0];
    out.data = detail::read_dataset_values<double>(data.get(), H5T_NATIVE_DOUBLE, file, path + "/data");
    return out;
}

}  // namespace

std::vector<population_report> read_sonata_report(const std::filesystem::path& file) {
    const std::string name = file.string();
    hdf5_id h5file = detail::open_hdf5_file(file, false);
    hdf5_id report = detail::open_group_if_present(h5file.get(), "report");
    if (!report.valid())
        throw file_format_error(name, "/report", "missing group (not a SONATA report file)");
    std::vector<population_report> result;
    for (const auto& child : detail::child_names(report.get(), name, "/report"))
        result.push_back(read_report(report.get(), child, name));
    return result;
}

}  // namespace volley::snn
