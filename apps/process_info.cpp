// Process facts for the CLI's figures: peak memory and terminal detection.

#include "cli_common.hpp"

#include <sys/resource.h>
#include <unistd.h>

namespace volley::cli {

std::size_t peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace volley::cli
