#pragma once
// What the AVX-512 Kreuz kernels (isi_distance_avx512.cpp, spike_distance_avx512.cpp) share: a
// pair of trains per vector lane, each train's position as the byte offset of its current
// kreuz_knots::step from a common origin (the base of every gather), and min / max with the
// portable code's choice on ties. Include only inside #pragma GCC target("avx512f"), after the
// standard headers it names (so that they are not compiled for AVX-512).

#include "analysis/pair_terms.hpp"

#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace volley::snn::analysis::detail::avx512_lanes {

inline constexpr std::size_t lanes = 8;
using lane_trains = std::array<const kreuz_knots*, lanes>;

/// The byte offset of p from origin.
inline std::int64_t offset(const void* p, const char* origin) {
    return static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(p) -
                                     reinterpret_cast<std::intptr_t>(origin));
}

// min and max as x < y ? x : y and x > y ? x : y, lane by lane. The masked forms with all lanes
// on compile to the plain instructions; GCC 12 warns that the plain intrinsics read an
// uninitialised (unused) source.
inline __m512d min_pd(__m512d x, __m512d y) {
    return _mm512_mask_min_pd(x, 0xFF, x, y);
}
inline __m512d max_pd(__m512d x, __m512d y) {
    return _mm512_mask_max_pd(x, 0xFF, x, y);
}

/// The trains of lane l: those of pairs[first + l], the last pair repeated from lane `count` on.
template <class Pair>
void fill_lanes(std::span<const Pair> pairs, std::size_t first, std::size_t count, lane_trains& a,
                lane_trains& b) {
    for (std::size_t l = 0; l < lanes; ++l) {
        const Pair& q = pairs[first + (l < count ? l : count - 1)];
        a[l] = q.a;
        b[l] = q.b;
    }
}

}  // namespace volley::snn::analysis::detail::avx512_lanes
