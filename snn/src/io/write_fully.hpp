#pragma once
// Writing a whole buffer to a file descriptor: the loop every writer that bypasses stdio needs
// (short writes, EINTR), with the failure's errno for the writer's own message.

#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace volley::snn::detail {

/// Writes the `n` bytes at `data` to `fd`, going on after short writes and EINTR. Returns the
/// bytes written: `n`, or fewer when a write failed, with `error` set to its errno (ENOSPC for a
/// write that wrote nothing); `error` is 0 on success.
inline std::size_t write_fully(int fd, const void* data, std::size_t n, int& error) {
    const auto* p = static_cast<const char*>(data);
    std::size_t done = 0;
    error = 0;
    while (done < n) {
        const ssize_t w = ::write(fd, p + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            error = w < 0 ? errno : ENOSPC;
            break;
        }
        done += static_cast<std::size_t>(w);
    }
    return done;
}

}  // namespace volley::snn::detail
