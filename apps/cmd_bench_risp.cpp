#include "cli_common.hpp"
namespace volley::cli {
void register_bench_risp(CLI::App&, command_context&) {}
}  // namespace volley::cli
