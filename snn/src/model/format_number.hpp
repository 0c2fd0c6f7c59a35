#pragma once
// Numbers in error messages: every digit needed to reproduce the value.

#include <cstdio>
#include <string>

namespace volley::snn::detail {

/// `v` with 17 significant digits ("0.10000000000000001" for 0.1 stays honest).
inline std::string format_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace volley::snn::detail
