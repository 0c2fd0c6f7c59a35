#include "checkpoint/checkpoint_file.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>

#include <algorithm>
#include <system_error>

namespace volley::snn::detail {

namespace {

constexpr const char* format_name = "volley-checkpoint";
constexpr const char* format_version = "1";

/// Record names hold '/' between scopes; a dataset name cannot, so it becomes ':'.
std::string dataset_name(std::string record) {
    std::replace(record.begin(), record.end(), '/', ':');
    return record;
}

std::string record_name(std::string dataset) {
    std::replace(dataset.begin(), dataset.end(), ':', '/');
    return dataset;
}

}  // namespace

void write_checkpoint(const std::filesystem::path& file, const checkpoint_header& header,
                      const state_archive::records& records) {
    auto tmp = file;
    tmp += ".tmp";
    const std::string name = tmp.string();
    {
        hdf5_quiet quiet;
        auto h5 = create_hdf5_file(tmp);
        write_string_attribute(h5.get(), "format", format_name, name);
        write_string_attribute(h5.get(), "version", format_version, name);
        write_string_attribute(h5.get(), "network_sha256", header.network_sha256, name);
        write_string_attribute(h5.get(), "backend", header.backend, name);
        write_string_attribute(h5.get(), "threads", std::to_string(header.threads), name);
        write_string_attribute(h5.get(), "step", std::to_string(header.step), name);
        auto state = create_group(h5.get(), "state", name);
        for (const auto& [key, bytes] : records)
            write_fixed_dataset(state.get(), dataset_name(key), H5T_STD_U8LE, H5T_NATIVE_UINT8, bytes.data(),
                                bytes.size(), name);
        state.reset();
        if (!h5.reset()) throw io_error(name, "HDF5 failed to close the checkpoint");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw io_error(file.string(), "cannot replace the checkpoint: " + ec.message());
    }
}

state_archive::records read_checkpoint(const std::filesystem::path& file, checkpoint_header& header) {
    const std::string name = file.string();
    hdf5_quiet quiet;
    auto h5 = open_hdf5_file(file, false);
    if (read_string_attribute(h5.get(), "format").value_or("") != format_name)
        throw file_format_error(name, "/", "not a Volley checkpoint (no format attribute \"volley-checkpoint\")");
    const auto version = read_string_attribute(h5.get(), "version").value_or("?");
    if (version != format_version)
        throw file_format_error(name, "/", "checkpoint version " + version + " (this build reads " +
                                               format_version + ")");
    auto text = [&](const char* key) {
        auto v = read_string_attribute(h5.get(), key);
        if (!v) throw file_format_error(name, std::string("/@") + key, "missing attribute");
        return *v;
    };
    auto integer = [&](const char* key) {
        const auto v = text(key);
        try {
            std::size_t used = 0;
            const auto x = std::stoll(v, &used);
            if (used == v.size()) return static_cast<std::int64_t>(x);
        } catch (const std::exception&) {
        }
        throw file_format_error(name, std::string("/@") + key, "not an integer: '" + v + "'");
    };
    header.network_sha256 = text("network_sha256");
    header.backend = text("backend");
    header.threads = integer("threads");
    header.step = integer("step");
    auto state = open_group_if_present(h5.get(), "state");
    if (!state.valid()) throw file_format_error(name, "/state", "missing group");
    state_archive::records out;
    for (const auto& ds_name : child_names(state.get(), name, "/state")) {
        auto ds = open_dataset_if_present(state.get(), ds_name);
        const std::string object = "/state/" + ds_name;
        if (!ds.valid()) throw file_format_error(name, object, "not a dataset");
        const auto shape = dataset_shape(ds.get());
        if (shape.size() != 1) throw file_format_error(name, object, "not a 1-D byte dataset");
        auto& bytes = out[record_name(ds_name)];
        bytes.resize(static_cast<std::size_t>(shape[0]));
        if (!bytes.empty()) read_whole_dataset(ds.get(), H5T_NATIVE_UINT8, bytes.data(), name, object);
    }
    return out;
}

}  // namespace volley::snn::detail
