#pragma once
// A command interpreter compatible with the TENNLab framework's `processor_tool_risp`
// (RISP.md section f): it reads the command language line by line and prints byte for byte
// what the reference prints, error messages included, continuing after command errors.

#include <volley/hw/neuroprocessor.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace volley::hw {

namespace detail {
class tool_session;
}

/// Makes the processor for `ML` and `M` from a processor name (the network's
/// `Associated_Data.other.proc_name`, or M's NAME) and its `proc_params`. Warnings for stderr
/// go to `warnings`. Throws tennlab_error (its reference message is printed) or another
/// volley::error (printed as "Unknown error when making processor").
using processor_factory = std::function<std::unique_ptr<neuroprocessor>(
    const std::string& name, const nlohmann::json& proc_params,
    std::vector<std::string>& warnings)>;

/// The processor_tool interpreter: RISP by default, any neuroprocessor through a factory.
class processor_tool {
  public:
    /// @param in     command input (also the source of JSON for `ML`/`M`/`L` without a file)
    /// @param out    normal output (the reference's stdout)
    /// @param err    system errors and warnings (the reference's stderr)
    /// @param prompt printed, followed by a space, before each line is read ("" for none)
    /// @param factory makes processors; empty for RISP (byte-compatible with the reference)
    processor_tool(std::istream& in, std::ostream& out, std::ostream& err, std::string prompt = "",
                   processor_factory factory = {});
    ~processor_tool();
    processor_tool(const processor_tool&) = delete;
    processor_tool& operator=(const processor_tool&) = delete;

    /// Reads and executes lines until end of input or `Q`. Returns the exit status (0).
    int run();

    /// Executes one input line. Returns false when the line was `Q`.
    bool execute_line(const std::string& line);

    /// The command list that `?` prints, for a processor shown as `processor` and made by
    /// `M make_name` (RISP's by default, as TENNLab's tool prints it).
    static std::string help_text(const std::string& processor = "RISP", const std::string& make_name = "risp");

  private:
    std::istream& in_;
    std::ostream& out_;
    std::string prompt_;
    std::unique_ptr<detail::tool_session> session_;
};

}  // namespace volley::hw
