#pragma once
// A write under a file-size limit, in a child process (RLIMIT_FSIZE, with SIGXFSZ ignored so that
// a write past the limit fails with EFBIG as on a full disk, instead of killing the process).

#include <volley/error.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace volley::testing {

/// Runs `write` in a child limited to files of `bytes`. Returns 0 when it returned, 2 when it
/// threw an io_error whose message holds every text of `expected`, 4 for an io_error without
/// them, 3 for any other exception, and -1 when the child died (a signal).
inline int write_under_file_size_limit(std::uint64_t bytes, const std::function<void()>& write,
                                       const std::vector<std::string>& expected) {
    const pid_t child = ::fork();
    if (child < 0) return -2;
    if (child == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{bytes, bytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        try {
            write();
        } catch (const volley::io_error& e) {
            const std::string what = e.what();
            for (const auto& text : expected)
                if (what.find(text) == std::string::npos) ::_exit(4);
            ::_exit(2);
        } catch (...) {
            ::_exit(3);
        }
        ::_exit(0);
    }
    int status = 0;
    if (::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

}  // namespace volley::testing
