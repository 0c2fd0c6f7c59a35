#pragma once
// The AVX2 twin of AVX-512's compress: the indices of the set bits of an 8-bit mask, written
// with one table load, one add and one store, with no branch per bit (at the firing rates of
// converted networks, ~10% a step, a branch per spike is mispredicted half the time). The
// table holds, for each of the 256 masks, the positions of its set bits, ascending.

#include <array>
#include <bit>
#include <cstdint>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace volley::snn::detail {

#if defined(__GNUC__) && defined(__x86_64__)
inline constexpr auto set_bit_positions = [] {
    std::array<std::array<std::uint8_t, 8>, 256> table{};
    for (unsigned m = 0; m < 256; ++m) {
        unsigned k = 0;
        for (unsigned b = 0; b < 8; ++b)
            if (m >> b & 1) table[m][k++] = static_cast<std::uint8_t>(b);
    }
    return table;
}();

/// Writes base + b for each set bit b of `mask` (< 256) to out, ascending; returns how many.
/// `out` must have room for 8 indices.
[[gnu::target("avx2"), gnu::always_inline]] inline std::uint32_t list_bits_avx2(unsigned mask, std::uint32_t base,
                                                                               std::uint32_t* out) {
    const __m128i positions = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(set_bit_positions[mask].data()));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                        _mm256_add_epi32(_mm256_cvtepu8_epi32(positions), _mm256_set1_epi32(static_cast<int>(base))));
    return static_cast<std::uint32_t>(std::popcount(mask));
}
#endif

}  // namespace volley::snn::detail
