#pragma once
// The --timesteps list shared by `volley convert` and `volley demo`.

#include <cstdint>
#include <string>
#include <vector>

namespace volley::cli {

/// Parses "8,16,32": ascending integers >= 1. Throws invalid_parameter naming --timesteps.
std::vector<std::int64_t> parse_timesteps(const std::string& text);

}  // namespace volley::cli
