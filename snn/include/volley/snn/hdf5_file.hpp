#pragma once
// Thin RAII layer over the HDF5 C API: owned identifiers, files, groups, attributes and checked
// calls. Shared by the SONATA, NIR and weights files of volley::snn, the model files of
// volley::convert, the DANNA cycle monitor and the CLI. Every function takes the file's name so
// that the typed errors it throws can name the file. The names live in volley::snn::detail: a
// support layer for Volley's parts and tools, not part of the simulation API proper.

#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace volley::snn::detail {

/// Owns one HDF5 identifier and closes it with the matching H5?close function.
class hdf5_id {
  public:
    using closer = herr_t (*)(hid_t);

    hdf5_id() = default;
    /// Takes ownership of `id` (which may be negative: then nothing is owned).
    hdf5_id(hid_t id, closer close) noexcept : id_(id), close_(close) {}
    ~hdf5_id() { reset(); }
    hdf5_id(hdf5_id&& other) noexcept : id_(other.id_), close_(other.close_) {
        other.id_ = H5I_INVALID_HID;
    }
    hdf5_id& operator=(hdf5_id&& other) noexcept;
    hdf5_id(const hdf5_id&) = delete;
    hdf5_id& operator=(const hdf5_id&) = delete;

    /// The raw identifier, for HDF5 calls.
    hid_t get() const noexcept { return id_; }
    /// True when an identifier is owned.
    bool valid() const noexcept { return id_ >= 0; }
    /// Closes the identifier now; returns false if HDF5 reported a failure.
    bool reset() noexcept;

  private:
    hid_t id_ = H5I_INVALID_HID;
    closer close_ = nullptr;
};

/// Turns HDF5's automatic error-stack printing off for its lifetime, so that users see Volley's
/// typed errors rather than HDF5 dumps on stderr.
class hdf5_quiet {
  public:
    hdf5_quiet() noexcept;
    ~hdf5_quiet();
    hdf5_quiet(const hdf5_quiet&) = delete;
    hdf5_quiet& operator=(const hdf5_quiet&) = delete;

  private:
    H5E_auto2_t saved_func_ = nullptr;
    void* saved_data_ = nullptr;
};

/// Creates (truncates) an HDF5 file; io_error naming the file if that fails.
hdf5_id create_hdf5_file(const std::filesystem::path& file);

/// A clean copy of `file`, made in this process: every group, attribute and dataset reached from
/// the root, read as plain values (native numbers and enums, C strings) and written into a new
/// HDF5 file in memory, whose bytes are returned. Creation order, second hard links and soft links
/// are kept; external links and values of other classes are left out. A dataset that declares more
/// than its stored bytes could hold keeps its shape and no values (checked_element_count refuses
/// it). An object that exists and cannot be read is a file_format_error naming it; a file that is
/// not HDF5 is a file_format_error, one that cannot be opened an io_error.
/// This is what the child of hdf5_copy_in_child runs: call that, not this, on untrusted files.
std::vector<char> clean_hdf5_copy(const std::filesystem::path& file);
/// clean_hdf5_copy(file), run in a forked child process that sends the copy's bytes back, so that
/// libhdf5 never parses the untrusted file in this process: a damaged or hostile file that
/// crashes libhdf5 kills the child, and is then a file_format_error naming the file. The same when
/// the child is still reading after 10 s plus 1 s per 8 MiB of file (VOLLEY_HDF5_PREFLIGHT_SECONDS
/// overrides that): then it is killed, as libhdf5 can loop on a damaged file. The errors the child
/// meets (clean_hdf5_copy's) are thrown here. The last copy of at most 256 MiB is kept for the next
/// call on the same file (known by device, inode, size and mtime). docs/errors.md, "Damaged and
/// hostile HDF5 files".
std::shared_ptr<const std::vector<char>> hdf5_copy_in_child(const std::filesystem::path& file);
/// Opens the bytes of an HDF5 file held in memory (a copy from hdf5_copy_in_child) read-only;
/// `name` names it in errors. HDF5 copies the bytes: `image` may go once this returns.
hdf5_id open_hdf5_image(const std::vector<char>& image, const std::string& name);
/// hdf5_copy_in_child(file), the copy dropped: the check before a writable open. Does nothing when
/// the environment variable VOLLEY_HDF5_PREFLIGHT is "0".
void preflight_hdf5_file(const std::filesystem::path& file);
/// Opens an existing HDF5 file, read-only or read-write. A read-only open opens the clean copy of
/// hdf5_copy_in_child, never the file itself (unless VOLLEY_HDF5_PREFLIGHT is "0", to debug a
/// reader in place); a writable open checks the file that way first (preflight_hdf5_file) and
/// then opens it. io_error if it is missing or cannot be opened; file_format_error if it exists
/// but is not an HDF5 file, if reading it crashes libhdf5 or if part of it cannot be read.
hdf5_id open_hdf5_file(const std::filesystem::path& file, bool writable);

/// Creates a group that tracks the creation order of its links (so readers list children in
/// the order they were written).
hdf5_id create_group(hid_t parent, const std::string& name, const std::string& file);

/// Opens a group, or returns an invalid id if `name` does not exist or is not a group.
hdf5_id open_group_if_present(hid_t parent, const std::string& name);

/// Opens a dataset, or returns an invalid id if `name` does not exist or is not a dataset.
hdf5_id open_dataset_if_present(hid_t parent, const std::string& name);

/// True when `parent` has a link called `name` (a single path component).
bool has_link(hid_t parent, const std::string& name);

/// Names of the links in group `group`, in creation order where tracked, else by name.
std::vector<std::string> child_names(hid_t group, const std::string& file,
                                     const std::string& group_path);

/// Writes (or replaces) a scalar variable-length UTF-8 string attribute.
void write_string_attribute(hid_t object, const std::string& name, const std::string& value,
                            const std::string& file);

/// Reads a scalar string attribute (fixed or variable length); nullopt when absent or not text.
std::optional<std::string> read_string_attribute(hid_t object, const std::string& name);

/// Writes a uint32 attribute: a scalar when `values` has one element, else a 1-D array.
void write_u32_attribute(hid_t object, const std::string& name,
                         std::span<const std::uint32_t> values, const std::string& file);

/// Throws invalid_parameter(object, parameter, name, ...) unless `name` can be one HDF5 link
/// name: non-empty, no '/', not "." or "..".
void check_link_name(const std::string& object, const std::string& parameter,
                     const std::string& name);

/// Makes sure that the next `bytes` bytes past the space HDF5 has allocated in `file` (its end of
/// allocation) can be written, by allocating them on disk now (posix_fallocate). A writer calls it
/// before it lets HDF5 write, with a bound on what HDF5 may allocate until the next flush: a full
/// disk or a file-size limit then fails here, as an io_error naming the file, before HDF5 has
/// written anything, instead of inside HDF5 half-way through updating the file's metadata (which
/// leaves a file that cannot be opened, and a library that crashes when it closes it). The space
/// stays part of the file until release_reserved_space().
void reserve_file_space(hid_t file, std::uint64_t bytes, const std::string& name);

/// Cuts the file back to HDF5's end of allocation, giving back what reserve_file_space() allocated
/// and HDF5 did not use. Call right after a successful H5Fflush.
void release_reserved_space(hid_t file, const std::string& name);

/// Throws io_error naming `file` and `what` when an HDF5 call returned a negative status.
void check_hdf5(herr_t status, const std::string& file, const std::string& what);

}  // namespace volley::snn::detail
