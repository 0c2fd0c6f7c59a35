#include "checkpoint/checkpoint_file.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_dataset.hpp>
#include <volley/snn/hdf5_file.hpp>

#include <volley/snn/sha256.hpp>

#include <algorithm>
#include <optional>
#include <system_error>

namespace volley::snn::detail {

namespace {

constexpr const char* format_name = "volley-checkpoint";
constexpr const char* format_version = "2";
constexpr std::size_t max_attribute_bytes = 256;

// The header attributes are fixed-length strings, and the reader refuses any other kind before
// it reads one: a variable-length string is read through HDF5's global heap, where a damaged heap
// address crashes libhdf5 (H5HG_read) instead of failing.
void write_fixed_string_attribute(hid_t object, const std::string& name, const std::string& value,
                                  const std::string& file) {
    hdf5_id type(H5Tcopy(H5T_C_S1), H5Tclose);
    check_hdf5(type.valid() ? 0 : -1, file, "create a string type");
    check_hdf5(H5Tset_size(type.get(), std::max<std::size_t>(value.size(), 1)), file,
               "create a string type");
    check_hdf5(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), file, "create a string type");
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    hdf5_id attr(
        H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    if (!attr.valid()) throw io_error(file, "HDF5 failed to create attribute '" + name + "'");
    std::string padded = value;
    padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
    check_hdf5(H5Awrite(attr.get(), type.get(), padded.data()), file,
               "write attribute '" + name + "'");
}

/// A scalar fixed-length string attribute of at most max_attribute_bytes; nullopt when absent,
/// file_format_error when it is of another kind.
std::optional<std::string> read_fixed_string_attribute(hid_t object, const std::string& name,
                                                       const std::string& file) {
    if (H5Aexists(object, name.c_str()) <= 0) return std::nullopt;
    const std::string where = "/@" + name;
    hdf5_id attr(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose);
    hdf5_id type(attr.valid() ? H5Aget_type(attr.get()) : H5I_INVALID_HID, H5Tclose);
    hdf5_id space(attr.valid() ? H5Aget_space(attr.get()) : H5I_INVALID_HID, H5Sclose);
    if (!type.valid() || !space.valid())
        throw file_format_error(file, where, "cannot read the attribute");
    const std::size_t size = H5Tget_size(type.get());
    if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) != 0 ||
        size == 0 || size > max_attribute_bytes ||
        H5Sget_simple_extent_type(space.get()) != H5S_SCALAR)
        throw file_format_error(file, where,
                                "not a scalar fixed-length string of at most " +
                                    std::to_string(max_attribute_bytes) + " bytes");
    hdf5_id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    std::vector<char> buffer(size + 1, '\0');
    if (!mem.valid() || H5Tset_size(mem.get(), size) < 0 ||
        H5Tset_strpad(mem.get(), H5T_STR_NULLPAD) < 0 ||
        H5Aread(attr.get(), mem.get(), buffer.data()) < 0)
        throw file_format_error(file, where, "cannot read the attribute");
    return std::string(buffer.data());
}

/// SHA-256 over the header and every record (name, length, bytes), in the records' order: what
/// the `sha256` attribute holds, so that a damaged byte anywhere is refused before anything is
/// restored.
std::string checkpoint_digest(const checkpoint_header& header,
                              const state_archive::records& records) {
    sha256 h;
    h.update(std::string(format_name) + '\n' + format_version + '\n' + header.network_sha256 +
             '\n' + header.backend + '\n' + std::to_string(header.threads) + '\n' +
             std::to_string(header.step) + '\n');
    for (const auto& [key, bytes] : records) {
        h.update(key + '\n' + std::to_string(bytes.size()) + '\n');
        h.update(std::span<const std::byte>(bytes));
    }
    return h.finish_hex();
}

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
    try {
        hdf5_quiet quiet;
        auto h5 = create_hdf5_file(tmp);
        // Room for everything before HDF5 writes anything: a full disk or a file-size limit is
        // then this io_error, not a failure inside HDF5's close (which crashed at exit).
        std::uint64_t bytes = 32768;
        for (const auto& [key, data] : records) bytes += data.size() + 1024;
        try {
            reserve_file_space(h5.get(), bytes, name);
        } catch (const io_error& e) {
            std::string why = e.what();  // "<tmp>: cannot reserve N bytes ... (strerror); the file holds ..."
            why = why.substr(why.find("cannot reserve"));
            why = why.substr(0, why.find("; "));
            throw io_error(file.string(), "no room to write the checkpoint: " + why +
                                              "; nothing was written, and a checkpoint there before is kept");
        }
        write_fixed_string_attribute(h5.get(), "format", format_name, name);
        write_fixed_string_attribute(h5.get(), "version", format_version, name);
        write_fixed_string_attribute(h5.get(), "network_sha256", header.network_sha256, name);
        write_fixed_string_attribute(h5.get(), "backend", header.backend, name);
        write_fixed_string_attribute(h5.get(), "threads", std::to_string(header.threads), name);
        write_fixed_string_attribute(h5.get(), "step", std::to_string(header.step), name);
        write_fixed_string_attribute(h5.get(), "sha256", checkpoint_digest(header, records), name);
        auto state = create_group(h5.get(), "state", name);
        for (const auto& [key, bytes] : records)
            write_fixed_dataset(state.get(), dataset_name(key), H5T_STD_U8LE, H5T_NATIVE_UINT8,
                                bytes.data(), bytes.size(), name);
        state.reset();
        check_hdf5(H5Fflush(h5.get(), H5F_SCOPE_GLOBAL), name, "flush the checkpoint");
        release_reserved_space(h5.get(), name);
        if (!h5.reset()) throw io_error(name, "HDF5 failed to close the checkpoint");
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);  // the checkpoint it would have replaced stays
        throw;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw io_error(file.string(), "cannot replace the checkpoint: " + ec.message());
    }
}

state_archive::records read_checkpoint(const std::filesystem::path& file,
                                       checkpoint_header& header) {
    const std::string name = file.string();
    hdf5_quiet quiet;
    auto h5 = open_hdf5_file(file, false);
    std::optional<std::string> format;
    try {
        format = read_fixed_string_attribute(h5.get(), "format", name);
    } catch (const file_format_error&) {
        throw file_format_error(name, "/@format",
                                "not a Volley checkpoint of version 2 (a version 1 checkpoint, "
                                "which this build no longer "
                                "reads, or another file)");
    }
    if (format.value_or("") != format_name)
        throw file_format_error(
            name, "/", "not a Volley checkpoint (no format attribute \"volley-checkpoint\")");
    const auto version = read_fixed_string_attribute(h5.get(), "version", name).value_or("?");
    if (version != format_version)
        throw file_format_error(
            name, "/",
            "checkpoint version " + version + " (this build reads " + format_version + ")");
    auto text = [&](const char* key) {
        auto v = read_fixed_string_attribute(h5.get(), key, name);
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
    const auto digest = text("sha256");
    auto state = open_group_if_present(h5.get(), "state");
    if (!state.valid()) throw file_format_error(name, "/state", "missing group");
    state_archive::records out;
    std::error_code ec;
    const std::uint64_t file_size = std::filesystem::file_size(file, ec);
    std::uint64_t total = 0;
    for (const auto& ds_name : child_names(state.get(), name, "/state")) {
        auto ds = open_dataset_if_present(state.get(), ds_name);
        const std::string object = "/state/" + ds_name;
        if (!ds.valid()) throw file_format_error(name, object, "not a dataset");
        const auto shape = dataset_shape(ds.get());
        if (shape.size() != 1) throw file_format_error(name, object, "not a 1-D byte dataset");
        auto& bytes = out[record_name(ds_name)];
        // The records are stored uncompressed, so together they fit in the file: a damaged extent
        // is refused here rather than allocated.
        total += shape[0];
        if (total > file_size)
            throw file_format_error(name, object,
                                    std::to_string(shape[0]) +
                                        " bytes: more than the file holds (" +
                                        std::to_string(file_size) + ")");
        bytes.resize(static_cast<std::size_t>(shape[0]));
        if (!bytes.empty())
            read_whole_dataset(ds.get(), H5T_NATIVE_UINT8, bytes.data(), name, object);
    }
    if (checkpoint_digest(header, out) != digest)
        throw file_format_error(
            name, "/@sha256",
            "the checkpoint is damaged: its contents do not match their SHA-256 " + digest);
    return out;
}

}  // namespace volley::snn::detail
