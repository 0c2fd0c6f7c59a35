// results.h5 of the pipeline (see results_file.hpp).

#include <volley/pipeline/results_file.hpp>

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/sonata_spikes.hpp>

#include <system_error>

namespace volley::pipeline {

namespace {

using snn::detail::hdf5_id;

void write_scalar(hid_t parent, const std::string& name, hid_t file_type, hid_t mem_type, const void* value,
                  const std::string& file) {
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    hdf5_id d(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              H5Dclose);
    if (!d.valid()) throw io_error(file, "HDF5 failed to create dataset '" + name + "'");
    snn::detail::check_hdf5(H5Dwrite(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, value), file,
                            "write dataset '" + name + "'");
}

void write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& values,
                   const std::string& file) {
    hdf5_id type(H5Tcopy(H5T_C_S1), H5Tclose);
    snn::detail::check_hdf5(H5Tset_size(type.get(), H5T_VARIABLE), file, "create a string type");
    snn::detail::check_hdf5(H5Tset_cset(type.get(), H5T_CSET_UTF8), file, "create a string type");
    std::vector<const char*> pointers;
    for (const auto& v : values) pointers.push_back(v.c_str());
    snn::detail::write_fixed_dataset(parent, name, type.get(), type.get(), pointers.data(), pointers.size(), file);
}

template <class T>
void write_array(hid_t parent, const std::string& name, hid_t file_type, hid_t mem_type, const std::vector<T>& v,
                 const std::string& file) {
    snn::detail::write_fixed_dataset(parent, name, file_type, mem_type, v.data(), v.size(), file);
}

void write_i64_attribute(hid_t object, const std::string& name, std::int64_t value, const std::string& file) {
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    hdf5_id a(H5Acreate2(object, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!a.valid()) throw io_error(file, "HDF5 failed to create attribute '" + name + "'");
    snn::detail::check_hdf5(H5Awrite(a.get(), H5T_NATIVE_INT64, &value), file, "write attribute '" + name + "'");
}

void write_f64_attribute(hid_t object, const std::string& name, double value, const std::string& file) {
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    hdf5_id a(H5Acreate2(object, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!a.valid()) throw io_error(file, "HDF5 failed to create attribute '" + name + "'");
    snn::detail::check_hdf5(H5Awrite(a.get(), H5T_NATIVE_DOUBLE, &value), file, "write attribute '" + name + "'");
}

/// The whole file at `path` (written as FILE.tmp by write_results_file).
void write_results(const std::filesystem::path& path, const results_record& r) {
    const std::string file = path.string();
    {
        // The spikes first, with the library's SONATA writer (it creates the file).
        snn::sonata_spike_writer w(path);
        for (const auto& layer : r.spikes) {
            const auto p = w.add_population(layer.layer);
            w.append(p, layer.node_ids, layer.times_ms);
        }
        w.close();
    }
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::open_hdf5_file(path, /*writable=*/true);
    // Room for everything below (a few KiB of groups, attributes and short arrays) before HDF5
    // writes any of it: a full disk then fails here, naming the file, not inside HDF5's metadata.
    snn::detail::reserve_file_space(h5.get(), std::uint64_t{1} << 20, file);
    const hid_t root = h5.get();
    snn::detail::write_string_attribute(root, "model_file", r.model_file, file);
    snn::detail::write_string_attribute(root, "model_sha256", r.model_sha256, file);
    snn::detail::write_string_attribute(root, "model_source", r.model_source, file);
    snn::detail::write_string_attribute(root, "training", r.training, file);
    snn::detail::write_string_attribute(root, "data", r.data, file);
    write_i64_attribute(root, "raster_image", static_cast<std::int64_t>(r.raster_image), file);
    write_i64_attribute(root, "raster_label", r.raster_label, file);
    write_i64_attribute(root, "raster_steps", r.raster_steps, file);
    write_f64_attribute(root, "dt_ms", r.dt_ms, file);

    auto g = snn::detail::create_group(root, "results", file);
    const hid_t res = g.get();
    write_array(res, "timesteps", H5T_STD_I64LE, H5T_NATIVE_INT64, r.timesteps, file);
    write_array(res, "snn_accuracy", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.snn_accuracy, file);
    write_array(res, "agreement", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.agreement, file);
    write_array(res, "spikes_per_image", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.spikes_per_image, file);
    write_array(res, "synops_per_image", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.synops_per_image, file);
    write_scalar(res, "cnn_accuracy", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &r.cnn_accuracy, file);
    write_scalar(res, "images", H5T_STD_U64LE, H5T_NATIVE_UINT64, &r.images, file);
    write_strings(res, "layer_names", r.layer_names, file);
    write_array(res, "layer_neurons", H5T_STD_U64LE, H5T_NATIVE_UINT64, r.layer_neurons, file);
    write_array(res, "layer_lambda", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.layer_lambda, file);
    write_array(res, "layer_rate", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, r.layer_rate, file);
    g.reset();
    if (!r.hardware.empty()) {
        auto hg = snn::detail::create_group(root, "hardware", file);
        write_i64_attribute(hg.get(), "bits", r.hardware_bits, file);
        write_i64_attribute(hg.get(), "timesteps", r.hardware_timesteps, file);
        write_i64_attribute(hg.get(), "images", static_cast<std::int64_t>(r.hardware_images), file);
        write_f64_attribute(hg.get(), "integer_accuracy", r.integer_accuracy, file);
        write_f64_attribute(hg.get(), "float_accuracy", r.float_accuracy_at_hardware_T, file);
        for (const auto& h : r.hardware) {
            auto pg = snn::detail::create_group(hg.get(), h.processor, file);
            snn::detail::write_string_attribute(pg.get(), "head_file", h.head_file, file);
            write_f64_attribute(pg.get(), "agreement", h.agreement, file);
            write_f64_attribute(pg.get(), "same_counts", h.same_counts, file);
            write_f64_attribute(pg.get(), "same_charges", h.same_charges, file);
            write_f64_attribute(pg.get(), "charge_beyond_range", h.charge_beyond_range, file);
            write_i64_attribute(pg.get(), "neurons", h.neurons, file);
            write_i64_attribute(pg.get(), "synapses", h.synapses, file);
            write_f64_attribute(pg.get(), "cycles_per_image", h.cycles_per_image, file);
            write_f64_attribute(pg.get(), "time_s_per_image", h.time_s_per_image, file);
            write_f64_attribute(pg.get(), "energy_j_per_image", h.energy_j_per_image, file);
            for (const auto& [kind, v] : h.events_per_image)
                write_f64_attribute(pg.get(), "events_per_image_" + kind, v, file);
        }
    }
    snn::detail::check_hdf5(H5Fflush(h5.get(), H5F_SCOPE_GLOBAL), file, "flush the file");
    snn::detail::release_reserved_space(h5.get(), file);
    if (!h5.reset()) throw io_error(file, "HDF5 failed to close the file");
}

}  // namespace

void write_results_file(const std::filesystem::path& path, const results_record& r) {
    auto tmp = path;
    tmp += ".tmp";
    try {
        write_results(tmp, r);
    } catch (const volley::error& e) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw io_error(path.string(), std::string("cannot write the results (") + e.what() +
                                          "); nothing was written under this name, and a file there before is kept");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw io_error(path.string(), "cannot replace it with the new results: " + ec.message());
}

}  // namespace volley::pipeline
