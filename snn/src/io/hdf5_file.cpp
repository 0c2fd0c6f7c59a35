#include <volley/snn/hdf5_file.hpp>

#include <volley/error.hpp>
#include <volley/write_error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace volley::snn::detail {

hdf5_id& hdf5_id::operator=(hdf5_id&& other) noexcept {
    if (this != &other) {
        reset();
        id_ = other.id_;
        close_ = other.close_;
        other.id_ = H5I_INVALID_HID;
    }
    return *this;
}

bool hdf5_id::reset() noexcept {
    bool ok = true;
    if (id_ >= 0 && close_ != nullptr) {
        hdf5_quiet quiet;
        ok = close_(id_) >= 0;
    }
    id_ = H5I_INVALID_HID;
    return ok;
}

hdf5_quiet::hdf5_quiet() noexcept {
    H5Eget_auto2(H5E_DEFAULT, &saved_func_, &saved_data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

hdf5_quiet::~hdf5_quiet() {
    H5Eset_auto2(H5E_DEFAULT, saved_func_, saved_data_);
}

void check_hdf5(herr_t status, const std::string& file, const std::string& what) {
    if (status < 0) throw io_error(file, "HDF5 failed to " + what);
}

namespace {

/// The file descriptor under an HDF5 file opened with the default (sec2) driver; -1 otherwise.
int file_descriptor(hid_t file) {
    hdf5_quiet quiet;
    void* handle = nullptr;
    hdf5_id fapl(H5Fget_access_plist(file), H5Pclose);
    if (!fapl.valid() || H5Pget_driver(fapl.get()) != H5FD_SEC2) return -1;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == nullptr) return -1;
    return *static_cast<int*>(handle);
}

}  // namespace

void reserve_file_space(hid_t file, std::uint64_t bytes, const std::string& name) {
    const int fd = file_descriptor(file);
    haddr_t eoa = 0;
    {
        hdf5_quiet quiet;
        if (fd < 0 || H5Fget_eoa(file, &eoa) < 0) return;  // another driver: nothing to reserve on
    }
    const int err = ::posix_fallocate(fd, static_cast<off_t>(eoa), static_cast<off_t>(bytes));
    if (err == 0 || err == EINVAL || err == EOPNOTSUPP) return;
    throw io_error(name, "cannot reserve " + std::to_string(bytes) + " bytes for the next write (" +
                             write_error_text(err, name) + "); the file holds what was flushed before");
}

void release_reserved_space(hid_t file, const std::string& name) {
    const int fd = file_descriptor(file);
    haddr_t eoa = 0;
    {
        hdf5_quiet quiet;
        if (fd < 0 || H5Fget_eoa(file, &eoa) < 0) return;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) <= eoa) return;
    if (::ftruncate(fd, static_cast<off_t>(eoa)) != 0)
        throw io_error(name,
                       std::string("cannot give back reserved space: ") + std::strerror(errno));
}

void check_link_name(const std::string& object, const std::string& parameter,
                     const std::string& name) {
    if (name.empty()) throw invalid_parameter(object, parameter, "''", "must not be empty");
    if (name.find('/') != std::string::npos || name == "." || name == "..")
        throw invalid_parameter(object, parameter, "'" + name + "'",
                                "must not contain '/' or be '.' or '..'");
}

hdf5_id create_hdf5_file(const std::filesystem::path& file) {
    hdf5_quiet quiet;
    hdf5_id id(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!id.valid()) {
        std::error_code ec;
        auto parent = file.parent_path();
        std::string reason = "cannot create HDF5 file";
        if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
            reason += " (directory '" + parent.string() + "' does not exist)";
        throw io_error(file.string(), reason);
    }
    return id;
}

hdf5_id open_hdf5_file(const std::filesystem::path& file, bool writable) {
    hdf5_quiet quiet;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw io_error(file.string(), "no such file");
    if (std::filesystem::is_directory(file, ec))
        throw io_error(file.string(), "is a directory, not a file");
    const char* in_place = std::getenv("VOLLEY_HDF5_PREFLIGHT");
    if (!writable && !(in_place != nullptr && std::strcmp(in_place, "0") == 0))
        return open_hdf5_image(*hdf5_copy_in_child(file), file.string());
    if (writable) preflight_hdf5_file(file);  // before the first HDF5 call that reads the file
    htri_t is_hdf5 = H5Fis_hdf5(file.c_str());
    if (is_hdf5 < 0) throw io_error(file.string(), "cannot read file");
    if (is_hdf5 == 0) throw file_format_error(file.string(), "", "not an HDF5 file");
    hdf5_id id(H5Fopen(file.c_str(), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT),
               H5Fclose);
    if (!id.valid())
        throw io_error(file.string(), writable ? "cannot open HDF5 file for writing"
                                               : "cannot open HDF5 file for reading");
    return id;
}

hdf5_id create_group(hid_t parent, const std::string& name, const std::string& file) {
    hdf5_quiet quiet;
    hdf5_id gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose);
    check_hdf5(gcpl.valid() ? 0 : -1, file, "create a group property list");
    check_hdf5(
        H5Pset_link_creation_order(gcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), file,
        "track link creation order");
    hdf5_id group(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
    if (!group.valid()) throw io_error(file, "HDF5 failed to create group '" + name + "'");
    return group;
}

bool has_link(hid_t parent, const std::string& name) {
    hdf5_quiet quiet;
    return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0;
}

namespace {

hdf5_id open_object_of_type(hid_t parent, const std::string& name, H5O_type_t type) {
    if (!has_link(parent, name)) return {};
    hdf5_quiet quiet;
    H5O_info_t info;
    if (H5Oget_info_by_name2(parent, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0 ||
        info.type != type)
        return {};
    if (type == H5O_TYPE_GROUP) return {H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose};
    return {H5Dopen2(parent, name.c_str(), H5P_DEFAULT), H5Dclose};
}

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* out) {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
}

}  // namespace

hdf5_id open_group_if_present(hid_t parent, const std::string& name) {
    return open_object_of_type(parent, name, H5O_TYPE_GROUP);
}

hdf5_id open_dataset_if_present(hid_t parent, const std::string& name) {
    return open_object_of_type(parent, name, H5O_TYPE_DATASET);
}

std::vector<std::string> child_names(hid_t group, const std::string& file,
                                     const std::string& group_path) {
    hdf5_quiet quiet;
    H5_index_t index = H5_INDEX_NAME;
    hdf5_id gcpl(H5Gget_create_plist(group), H5Pclose);
    unsigned order_flags = 0;
    if (gcpl.valid() && H5Pget_link_creation_order(gcpl.get(), &order_flags) >= 0 &&
        (order_flags & H5P_CRT_ORDER_INDEXED) != 0)
        index = H5_INDEX_CRT_ORDER;
    std::vector<std::string> names;
    hsize_t position = 0;
    if (H5Literate(group, index, H5_ITER_INC, &position, collect_name, &names) < 0)
        throw file_format_error(file, group_path, "cannot list the members of this group");
    return names;
}

void write_string_attribute(hid_t object, const std::string& name, const std::string& value,
                            const std::string& file) {
    hdf5_quiet quiet;
    if (H5Aexists(object, name.c_str()) > 0)
        check_hdf5(H5Adelete(object, name.c_str()), file, "replace attribute '" + name + "'");
    hdf5_id type(H5Tcopy(H5T_C_S1), H5Tclose);
    check_hdf5(type.valid() ? 0 : -1, file, "create a string type");
    check_hdf5(H5Tset_size(type.get(), H5T_VARIABLE), file, "create a string type");
    check_hdf5(H5Tset_cset(type.get(), H5T_CSET_UTF8), file, "create a string type");
    hdf5_id space(H5Screate(H5S_SCALAR), H5Sclose);
    hdf5_id attr(
        H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    if (!attr.valid()) throw io_error(file, "HDF5 failed to create attribute '" + name + "'");
    const char* text = value.c_str();
    check_hdf5(H5Awrite(attr.get(), type.get(), &text), file, "write attribute '" + name + "'");
}

std::optional<std::string> read_string_attribute(hid_t object, const std::string& name) {
    hdf5_quiet quiet;
    if (H5Aexists(object, name.c_str()) <= 0) return std::nullopt;
    hdf5_id attr(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose);
    hdf5_id type(H5Aget_type(attr.get()), H5Tclose);
    if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
    hdf5_id space(H5Aget_space(attr.get()), H5Sclose);
    if (H5Sget_simple_extent_npoints(space.get()) != 1) return std::nullopt;
    if (H5Tis_variable_str(type.get()) > 0) {
        hdf5_id mem(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(mem.get(), H5T_VARIABLE);
        H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
        char* text = nullptr;
        if (H5Aread(attr.get(), mem.get(), &text) < 0 || text == nullptr) return std::nullopt;
        std::string value(text);
        H5free_memory(text);
        return value;
    }
    std::size_t size = H5Tget_size(type.get());
    std::vector<char> buffer(size + 1, '\0');
    if (H5Aread(attr.get(), type.get(), buffer.data()) < 0) return std::nullopt;
    return std::string(buffer.data());
}

void write_u32_attribute(hid_t object, const std::string& name,
                         std::span<const std::uint32_t> values, const std::string& file) {
    hdf5_quiet quiet;
    hsize_t n = values.size();
    hdf5_id space(values.size() == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr),
                  H5Sclose);
    hdf5_id attr(
        H5Acreate2(object, name.c_str(), H5T_STD_U32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    if (!attr.valid()) throw io_error(file, "HDF5 failed to create attribute '" + name + "'");
    check_hdf5(H5Awrite(attr.get(), H5T_NATIVE_UINT32, values.data()), file,
               "write attribute '" + name + "'");
}

}  // namespace volley::snn::detail
