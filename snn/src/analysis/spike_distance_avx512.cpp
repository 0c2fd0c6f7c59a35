// The SPIKE-distance of eight pairs at once, one pair per lane of AVX-512 vectors
// (kreuz_pairs.hpp).
//
// Why: the portable walk (spike_distance_unchecked, kreuz_distances.cpp) is bound by arithmetic
// throughput, about 100 instructions per merged event with one division, and one pair's walk
// has no data parallelism (each step depends on which train fired). The walks of different pairs
// are independent, so eight of them share each instruction here. Each lane keeps the position
// of its two trains as the byte offset of the current interval's kreuz_knots::step from a
// common origin, and gathers the data of the interval a train enters when it fires. A lane
// whose trains are both spent is masked off until all eight are.
//
// Per lane the operations are those of the portable walk in the same order; selects by mask
// replace its multiplications by exact 0 / 1, which give the same values on its finite, >= 0
// operands, and the file is compiled without FMA contraction (snn/CMakeLists.txt). So the
// doubles are the same on either path.

#include "analysis/kreuz_pairs.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

// Everything below is compiled for AVX-512; the headers above are not (their inline functions
// must not come out in AVX-512 code that other files could link to).
#if defined(__clang__)  // clang has no #pragma GCC target (the fuzz and tsan presets)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif

#include "analysis/kreuz_lanes_avx512.hpp"

namespace volley::snn::analysis::detail {

namespace {

using namespace avx512_lanes;

/// One train's side of eight walks (spike_side in kreuz_distances.cpp) and its position.
struct side {
    position pos;
    __m512d inv;                       // 1 / pos.isi [1/ms]
    __m512d dist_prev, pending, paid;  // as in spike_side
};

/// The side of `own` against `other` at the walk's start (k = 0), lane by lane.
inline side start(const lane_trains& own, const lane_trains& other, const char* origin,
                  double t_start) {
    alignas(64) double inv[lanes], dist[lanes];
    for (std::size_t l = 0; l < lanes; ++l) {
        inv[l] = own[l]->inv_isi[0];
        dist[l] = spike_start_distance(*own[l], *other[l], t_start);
    }
    return {start_position(own, origin), _mm512_load_pd(inv), _mm512_load_pd(dist),
            _mm512_setzero_pd(), _mm512_setzero_pd()};
}

/// Adds the stretch [from, to) of the lanes in `on` to `known` and the sides' pending
/// coefficients (the stretch lambda and spike_side::add of kreuz_distances.cpp).
inline void stretch(side& s1, side& s2, __m512d from, __m512d to, __mmask8 on, __m512d mrts,
                    __m512d& known) {
    const __m512d half = _mm512_set1_pd(0.5);
    const __m512d mid = _mm512_mul_pd(half, _mm512_add_pd(from, to));
    const __m512d mean_isi = _mm512_mul_pd(half, _mm512_add_pd(s1.pos.isi, s2.pos.isi));
    const __m512d w = _mm512_div_pd(_mm512_mul_pd(_mm512_sub_pd(to, from), half),
                                    _mm512_mul_pd(mean_isi, max_pd(mean_isi, mrts)));
    const __m512d g1 = _mm512_mul_pd(_mm512_mul_pd(w, s2.pos.isi), s1.inv);
    const __m512d g2 = _mm512_mul_pd(_mm512_mul_pd(w, s1.pos.isi), s2.inv);
    s1.pending = _mm512_mask_add_pd(s1.pending, on, s1.pending,
                                    _mm512_mul_pd(g1, _mm512_sub_pd(mid, s1.pos.kp)));
    s2.pending = _mm512_mask_add_pd(s2.pending, on, s2.pending,
                                    _mm512_mul_pd(g2, _mm512_sub_pd(mid, s2.pos.kp)));
    const __m512d r1 =
        _mm512_mul_pd(s1.dist_prev, _mm512_mul_pd(g1, _mm512_sub_pd(s1.pos.kf, mid)));
    const __m512d r2 =
        _mm512_mul_pd(s2.dist_prev, _mm512_mul_pd(g2, _mm512_sub_pd(s2.pos.kf, mid)));
    known = _mm512_mask_add_pd(known, on, known, _mm512_add_pd(r1, r2));
}

/// Moves the lanes in `fired` into their train's next interval, with its 1 / ISI.
inline void advance(side& s, __mmask8 fired, const char* origin) {
    advance(s.pos, fired, origin);
    s.inv = _mm512_mask_i64gather_pd(s.inv, fired, s.pos.at,
                                     origin + offsetof(kreuz_knots::step, inv_isi), 1);
}

/// The distance from t to the nearer end of the interval of `s` (std::min(t - kp, kf - t)).
inline __m512d nearest(__m512d t, const side& s) {
    return min_pd(_mm512_sub_pd(s.pos.kf, t), _mm512_sub_pd(t, s.pos.kp));
}

/// Pays the knot that the lanes in `fired` reached, at distance `dist` (spike_side::fire).
inline void fire(side& s, __mmask8 fired, __m512d dist) {
    s.paid = _mm512_mask_add_pd(s.paid, fired, s.paid, _mm512_mul_pd(s.pending, dist));
    s.pending = _mm512_mask_mov_pd(s.pending, fired, _mm512_setzero_pd());
    s.dist_prev = _mm512_mask_mov_pd(s.dist_prev, fired, dist);
}

/// out[l] = SPIKE-distance of a[l] and b[l] (spike_distance_unchecked, lane by lane).
void walk_eight(const lane_trains& a, const lane_trains& b, const char* origin,
                const kreuz_options& o, double* out) {
    const double t_start = o.window.start_ms, t_end = o.window.stop_ms;
    side s1 = start(a, b, origin, t_start), s2 = start(b, a, origin, t_start);
    const __m512d mrts = _mm512_set1_pd(o.mrts_ms);
    const __m512d never = _mm512_set1_pd(std::numeric_limits<double>::infinity());
    __m512d last = _mm512_set1_pd(t_start), known = _mm512_setzero_pd();
    for (;;) {
        const __m512d t = min_pd(s1.pos.next, s2.pos.next);
        const __mmask8 on = _mm512_cmp_pd_mask(t, never, _CMP_LT_OQ);
        if (on == 0) break;
        stretch(s1, s2, last, t, on, mrts, known);
        last = _mm512_mask_mov_pd(last, on, t);
        const __mmask8 fire1 = _mm512_mask_cmp_pd_mask(on, s1.pos.next, s2.pos.next, _CMP_LE_OQ);
        const __mmask8 fire2 = _mm512_mask_cmp_pd_mask(on, s2.pos.next, s1.pos.next, _CMP_LE_OQ);
        advance(s1, fire1, origin);
        advance(s2, fire2, origin);
        fire(s1, fire1, nearest(t, s2));
        fire(s2, fire2, nearest(t, s1));
    }
    const __m512d stop = _mm512_set1_pd(t_end);
    stretch(s1, s2, last, stop, _mm512_cmp_pd_mask(stop, last, _CMP_GT_OQ), mrts, known);
    // The last knots are auxiliary: the last spike's distance, or PySpike's at stop.
    __mmask8 copies1 = 0, copies2 = 0;
    for (std::size_t l = 0; l < lanes; ++l) {
        copies1 |= static_cast<__mmask8>(a[l]->last_copies ? 1u << l : 0u);
        copies2 |= static_cast<__mmask8>(b[l]->last_copies ? 1u << l : 0u);
    }
    const __m512d d1 = _mm512_mask_mov_pd(nearest(stop, s2), copies1, s1.dist_prev);
    const __m512d d2 = _mm512_mask_mov_pd(nearest(stop, s1), copies2, s2.dist_prev);
    const __m512d paid1 = _mm512_add_pd(s1.paid, _mm512_mul_pd(s1.pending, d1));
    const __m512d paid2 = _mm512_add_pd(s2.paid, _mm512_mul_pd(s2.pending, d2));
    const __m512d sum = _mm512_add_pd(_mm512_add_pd(known, paid1), paid2);
    _mm512_storeu_pd(out, _mm512_div_pd(sum, _mm512_set1_pd(t_end - t_start)));
}

}  // namespace

void spike_distance_pairs_avx512(std::span<const knots_pair> pairs, const kreuz_options& options,
                                 double* out) {
    if (pairs.empty()) return;
    // Every gather addresses its step by its offset from this origin.
    const char* const origin = reinterpret_cast<const char*>(pairs[0].a->steps.data());
    for (std::size_t p = 0; p < pairs.size(); p += lanes) {
        const std::size_t count = std::min(lanes, pairs.size() - p);
        lane_trains a{}, b{};
        fill_lanes(pairs, p, count, a, b);
        double d[lanes];
        walk_eight(a, b, origin, options, d);
        std::copy_n(d, count, out + p);
    }
}

}  // namespace volley::snn::analysis::detail

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif  // the portable fallback is in kreuz_pairs.cpp
