#include "cli_common.hpp"
namespace volley::cli {
void register_risp(CLI::App&, command_context&) {}
}  // namespace volley::cli
