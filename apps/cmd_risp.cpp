// `volley risp`: the TENNLab processor_tool-compatible RISP interpreter.

#include "cli_common.hpp"

#include <volley/hw/processor_tool.hpp>

#include <iostream>
#include <memory>
#include <string>

namespace volley::cli {

void register_risp(CLI::App& app, command_context& ctx) {
    auto* cmd = app.add_subcommand(
        "risp",
        "RISP neuroprocessor: reads TENNLab processor_tool commands from stdin and prints "
        "exactly what processor_tool_risp prints");
    auto prompt = std::make_shared<std::string>();
    cmd->add_option("prompt", *prompt, "printed, followed by a space, before each input line");
    cmd->footer(volley::hw::processor_tool::help_text());
    cmd->callback([&ctx, prompt] {
        std::ios::sync_with_stdio(false);
        volley::hw::processor_tool tool(std::cin, std::cout, std::cerr, *prompt);
        ctx.exit_code = tool.run();
        std::cout.flush();
    });
}

}  // namespace volley::cli
