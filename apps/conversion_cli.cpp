// The --timesteps list of `volley convert` and `volley demo` (see conversion_cli.hpp).

#include "conversion_cli.hpp"

#include <volley/error.hpp>

#include <cstdlib>
#include <sstream>

namespace volley::cli {

std::vector<std::int64_t> parse_timesteps(const std::string& text) {
    std::vector<std::int64_t> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        char* end = nullptr;
        const long long v = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < 1)
            throw invalid_parameter("--timesteps", "timesteps", text, "expected ascending integers >= 1, e.g. 8,16,32");
        if (!out.empty() && v <= out.back()) throw invalid_parameter("--timesteps", "timesteps", text, "must be ascending");
        out.push_back(v);
    }
    if (out.empty()) throw invalid_parameter("--timesteps", "timesteps", text, "give at least one");
    return out;
}

}  // namespace volley::cli
