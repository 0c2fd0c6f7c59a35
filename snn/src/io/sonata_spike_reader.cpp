#include <volley/snn/sonata_spikes.hpp>

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>

namespace volley::snn {

namespace {

using detail::hdf5_id;

// Opens a 1-D dataset of the given element class, or throws file_format_error naming it.
hdf5_id open_column(hid_t group, const std::string& name, H5T_class_t expected,
                    const std::string& file, const std::string& group_path) {
    const std::string object = group_path + "/" + name;
    hdf5_id dataset = detail::open_dataset_if_present(group, name);
    if (!dataset.valid()) throw file_format_error(file, object, "missing dataset");
    if (detail::dataset_class(dataset.get()) != expected)
        throw file_format_error(file, object,
                                expected == H5T_INTEGER ? "expected an integer dataset"
                                                        : "expected a floating-point dataset");
    if (detail::dataset_shape(dataset.get()).size() != 1)
        throw file_format_error(file, object, "expected a 1-D dataset");
    return dataset;
}

population_spikes read_population(hid_t spikes_group, const std::string& name,
                                  const std::string& file) {
    const std::string group_path = "/spikes/" + name;
    hdf5_id group = detail::open_group_if_present(spikes_group, name);
    if (!group.valid())
        throw file_format_error(file, group_path,
                                "expected a population group (SONATA layout "
                                "/spikes/<population>/{node_ids,timestamps})");
    hdf5_id ids = open_column(group.get(), "node_ids", H5T_INTEGER, file, group_path);
    hdf5_id times = open_column(group.get(), "timestamps", H5T_FLOAT, file, group_path);
    const auto n_ids = detail::dataset_shape(ids.get())[0];
    const auto n_times = detail::dataset_shape(times.get())[0];
    if (n_ids != n_times)
        throw file_format_error(file, group_path + "/timestamps",
                                "has " + std::to_string(n_times) + " entries but node_ids has " +
                                    std::to_string(n_ids));
    double scale_to_ms = 1.0;
    const auto units = detail::read_string_attribute(times.get(), "units");
    if (units && *units == "s") {
        scale_to_ms = 1000.0;
    } else if (units && *units != "ms") {
        throw file_format_error(file, group_path + "/timestamps",
                                "units = '" + *units + "': expected 'ms' or 's'");
    }
    population_spikes out;
    out.population = name;
    if (n_ids > 0) {
        out.node_ids = detail::read_dataset_values<std::uint64_t>(ids.get(), H5T_NATIVE_UINT64, file,
                                                                  group_path + "/node_ids");
        out.timestamps_ms = detail::read_dataset_values<double>(times.get(), H5T_NATIVE_DOUBLE, file,
                                                                group_path + "/timestamps");
    }
    if (scale_to_ms != 1.0)
        for (double& t : out.timestamps_ms) t *= scale_to_ms;
    return out;
}

}  // namespace

std::vector<population_spikes> read_sonata_spikes(const std::filesystem::path& file) {
    const std::string name = file.string();
    hdf5_id h5file = detail::open_hdf5_file(file, false);
    hdf5_id spikes = detail::open_group_if_present(h5file.get(), "spikes");
    if (!spikes.valid())
        throw file_format_error(name, "/spikes", "missing group (not a SONATA spike file)");
    std::vector<population_spikes> result;
    for (const auto& child : detail::child_names(spikes.get(), name, "/spikes"))
        result.push_back(read_population(spikes.get(), child, name));
    return result;
}

}  // namespace volley::snn
