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
#include <limits>
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

/// One train of eight walks: the interval [kp, kf] around each walk's time.
struct position {
    __m512i at;    ///< byte offset of steps[k] from the origin
    __m512i end;   ///< that of steps[m-2], the last interval with an event ahead
    __m512d kp;    ///< K[k] [ms]
    __m512d kf;    ///< K[k+1] [ms]
    __m512d isi;   ///< K[k+1] - K[k] [ms]
    __m512d next;  ///< K[k+1] while that is an event, else +inf [ms]
};

/// The position of each lane's train at the walk's start (k = 0).
inline position start_position(const lane_trains& own, const char* origin) {
    alignas(64) std::int64_t at[lanes], end[lanes];
    alignas(64) double kp[lanes], kf[lanes], isi[lanes], next[lanes];
    for (std::size_t l = 0; l < lanes; ++l) {
        const kreuz_knots& t = *own[l];
        at[l] = offset(t.steps.data(), origin);
        end[l] = offset(t.steps.data() + (t.steps.size() - 1), origin);
        kp[l] = t.knot[0];
        kf[l] = t.knot[1];
        isi[l] = t.isi[0];
        next[l] = t.next[0];
    }
    return {_mm512_load_si512(at), _mm512_load_si512(end), _mm512_load_pd(kp),
            _mm512_load_pd(kf),    _mm512_load_pd(isi),    _mm512_load_pd(next)};
}

/// Moves the lanes in `fired` into their train's next interval, gathering its end knot (the
/// ISI as K[k+1] - K[k], as kreuz_knots computes it).
inline void advance(position& s, __mmask8 fired, const char* origin) {
    constexpr auto step_bytes = static_cast<long long>(sizeof(kreuz_knots::step));
    s.at = _mm512_mask_add_epi64(s.at, fired, s.at, _mm512_set1_epi64(step_bytes));
    s.kp = _mm512_mask_mov_pd(s.kp, fired, s.kf);
    s.kf =
        _mm512_mask_i64gather_pd(s.kf, fired, s.at, origin + offsetof(kreuz_knots::step, knot), 1);
    s.isi = _mm512_mask_sub_pd(s.isi, fired, s.kf, s.kp);
    s.next = _mm512_mask_mov_pd(_mm512_set1_pd(std::numeric_limits<double>::infinity()),
                                _mm512_cmplt_epi64_mask(s.at, s.end), s.kf);
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
