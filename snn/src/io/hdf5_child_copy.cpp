// Reading an untrusted HDF5 file in a child process, which hands back a clean copy
// (hdf5_file.hpp, hdf5_copy_in_child; docs/errors.md, "Damaged and hostile HDF5 files").
//
// Why a child process: libhdf5 (1.10 and later) trusts the addresses and sizes it finds in a
// file. A damaged or hostile file makes it read through a bad global-heap address, free a pointer
// it decoded from the file, smash its stack converting a type whose precision the file
// misstates, or loop forever: no check a reader can make through the public API first rules
// that out. So the process that asks never lets libhdf5 parse the file. A forked child opens it,
// reads every value (clean_hdf5_copy: hdf5_clean_copy.cpp) into a new file in memory, and sends
// that file's bytes down a pipe; the asking process opens those bytes, laid out by libhdf5 itself
// from plain values, with the core driver. The child that checks is the child that reads: what
// the readers see is exactly what the child read, by whatever path they read it.
//
// If the child dies of a signal, or is still at it after a time limit (then it is killed), the
// file is refused with a file_format_error naming it; if it found the file damaged (an object
// that exists and cannot be read) it sends that typed error, which is thrown here. The last copy
// (up to 256 MiB) is kept for the next open of the same file (device, inode, size, mtime).

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>

#include "io/write_fully.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <tuple>

namespace volley::snn::detail {

namespace {

// The child's message: one byte saying what follows, then
//   'I': the copy's size (8 bytes) and its bytes;
//   'F': a file_format_error: location and reason, each a 4-byte length and the text;
//   'O': an io_error: the reason, a 4-byte length and the text.
constexpr char message_image = 'I';
constexpr char message_format_error = 'F';
constexpr char message_io_error = 'O';

bool write_all(int fd, const void* data, std::size_t n) {
    int error = 0;
    return write_fully(fd, data, n, error) == n;
}

void write_text(int fd, const std::string& text) {
    const auto n = static_cast<std::uint32_t>(std::min<std::size_t>(text.size(), 1 << 16));
    write_all(fd, &n, sizeof n);
    write_all(fd, text.data(), n);
}

/// `what` without the "file: " prefix (and the "location: " after it) that the error added.
std::string reason_of(const std::string& what, const std::string& file, const std::string& location) {
    std::string prefix = file + ": ";
    if (!location.empty()) prefix += location + ": ";
    return what.starts_with(prefix) ? what.substr(prefix.size()) : what;
}

/// What the child does: copy the file, send the copy or the error, and _exit without running any
/// exit handler (which would close and flush the parent's open HDF5 files).
[[noreturn]] void copy_and_exit(const std::filesystem::path& file, int fd) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const std::string name = file.string();
    try {
        const std::vector<char> image = clean_hdf5_copy(file);
        const std::uint64_t size = image.size();
        const bool ok = write_all(fd, &message_image, 1) && write_all(fd, &size, sizeof size) &&
                        write_all(fd, image.data(), image.size());
        ::_exit(ok ? 0 : 3);
    } catch (const file_format_error& e) {
        write_all(fd, &message_format_error, 1);
        write_text(fd, e.location());
        write_text(fd, reason_of(e.what(), name, e.location()));
    } catch (const io_error& e) {
        write_all(fd, &message_io_error, 1);
        write_text(fd, reason_of(e.what(), name, ""));
    } catch (const std::bad_alloc&) {
        write_all(fd, &message_io_error, 1);
        write_text(fd, "out of memory while copying it in a child process");
    } catch (const std::exception& e) {
        write_all(fd, &message_io_error, 1);
        write_text(fd, std::string("cannot copy it in a child process: ") + e.what());
    }
    ::_exit(0);
}

/// How long the child may take: 10 s, and 1 s more per 8 MiB of file. The copy reads and writes
/// several hundred MiB/s from the page cache, so this is tens of times that on a loaded machine;
/// a damaged file can make libhdf5 loop (a global heap whose object sizes chain back on
/// themselves), and would otherwise hang the caller.
/// VOLLEY_HDF5_PREFLIGHT_SECONDS, when set to a positive integer, replaces the limit (the tests
/// use 1 s).
std::chrono::seconds time_limit(std::uint64_t file_bytes) {
    if (const char* v = std::getenv("VOLLEY_HDF5_PREFLIGHT_SECONDS"); v != nullptr && std::atoi(v) > 0)
        return std::chrono::seconds(std::atoi(v));
    return std::chrono::seconds(10 + static_cast<std::int64_t>(file_bytes >> 23));
}

/// Reads what the child sends until it closes the pipe or the deadline passes; false at the
/// deadline.
bool read_until_closed(int fd, std::chrono::steady_clock::time_point deadline, std::vector<char>& out) {
    char chunk[1 << 16];
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        const int r = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
        if (r < 0 && errno != EINTR) return true;  // the wait below reports what the child did
        if (r <= 0) continue;
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return true;
        out.insert(out.end(), chunk, chunk + n);
    }
}

/// Takes a 4-byte length and that many bytes from `m` at `pos`; false if `m` is too short.
bool take_text(const std::vector<char>& m, std::size_t& pos, std::string& out) {
    std::uint32_t n = 0;
    if (m.size() - pos < sizeof n) return false;
    std::memcpy(&n, m.data() + pos, sizeof n);
    pos += sizeof n;
    if (m.size() - pos < n) return false;
    out.assign(m.data() + pos, n);
    pos += n;
    return true;
}

using file_identity = std::tuple<dev_t, ino_t, off_t, std::int64_t, std::int64_t>;

constexpr std::size_t max_cached_bytes = std::size_t{256} << 20;

std::mutex cache_mutex;
file_identity cached_id{};
std::shared_ptr<const std::vector<char>> cached_image;

}  // namespace

std::shared_ptr<const std::vector<char>> hdf5_copy_in_child(const std::filesystem::path& file) {
    const std::string name = file.string();
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) throw io_error(name, "no such file");
    const file_identity id{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
    {
        std::lock_guard lock(cache_mutex);
        if (cached_image && cached_id == id) return cached_image;
    }
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
        throw io_error(name, std::string("cannot make a pipe to read it in a child process: ") + std::strerror(errno));
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {
        const int err = errno;
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        throw io_error(name, std::string("cannot start a child process to read it: ") + std::strerror(err));
    }
    if (child == 0) {
        ::close(pipe_fds[0]);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed while it waits takes the child along
        if (::getppid() != parent) ::_exit(0);
        copy_and_exit(file, pipe_fds[1]);
    }
    ::close(pipe_fds[1]);
    const auto limit = time_limit(static_cast<std::uint64_t>(st.st_size));
    std::vector<char> message;
    const bool finished = read_until_closed(pipe_fds[0], std::chrono::steady_clock::now() + limit, message);
    ::close(pipe_fds[0]);
    if (!finished) ::kill(child, SIGKILL);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0)
        if (errno != EINTR) throw io_error(name, "lost the child process that read it");
    if (!finished)
        throw file_format_error(name, "",
                                "damaged or hostile HDF5 file: reading it kept libhdf5 busy for more than " +
                                    std::to_string(limit.count()) +
                                    " s in a child process that read it (a loop or a runaway allocation); "
                                    "nothing was read from it");
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* abbrev = sigabbrev_np(sig);
        throw file_format_error(name, "",
                                std::string("damaged or hostile HDF5 file: reading it crashed libhdf5 (SIG") +
                                    (abbrev ? abbrev : std::to_string(sig).c_str()) +
                                    ", in a child process that read it); nothing was read from it");
    }
    // The child ends with _exit(0) after its message; any other end (a sanitizer's report, an
    // abort handler that exits) means libhdf5 went wrong on this file just as surely as a signal.
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || message.empty())
        throw file_format_error(name, "",
                                "damaged or hostile HDF5 file: the child process that read it failed (exit status " +
                                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                    "); nothing was read from it");
    std::size_t pos = 1;
    if (message[0] == message_format_error) {
        std::string location, reason;
        if (take_text(message, pos, location) && take_text(message, pos, reason))
            throw file_format_error(name, location, reason);
    } else if (message[0] == message_io_error) {
        std::string reason;
        if (take_text(message, pos, reason)) throw io_error(name, reason);
    } else if (message[0] == message_image) {
        std::uint64_t size = 0;
        if (message.size() >= pos + sizeof size) {
            std::memcpy(&size, message.data() + pos, sizeof size);
            pos += sizeof size;
            if (message.size() - pos == size) {
                message.erase(message.begin(), message.begin() + static_cast<std::ptrdiff_t>(pos));
                auto image = std::make_shared<const std::vector<char>>(std::move(message));
                std::lock_guard lock(cache_mutex);
                cached_image = image->size() <= max_cached_bytes ? image : nullptr;
                cached_id = id;
                return image;
            }
        }
    }
    throw internal_error("the child process that read " + name + " sent a message that does not parse");
}

void preflight_hdf5_file(const std::filesystem::path& file) {
    if (const char* v = std::getenv("VOLLEY_HDF5_PREFLIGHT"); v != nullptr && std::strcmp(v, "0") == 0) return;
    (void)hdf5_copy_in_child(file);
}

hdf5_id open_hdf5_image(const std::vector<char>& image, const std::string& name) {
    static std::atomic<std::uint64_t> opened{0};
    hdf5_quiet quiet;
    hdf5_id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (!fapl.valid() || H5Pset_fapl_core(fapl.get(), 1 << 20, 0) < 0 ||
        H5Pset_file_image(fapl.get(), const_cast<char*>(image.data()), image.size()) < 0)
        throw io_error(name, "HDF5 cannot open the copy read from it");
    // The core driver refuses to open an image under a name that exists on disk.
    const std::string unique = "/nonexistent-volley-hdf5-copy/" + std::to_string(::getpid()) + "-" +
                               std::to_string(opened.fetch_add(1));
    hdf5_id id(H5Fopen(unique.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
    if (!id.valid()) throw io_error(name, "HDF5 cannot open the copy read from it");
    return id;
}

}  // namespace volley::snn::detail
