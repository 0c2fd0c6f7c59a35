// Process facts for the CLI's figures: peak memory and terminal detection.

#include "cli_common.hpp"

#include <volley/snn/run_figures.hpp>

#include <unistd.h>

namespace volley::cli {

std::size_t peak_rss_bytes() { return snn::peak_rss_bytes(); }

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace volley::cli
