#pragma once
// static_cast<double>(v) for a 64-bit integer, in operations that AVX2 and SSE2 vectorise.
// Neither has a vector conversion from 64-bit integers (AVX-512 DQ has), and GCC leaves a loop
// with one scalar: v is split into its high 32 bits, signed, and its low 32 bits, each exact as
// a double, whose sum rounds once, so the result has the same bits as the cast (tested in
// test_ode_schemes.cpp over the ring cells' whole range). Used where a loop reads the ring's
// fixed-point cells: the ODE passes (ode/fixed_step_pass.inc) and the IF step
// (discrete_if_kernel.cpp).

#include <bit>
#include <cstdint>

namespace volley::snn::detail {

inline double split_to_double(std::int64_t v) {
    const auto bits = static_cast<std::uint64_t>(v);
    const double high = static_cast<double>(static_cast<std::int32_t>(bits >> 32)) * 0x1p32;
    const double low = std::bit_cast<double>((bits & 0xffffffffu) | 0x4330000000000000u) - 0x1p52;
    return high + low;
}

/// static_cast<double>(v) where the instruction set converts 64-bit integers in vectors
/// (AVX-512 DQ: Split false), split_to_double where it does not (AVX2, SSE2: Split true).
template <bool Split>
inline double to_double(std::int64_t v) {
    if constexpr (Split) return split_to_double(v);
    else return static_cast<double>(v);
}

}  // namespace volley::snn::detail
