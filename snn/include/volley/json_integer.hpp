#pragma once
// Integers read from JSON without undefined behaviour. nlohmann's get<int>() converts a double
// such as 1e100 to int (undefined behaviour) and an integer such as 70000 to uint16_t modulo
// 2^16 (a silent wrap): loaders read integers through json_integer and refuse what it refuses.

#include <nlohmann/json.hpp>

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>

namespace volley {

/// The value of `v` as T when v is an integer (or a number with no fraction) within T's range;
/// nullopt otherwise.
template <std::integral T>
std::optional<T> json_integer(const nlohmann::json& v) {
    using limits = std::numeric_limits<T>;
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(limits::max())) return std::nullopt;
        return static_cast<T>(u);
    }
    if (v.is_number_integer()) {
        const auto s = v.get<std::int64_t>();
        if (s < 0 ? (!limits::is_signed || s < static_cast<std::int64_t>(limits::min()))
                  : static_cast<std::uint64_t>(s) > static_cast<std::uint64_t>(limits::max()))
            return std::nullopt;
        return static_cast<T>(s);
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        // Both bounds are exact in double: min() is 0 or -2^(bits-1), max()+1 is 2^k.
        const double hi = 2.0 * static_cast<double>(limits::max() / 2 + 1);
        if (!std::isfinite(d) || d != std::trunc(d) || d < static_cast<double>(limits::min()) || d >= hi)
            return std::nullopt;
        return static_cast<T>(d);
    }
    return std::nullopt;
}

}  // namespace volley
