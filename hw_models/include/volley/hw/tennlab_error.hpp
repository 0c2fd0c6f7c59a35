#pragma once
// The error type of the TENNLab-compatible parts of volley::hw (network JSON, RISP,
// processor_tool). Besides a Volley message that names the file or object and the bad value,
// it carries the exact text the TENNLab reference prints for the same failure (RISP.md).

#include <volley/error.hpp>

#include <string>

namespace volley::hw {

/// A TENNLab network, processor parameter or spike error.
///
/// `what()` is "<object>: <detail>"; `reference_message()` is the text the reference
/// `processor_tool` prints for it, byte for byte (it may end in '\n', which then gives an
/// extra empty line). An empty reference message means the reference reports the failure
/// only generically ("Unknown error when making processor").
class tennlab_error : public volley::error {
  public:
    /// @param object            what failed, e.g. "network.json: node 7" or "RISP parameters"
    /// @param detail            what is wrong, naming the bad value
    /// @param reference_message the reference's text for this failure, or "" if it has none
    tennlab_error(std::string object, const std::string& detail, std::string reference_message)
        : volley::error(object + ": " + detail),
          object_(std::move(object)),
          reference_message_(std::move(reference_message)) {}

    /// Shorthand for errors whose reference text also serves as the detail.
    tennlab_error(std::string object, std::string reference_message)
        : tennlab_error(std::move(object), strip_newlines(reference_message), reference_message) {}

    /// What failed: the file, node, edge, parameter or spike.
    const std::string& object() const noexcept { return object_; }
    /// The reference processor_tool's text for this failure ("" when it has none).
    const std::string& reference_message() const noexcept { return reference_message_; }

  private:
    static std::string strip_newlines(std::string s) {
        for (char& c : s)
            if (c == '\n') c = ' ';
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    }

    std::string object_;
    std::string reference_message_;
};

}  // namespace volley::hw
