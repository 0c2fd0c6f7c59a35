// A clean copy of an untrusted HDF5 file, made of the values read from it (hdf5_file.hpp,
// clean_hdf5_copy; docs/errors.md, "Damaged and hostile HDF5 files").
//
// Every group, attribute and dataset reached from the root through hard links is read with a
// fresh native type (integers, floats, enums) or a fresh C string type (strings), and written
// with that type into a new file in memory whose metadata libhdf5 lays out itself: the heap ids,
// B-tree nodes and type messages of the untrusted file never reach the copy. Link and attribute
// creation order are kept where the file tracks them, a second hard link to an object becomes a
// hard link in the copy, soft links are kept (they resolve inside the copy), external links and
// values of any other class (compound, opaque, reference, array, variable-length sequences) are
// left out: no reader takes them. A dataset whose shape declares more than what the file stores
// could expand to (deflate's 1032:1, plus 1 MiB of fill values) keeps its shape and stores
// nothing, so that the reader's checked_element_count refuses it by name.
//
// Anything that exists and cannot be read (a group that cannot be listed, an object that cannot
// be opened, an attribute or dataset whose read fails) is a file_format_error naming the object:
// a damaged file is refused whole, never read in part.

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/hdf5_image.hpp>

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace volley::snn::detail {

namespace {

constexpr std::size_t max_slab_bytes = std::size_t{16} << 20;
constexpr std::size_t max_attribute_bytes = std::size_t{16} << 20;
constexpr int max_depth = 64;
constexpr int max_rank = 32;
constexpr std::uint64_t fill_value_allowance = std::uint64_t{1} << 20;
constexpr std::uint64_t deflate_max_ratio = 1032;

std::string child_path(const std::string& parent, const std::string& name) {
    return parent == "/" ? "/" + name : parent + "/" + name;
}

/// The type a value of `file_type` is read and rewritten with: a new native numeric or enum type,
/// or a new C string type of the same size, padding and character set. Invalid for any other
/// class.
hdf5_id plain_type(hid_t file_type) {
    switch (H5Tget_class(file_type)) {
        case H5T_INTEGER:
        case H5T_FLOAT:
        case H5T_ENUM:
            return {H5Tget_native_type(file_type, H5T_DIR_ASCEND), H5Tclose};
        case H5T_STRING: {
            const htri_t variable = H5Tis_variable_str(file_type);
            const H5T_cset_t cset = H5Tget_cset(file_type);
            hdf5_id t(H5Tcopy(H5T_C_S1), H5Tclose);
            if (variable < 0 || cset < 0 || !t.valid()) return {};
            if (variable > 0) {
                if (H5Tset_size(t.get(), H5T_VARIABLE) < 0) return {};
            } else {
                const std::size_t size = H5Tget_size(file_type);
                const H5T_str_t pad = H5Tget_strpad(file_type);
                if (size == 0 || size > max_attribute_bytes || pad < 0 ||
                    H5Tset_size(t.get(), size) < 0 || H5Tset_strpad(t.get(), pad) < 0)
                    return {};
            }
            if (H5Tset_cset(t.get(), cset) < 0) return {};
            return t;
        }
        default:
            return {};
    }
}

/// A new dataspace of the same extent (scalar, null, or simple of rank 1..32), with its
/// dimensions in `dims` (empty for scalar and null). Invalid for any other.
hdf5_id plain_space(hid_t space, std::vector<hsize_t>& dims) {
    dims.clear();
    switch (H5Sget_simple_extent_type(space)) {
        case H5S_SCALAR:
            return {H5Screate(H5S_SCALAR), H5Sclose};
        case H5S_NULL:
            return {H5Screate(H5S_NULL), H5Sclose};
        case H5S_SIMPLE: {
            const int rank = H5Sget_simple_extent_ndims(space);
            if (rank < 1 || rank > max_rank) return {};
            dims.resize(static_cast<std::size_t>(rank));
            if (H5Sget_simple_extent_dims(space, dims.data(), nullptr) < 0) return {};
            return {H5Screate_simple(rank, dims.data(), nullptr), H5Sclose};
        }
        default:
            return {};
    }
}

/// Elements of a simple extent (1 for scalar, 0 for null), saturating at the largest uint64.
std::uint64_t element_count(hid_t space, const std::vector<hsize_t>& dims) {
    if (H5Sget_simple_extent_type(space) == H5S_NULL) return 0;
    std::uint64_t n = 1;
    for (const hsize_t d : dims) {
        if (d == 0) return 0;
        n = n > std::numeric_limits<std::uint64_t>::max() / d ? std::numeric_limits<std::uint64_t>::max()
                                                               : n * d;
    }
    return n;
}

/// The index to iterate in: creation order where the object indexes it (the copy then tracks the
/// same order), else names.
H5_index_t index_for(unsigned creation_order_flags) {
    return (creation_order_flags & H5P_CRT_ORDER_INDEXED) != 0 ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME;
}

/// Runs an HDF5 iteration (`iterate(callback, data)`: H5Aiterate2 or H5Literate) that calls
/// `visit(object, name, info)` for each item. The callback runs inside libhdf5's C code, which no
/// exception may cross: an exception `visit` throws stops the iteration and is thrown here once
/// libhdf5 has returned. Returns the iteration's status.
template <class Info, class Iterate, class Visit>
herr_t iterate_guarded(Iterate iterate, Visit visit) {
    struct state {
        Visit& visit;
        std::exception_ptr error;
        static herr_t call(hid_t object, const char* name, const Info* info, void* data) {
            auto& self = *static_cast<state*>(data);
            try {
                self.visit(object, name, info);
                return 0;
            } catch (...) {
                self.error = std::current_exception();
                return -1;
            }
        }
    } st{visit, nullptr};
    const herr_t status = iterate(&state::call, &st);
    if (st.error) std::rethrow_exception(st.error);
    return status;
}

class copier {
  public:
    copier(std::string file, hid_t dst_file) : file_(std::move(file)), dst_file_(dst_file) {}

    void copy_root(hid_t src_root, hid_t dst_root) {
        copy_attributes(src_root, dst_root, "/", attribute_order(src_root, true));
        copy_members(src_root, dst_root, "/", link_order(src_root), 0);
    }

    static unsigned attribute_order(hid_t object, bool group) {
        hdf5_id plist(group ? H5Gget_create_plist(object) : H5Dget_create_plist(object), H5Pclose);
        unsigned flags = 0;
        if (plist.valid() && H5Pget_attr_creation_order(plist.get(), &flags) < 0) flags = 0;
        return flags;
    }

    static unsigned link_order(hid_t group) {
        hdf5_id plist(H5Gget_create_plist(group), H5Pclose);
        unsigned flags = 0;
        if (plist.valid() && H5Pget_link_creation_order(plist.get(), &flags) < 0) flags = 0;
        return flags;
    }

  private:
    [[noreturn]] void damaged(const std::string& object, const std::string& what) const {
        throw file_format_error(file_, object, "damaged HDF5 file: " + what);
    }

    void copy_attributes(hid_t src, hid_t dst, const std::string& path, unsigned order) {
        const herr_t status = iterate_guarded<H5A_info_t>(
            [&](H5A_operator2_t op, void* data) {
                hsize_t position = 0;
                return H5Aiterate2(src, index_for(order), H5_ITER_INC, &position, op, data);
            },
            [&](hid_t object, const char* name, const H5A_info_t*) { copy_attribute(object, name, dst, path); });
        if (status < 0) damaged(path, "its attributes cannot be listed");
    }

    void copy_attribute(hid_t src, const char* name, hid_t dst, const std::string& path) {
        const std::string where = path + " (attribute '" + name + "')";
        hdf5_id attr(H5Aopen(src, name, H5P_DEFAULT), H5Aclose);
        if (!attr.valid()) damaged(where, "it cannot be opened");
        hdf5_id file_type(H5Aget_type(attr.get()), H5Tclose);
        hdf5_id file_space(H5Aget_space(attr.get()), H5Sclose);
        if (!file_type.valid() || !file_space.valid()) damaged(where, "its type or shape cannot be read");
        hdf5_id type = plain_type(file_type.get());
        std::vector<hsize_t> dims;
        hdf5_id space = plain_space(file_space.get(), dims);
        if (!type.valid() || !space.valid()) return;  // a kind of value no reader takes
        const std::uint64_t n = element_count(space.get(), dims);
        const std::size_t size = H5Tget_size(type.get());
        if (size == 0 || n > max_attribute_bytes / size)
            damaged(where, "it declares " + std::to_string(n) + " values of " + std::to_string(size) +
                               " bytes, more than an attribute can hold");
        std::vector<unsigned char> buffer(static_cast<std::size_t>(n) * size + 1, 0);
        if (n > 0 && H5Aread(attr.get(), type.get(), buffer.data()) < 0)
            damaged(where, "its value cannot be read");
        const bool variable = H5Tis_variable_str(type.get()) > 0;
        hdf5_id out(H5Acreate2(dst, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
        const bool written = out.valid() && (n == 0 || H5Awrite(out.get(), type.get(), buffer.data()) >= 0);
        if (variable && n > 0) H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, buffer.data());
        if (!written) damaged(where, "its value cannot be copied");
    }

    void copy_members(hid_t src, hid_t dst, const std::string& path, unsigned order, int depth) {
        const herr_t status = iterate_guarded<H5L_info_t>(
            [&](H5L_iterate_t op, void* data) {
                hsize_t position = 0;
                return H5Literate(src, index_for(order), H5_ITER_INC, &position, op, data);
            },
            [&](hid_t group, const char* name, const H5L_info_t* info) {
                copy_link(group, name, info, dst, path, depth);
            });
        if (status < 0) damaged(path, "its members cannot be listed");
    }

    void copy_link(hid_t src, const char* name, const H5L_info_t* info, hid_t dst,
                   const std::string& parent, int depth) {
        const std::string path = child_path(parent, name);
        if (info == nullptr) damaged(path, "its link cannot be read");
        if (info->type == H5L_TYPE_SOFT) {
            std::vector<char> target(info->u.val_size + 1, '\0');
            if (info->u.val_size > max_attribute_bytes ||
                H5Lget_val(src, name, target.data(), target.size(), H5P_DEFAULT) < 0)
                damaged(path, "its soft link cannot be read");
            if (H5Lcreate_soft(target.data(), dst, name, H5P_DEFAULT, H5P_DEFAULT) < 0)
                damaged(path, "its soft link cannot be copied");
            return;
        }
        if (info->type != H5L_TYPE_HARD) return;  // external and user-defined links: left out
        if (const auto seen = copied_.find(info->u.address); seen != copied_.end()) {
            if (H5Lcreate_hard(dst_file_, seen->second.c_str(), dst, name, H5P_DEFAULT, H5P_DEFAULT) < 0)
                damaged(path, "its second link cannot be copied");
            return;
        }
        hdf5_id object(H5Oopen(src, name, H5P_DEFAULT), H5Oclose);
        H5O_info_t oi{};
        if (!object.valid() || H5Oget_info2(object.get(), &oi, H5O_INFO_BASIC) < 0)
            damaged(path, "it cannot be opened");
        if (oi.type == H5O_TYPE_GROUP) {
            if (depth >= max_depth)
                damaged(path, "groups are nested more than " + std::to_string(max_depth) + " deep");
            copied_.emplace(info->u.address, path);
            const unsigned links = link_order(object.get());
            const unsigned attributes = attribute_order(object.get(), true);
            hdf5_id gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose);
            if (!gcpl.valid() || H5Pset_link_creation_order(gcpl.get(), links) < 0 ||
                H5Pset_attr_creation_order(gcpl.get(), attributes) < 0)
                damaged(path, "its creation properties cannot be copied");
            hdf5_id group(H5Gcreate2(dst, name, H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
            if (!group.valid()) damaged(path, "it cannot be copied");
            copy_attributes(object.get(), group.get(), path, attributes);
            copy_members(object.get(), group.get(), path, links, depth + 1);
        } else if (oi.type == H5O_TYPE_DATASET) {
            copied_.emplace(info->u.address, path);
            copy_dataset(object.get(), dst, name, path);
        }
        // Named datatypes: left out.
    }

    void copy_dataset(hid_t src, hid_t dst, const char* name, const std::string& path) {
        hdf5_id file_type(H5Dget_type(src), H5Tclose);
        hdf5_id file_space(H5Dget_space(src), H5Sclose);
        if (!file_type.valid() || !file_space.valid()) damaged(path, "its type or shape cannot be read");
        hdf5_id type = plain_type(file_type.get());
        std::vector<hsize_t> dims;
        hdf5_id space = plain_space(file_space.get(), dims);
        if (!type.valid() || !space.valid()) return;  // a kind of value no reader takes
        const std::size_t size = H5Tget_size(type.get());
        if (size == 0) return;
        const std::uint64_t n = element_count(space.get(), dims);
        const std::uint64_t stored = H5Dget_storage_size(src);
        const std::uint64_t limit = stored > (std::numeric_limits<std::uint64_t>::max() - fill_value_allowance) / deflate_max_ratio
                                        ? std::numeric_limits<std::uint64_t>::max()
                                        : stored * deflate_max_ratio + fill_value_allowance;
        const bool declared_only = n > limit / size;
        const unsigned attributes = attribute_order(src, false);
        hdf5_id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
        if (!dcpl.valid() || H5Pset_attr_creation_order(dcpl.get(), attributes) < 0)
            damaged(path, "its creation properties cannot be copied");
        if (declared_only) {
            // The shape without the values, in chunks never allocated: the reader's
            // checked_element_count sees the shape and the few bytes stored, and refuses it.
            const std::vector<hsize_t> ones(dims.size(), 1);
            if (H5Pset_chunk(dcpl.get(), static_cast<int>(ones.size()), ones.data()) < 0 ||
                H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_INCR) < 0)
                damaged(path, "its shape cannot be copied");
        }
        hdf5_id out(H5Dcreate2(dst, name, type.get(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                    H5Dclose);
        if (!out.valid()) damaged(path, "it cannot be copied");
        if (!declared_only && n > 0) copy_values(src, out.get(), type.get(), file_space.get(), dims, path);
        copy_attributes(src, out.get(), path, attributes);
    }

    /// The values, in slabs of at most 16 MiB along the first dimension.
    void copy_values(hid_t src, hid_t dst, hid_t type, hid_t src_space, const std::vector<hsize_t>& dims,
                     const std::string& path) {
        const std::size_t size = H5Tget_size(type);
        const bool variable = H5Tis_variable_str(type) > 0;
        if (dims.empty()) {  // scalar
            std::vector<unsigned char> buffer(size, 0);
            if (H5Dread(src, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0)
                damaged(path, "its value cannot be read");
            const bool ok = H5Dwrite(dst, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) >= 0;
            if (variable) {
                hdf5_id scalar(H5Screate(H5S_SCALAR), H5Sclose);
                H5Dvlen_reclaim(type, scalar.get(), H5P_DEFAULT, buffer.data());
            }
            if (!ok) damaged(path, "its value cannot be copied");
            return;
        }
        std::uint64_t row = size;  // bytes of one index of the first dimension
        for (std::size_t d = 1; d < dims.size(); ++d) {
            if (row > max_slab_bytes / dims[d])
                damaged(path, "one row of it is larger than " + std::to_string(max_slab_bytes >> 20) + " MiB");
            row *= dims[d];
        }
        const hsize_t rows_per_slab = std::max<hsize_t>(1, max_slab_bytes / row);
        hdf5_id dst_space(H5Dget_space(dst), H5Sclose);
        std::vector<unsigned char> buffer(static_cast<std::size_t>(std::min(rows_per_slab, dims[0]) * row));
        for (hsize_t first = 0; first < dims[0]; first += rows_per_slab) {
            std::vector<hsize_t> start(dims.size(), 0), count = dims;
            start[0] = first;
            count[0] = std::min(rows_per_slab, dims[0] - first);
            hdf5_id mem_space(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), H5Sclose);
            std::fill(buffer.begin(), buffer.end(), 0);
            if (!mem_space.valid() || !dst_space.valid() ||
                H5Sselect_hyperslab(src_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr) < 0 ||
                H5Sselect_hyperslab(dst_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                                    nullptr) < 0 ||
                H5Dread(src, type, mem_space.get(), src_space, H5P_DEFAULT, buffer.data()) < 0)
                damaged(path, "its values cannot be read");
            const bool ok = H5Dwrite(dst, type, mem_space.get(), dst_space.get(), H5P_DEFAULT, buffer.data()) >= 0;
            if (variable) H5Dvlen_reclaim(type, mem_space.get(), H5P_DEFAULT, buffer.data());
            if (!ok) damaged(path, "its values cannot be copied");
        }
    }

    std::string file_;
    hid_t dst_file_;
    std::map<haddr_t, std::string> copied_;  // object address in the file -> its path in the copy
};

}  // namespace

std::vector<char> clean_hdf5_copy(const std::filesystem::path& file) {
    hdf5_quiet quiet;
    const std::string name = file.string();
    const htri_t is_hdf5 = H5Fis_hdf5(file.c_str());
    if (is_hdf5 < 0) throw io_error(name, "cannot read file");
    if (is_hdf5 == 0) throw file_format_error(name, "", "not an HDF5 file");
    hdf5_id src(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!src.valid()) throw io_error(name, "cannot open HDF5 file for reading");
    hdf5_id src_root(H5Gopen2(src.get(), "/", H5P_DEFAULT), H5Gclose);
    if (!src_root.valid()) throw file_format_error(name, "/", "damaged HDF5 file: the root group cannot be opened");
    // The root's creation order, kept by the copy's file creation property list.
    const unsigned links = copier::link_order(src_root.get());
    const unsigned attributes = copier::attribute_order(src_root.get(), true);
    hdf5_id fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    hdf5_id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (!fcpl.valid() || !fapl.valid() || H5Pset_link_creation_order(fcpl.get(), links) < 0 ||
        H5Pset_attr_creation_order(fcpl.get(), attributes) < 0 || H5Pset_fapl_core(fapl.get(), 1 << 20, 0) < 0)
        throw io_error(name, "HDF5 cannot make an in-memory copy");
    hdf5_id dst(H5Fcreate(("volley-clean-copy:" + name).c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()),
                H5Fclose);
    hdf5_id dst_root(dst.valid() ? H5Gopen2(dst.get(), "/", H5P_DEFAULT) : H5I_INVALID_HID, H5Gclose);
    if (!dst_root.valid()) throw io_error(name, "HDF5 cannot make an in-memory copy");
    copier(name, dst.get()).copy_root(src_root.get(), dst_root.get());
    dst_root.reset();
    check_hdf5(H5Fflush(dst.get(), H5F_SCOPE_GLOBAL), name, "flush the in-memory copy");
    const ssize_t size = H5Fget_file_image(dst.get(), nullptr, 0);
    if (size < 0) throw io_error(name, "HDF5 failed to give the in-memory copy's bytes");
    std::vector<char> bytes(static_cast<std::size_t>(size));
    if (H5Fget_file_image(dst.get(), bytes.data(), bytes.size()) != size)
        throw io_error(name, "HDF5 failed to give the in-memory copy's bytes");
    return bytes;
}

}  // namespace volley::snn::detail
