#include "cli_common.hpp"
namespace volley::cli {
void register_demo(CLI::App&, command_context&) {}
}  // namespace volley::cli
