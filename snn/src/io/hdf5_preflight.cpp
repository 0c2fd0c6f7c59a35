// Reading an untrusted HDF5 file in a child process first (hdf5_file.hpp, preflight_hdf5_file;
// docs/errors.md, "Damaged and hostile HDF5 files").
//
// Why a child process: libhdf5 (1.10 and later) trusts the addresses and sizes it finds in a
// file. A damaged or hostile file makes it read through a bad global-heap address (H5HG_read,
// reached from any variable-length string), free a pointer it decoded from the file (dense link
// storage), or index past a buffer: the process dies with SIGSEGV or SIGABRT, and no check a
// reader can make through the public API first (the heap ids and B-tree nodes are not visible
// through it) rules that out. So before the first read-only open of a file, a forked child walks
// the whole file, doing what any reader may do: every object reached by name, both link indexes
// of every group, every attribute read with its own type (variable-length strings included),
// every dataset read in full (in slabs of at most 16 MiB). If the child dies of a signal, or is
// still at it after a time limit (then it is killed), the file is refused with a
// file_format_error naming it, and the process that asked lives on; if the
// child finishes (whatever HDF5 errors it met), the caller's own reader runs and reports what is
// wrong with its typed errors. A file that passed is remembered (device, inode, size, mtime) and
// not walked again in this process.

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

namespace volley::snn::detail {

namespace {

constexpr std::size_t max_slab_bytes = std::size_t{16} << 20;

void read_attribute(hid_t object, const char* name) {
    hdf5_id attr(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
    if (!attr.valid()) return;
    hdf5_id type(H5Aget_type(attr.get()), H5Tclose);
    hdf5_id space(H5Aget_space(attr.get()), H5Sclose);
    if (!type.valid() || !space.valid()) return;
    hdf5_id mem(H5Tget_native_type(type.get(), H5T_DIR_DEFAULT), H5Tclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    const std::size_t size = mem.valid() ? H5Tget_size(mem.get()) : 0;
    if (n < 0 || size == 0 || static_cast<std::size_t>(n) > max_slab_bytes / size) return;
    std::vector<unsigned char> buffer(static_cast<std::size_t>(n) * size + 1);
    H5Aread(attr.get(), mem.get(), buffer.data());  // variable-length data is left to _exit
}

herr_t on_attribute(hid_t object, const char* name, const H5A_info_t*, void*) {
    read_attribute(object, name);
    return 0;
}


void read_dataset(hid_t dataset) {
    hdf5_id type(H5Dget_type(dataset), H5Tclose);
    hdf5_id space(H5Dget_space(dataset), H5Sclose);
    if (!type.valid() || !space.valid()) return;
    hdf5_id mem(H5Tget_native_type(type.get(), H5T_DIR_DEFAULT), H5Tclose);
    const std::size_t size = mem.valid() ? H5Tget_size(mem.get()) : 0;
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (size == 0 || rank < 0 || rank > 32) return;
    if (rank == 0) {
        std::vector<unsigned char> buffer(size);
        H5Dread(dataset, mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data());
        return;
    }
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    std::size_t row = size;  // bytes of one index of the first dimension
    for (int d = 1; d < rank; ++d) {
        if (dims[d] != 0 && row > max_slab_bytes / dims[d]) return;  // a row larger than a slab
        row *= dims[d];
    }
    if (row == 0 || dims[0] == 0) return;
    const hsize_t rows_per_slab = std::max<hsize_t>(1, max_slab_bytes / row);
    std::vector<unsigned char> buffer(
        static_cast<std::size_t>(std::min(rows_per_slab, dims[0]) * row));
    for (hsize_t first = 0; first < dims[0]; first += rows_per_slab) {
        std::vector<hsize_t> start(dims.size(), 0), count = dims;
        start[0] = first;
        count[0] = std::min(rows_per_slab, dims[0] - first);
        if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                                nullptr) < 0)
            return;
        hdf5_id mem_space(H5Screate_simple(rank, count.data(), nullptr), H5Sclose);
        if (H5Dread(dataset, mem.get(), mem_space.get(), space.get(), H5P_DEFAULT, buffer.data()) <
            0)
            return;
    }
}

/// The walk: every object reached through hard links from the root, each once (by address), to a
/// depth of 64. Unlike H5Ovisit, which gives up at the first object it cannot read, the walk goes
/// on past any error, so that an object after a damaged one is read too (found by tests/fuzz: a
/// reader opened a group by name that H5Ovisit had never reached).
struct walk_state {
    std::set<haddr_t> seen;
    int depth = 0;
};

void walk_group(hid_t group, walk_state& state);

void read_object(hid_t object) {
    // A lookup by a name that no attribute has decodes every attribute message, as a reader's
    // H5Aexists or H5Aopen does; the iterations below can fail before they decode.
    H5Aexists(object, "volley-preflight: no attribute has this name");
    hsize_t position = 0;
    H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &position, on_attribute, nullptr);
    position = 0;
    H5Aiterate2(object, H5_INDEX_CRT_ORDER, H5_ITER_INC, &position, on_attribute, nullptr);
    H5O_info_t info{};
    if (H5Oget_info2(object, &info, H5O_INFO_BASIC) < 0) return;
    if (info.type == H5O_TYPE_DATASET) read_dataset(object);
}

herr_t on_link(hid_t group, const char* name, const H5L_info_t* info, void* data) {
    auto& state = *static_cast<walk_state*>(data);
    H5Lexists(group, name, H5P_DEFAULT);  // the lookup by name, as a reader's open does
    if (info == nullptr || info->type != H5L_TYPE_HARD) return 0;
    if (!state.seen.insert(info->u.address).second) return 0;
    hdf5_id object(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
    if (!object.valid()) return 0;
    read_object(object.get());
    H5O_info_t oi{};
    if (H5Oget_info2(object.get(), &oi, H5O_INFO_BASIC) >= 0 && oi.type == H5O_TYPE_GROUP &&
        state.depth < 64) {
        ++state.depth;
        walk_group(object.get(), state);
        --state.depth;
    }
    return 0;  // on to the next link, whatever happened
}

void walk_group(hid_t group, walk_state& state) {
    // Both link indexes: the creation-order one is what readers that list children use.
    hsize_t position = 0;
    H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &position, on_link, &state);
    position = 0;
    H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &position, on_link, &state);
}

/// What the child does: open and walk the file, then _exit without running any exit handler
/// (which would close and flush the parent's open HDF5 files).
[[noreturn]] void walk_and_exit(const std::filesystem::path& file) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const hid_t h5 = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (h5 >= 0) {
        hdf5_id root(H5Gopen2(h5, "/", H5P_DEFAULT), H5Gclose);
        if (root.valid()) {
            walk_state state;
            read_object(root.get());
            walk_group(root.get(), state);
        }
    }
    ::_exit(0);
}

/// How long the child may take: 10 s, and 1 s more per 8 MiB of file. The walk reads about
/// 1 MiB per ms from the page cache, so this is a hundred times that on a loaded machine; a
/// damaged file can make libhdf5 loop (a global heap whose object sizes chain back on
/// themselves), and would otherwise hang the caller.
/// VOLLEY_HDF5_PREFLIGHT_SECONDS, when set to a positive integer, replaces the limit (the tests
/// use 1 s).
std::chrono::seconds preflight_time_limit(std::uint64_t file_bytes) {
    if (const char* v = std::getenv("VOLLEY_HDF5_PREFLIGHT_SECONDS");
        v != nullptr && std::atoi(v) > 0)
        return std::chrono::seconds(std::atoi(v));
    return std::chrono::seconds(10 + static_cast<std::int64_t>(file_bytes >> 23));
}

using file_identity = std::tuple<dev_t, ino_t, off_t, std::int64_t, std::int64_t>;

std::mutex passed_mutex;
std::set<file_identity> passed;  // files that were walked without a crash in this process

}  // namespace

void preflight_hdf5_file(const std::filesystem::path& file) {
    if (const char* v = std::getenv("VOLLEY_HDF5_PREFLIGHT");
        v != nullptr && std::strcmp(v, "0") == 0)
        return;
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) return;  // the open that follows reports it
    const file_identity id{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
    {
        std::lock_guard lock(passed_mutex);
        if (passed.contains(id)) return;
    }
    // The child holds the write end of a pipe until it exits: the parent's poll() wakes at once
    // when it does, or at the time limit.
    int done[2];
    if (::pipe2(done, O_CLOEXEC) != 0) return;  // no descriptors to spare: read unprotected
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {  // no process to spare: read in this one, unprotected
        ::close(done[0]);
        ::close(done[1]);
        return;
    }
    if (child == 0) {
        ::close(done[0]);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed while it waits takes the child along
        if (::getppid() != parent) ::_exit(0);
        walk_and_exit(file);
    }
    ::close(done[1]);
    const auto limit = preflight_time_limit(static_cast<std::uint64_t>(st.st_size));
    const auto deadline = std::chrono::steady_clock::now() + limit;
    bool finished = false;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd p{done[0], POLLIN, 0};
        const int r = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
        if (r > 0) {
            finished = true;
            break;
        }
        if (r < 0 && errno != EINTR) break;
    }
    ::close(done[0]);
    if (!finished) ::kill(child, SIGKILL);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0)
        if (errno != EINTR) return;
    if (!finished && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        throw file_format_error(
            file.string(), "",
            "damaged or hostile HDF5 file: reading it kept libhdf5 busy for more than " +
                std::to_string(limit.count()) +
                " s in a child process that read it first (a loop or a runaway "
                "allocation); nothing was read from it");
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = sigabbrev_np(sig);
        throw file_format_error(
            file.string(), "",
            std::string("damaged or hostile HDF5 file: reading it crashed libhdf5 (SIG") +
                (name ? name : std::to_string(sig).c_str()) +
                ", in a child process that read it first); nothing was read from it");
    }
    // The walk ends with _exit(0); any other end (a sanitizer's report, an abort handler that
    // exits) means libhdf5 went wrong on this file just as surely as a signal does.
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw file_format_error(
            file.string(), "",
            "damaged or hostile HDF5 file: the child process that read it first failed (exit status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + "); nothing was read from it");
    std::lock_guard lock(passed_mutex);
    passed.insert(id);
}

}  // namespace volley::snn::detail
