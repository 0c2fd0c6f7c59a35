#pragma once
// What the libFuzzer harnesses of tests/fuzz share (README.md there).
//
// File loaders take a path: the input is written to a file of this process's own directory under
// $TMPDIR (or /tmp) and the loader reads it. Each input gets a modification time of its own, so
// that the clean copy of HDF5 files (snn/src/io/hdf5_child_copy.cpp), which keeps the last copy
// by device, inode, size and modification time, copies every input afresh.
//
// The HDF5 loaders go through that copy as the CLI does: a forked child reads the file into a
// clean copy that the loader then reads, and a child that dies is a refusal (file_format_error), the outcome the harness expects. For that
// child not to report as libFuzzer would, the child drops what it inherits from libFuzzer at fork
// (prepare_fork_child): the death callback that writes a crash-* input (run when a sanitizer
// reports in the child: the child then exits with status 1, which the parent refuses), and the
// handlers of the fatal signals (the child then dies of the signal, which the parent refuses).

#include <volley/error.hpp>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/// LeakSanitizer's suppressions: libhdf5 (not instrumented; Debian's libhdf5_serial) loses
/// memory of its own on the error paths of damaged files (found by fuzz_checkpoint: a direct leak
/// allocated inside libhdf5, with no Volley frame; tests/fuzz/known/libhdf5_leak.ckpt). Every
/// allocation libhdf5 makes is exempt; Volley's own allocations are still checked.
extern "C" const char* __lsan_default_suppressions() { return "leak:libhdf5\n"; }

namespace volley::fuzz {

inline void drop_fuzzer_state_in_child() {
    if (&__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(nullptr);
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) std::signal(sig, SIG_DFL);
}

/// This process's scratch directory (created once).
inline const std::filesystem::path& scratch_dir() {
    static const std::filesystem::path dir = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::filesystem::path d = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
                                  ("volley-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        ::pthread_atfork(nullptr, nullptr, drop_fuzzer_state_in_child);
        // The child's time limit, for a child that loops (the default is 10 s per file).
        ::setenv("VOLLEY_HDF5_PREFLIGHT_SECONDS", "3", 0);
        return d;
    }();
    return dir;
}

/// Makes the scratch directory the working directory, for a harness whose input may write files
/// by name (processor_tool's EMPTYNET and PARAMS). libFuzzer then needs absolute paths for its
/// corpus, dictionary and artifacts (scripts/fuzz passes them so).
inline void enter_scratch_dir() {
    static const bool entered = [] {
        std::filesystem::current_path(scratch_dir());
        return true;
    }();
    (void)entered;
}

/// Writes `size` bytes to `name` in the scratch directory, with a modification time no earlier
/// input had, and returns its path.
inline std::filesystem::path write_input(const std::string& name, const std::uint8_t* data,
                                         std::size_t size) {
    static std::int64_t serial = 0;
    const std::filesystem::path path = scratch_dir() / name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) std::abort();
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n <= 0) std::abort();
        done += static_cast<std::size_t>(n);
    }
    ++serial;
    const timespec times[2] = {{serial, 0}, {serial, 0}};
    ::futimens(fd, times);
    ::close(fd);
    return path;
}

}  // namespace volley::fuzz

/// The body of a harness: `call` may throw any typed volley::error (a refusal, the expected
/// outcome) but internal_error (a broken invariant: a bug); anything else escapes, and libFuzzer
/// reports it as a crash (an uncaught exception aborts).
#define VOLLEY_FUZZ_REFUSALS_ARE_FINE(call)   \
    try {                                     \
        call;                                 \
    } catch (const volley::internal_error&) { \
        throw;                                \
    } catch (const volley::error&) {          \
    }
