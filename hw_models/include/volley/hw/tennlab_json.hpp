#pragma once
// JSON text exactly as the TENNLab framework prints it (RISP.md Appendix C): sorted keys,
// doubles in the shortest round-trip form with a fixed layout, integers in decimal.

#include <nlohmann/json.hpp>

#include <string>

namespace volley::hw {

/// A double as the framework prints it in JSON: `1.0`, `0.0001`, `1e-05`, `1.5e+16`.
std::string format_json_double(double value);

/// The compact form: no spaces, keys sorted at every level.
std::string compact_json(const nlohmann::json& j);

/// The indented form used by `PARAMS`: one key or array element per line, `indent` spaces
/// per level, keys sorted.
std::string indented_json(const nlohmann::json& j, int indent = 2);

/// The framework's "pretty" form G(j) (Appendix C): compact when shorter than 80
/// characters, otherwise one key or element per line with 3-space continuation indents.
std::string pretty_json(const nlohmann::json& j);

/// Prefixes the first line of `text` and every line after a newline with `spaces` spaces.
std::string indent_lines(const std::string& text, int spaces);

}  // namespace volley::hw
