// The ISI-distance of sixteen pairs at once: two interleaved groups of eight, one pair per lane
// of AVX-512 vectors (kreuz_pairs.hpp).
//
// Why: the portable walk (isi_distance_unchecked, kreuz_distances.cpp) is bound by its
// loop-carried chain (load the next event of each train, compare, advance), ~3 ns per merged
// event. Here each lane walks its own pair: a train's position is the byte offset of its
// current kreuz_knots::step, and the knot a train reaches next is gathered when it fires. One
// group of eight is bound by the same kind of chain, now through a gather (1.4x the portable
// walk); two independent groups in one loop overlap their chains (2.4x; three gave no more).
// A lane whose trains are both spent is masked off until its group's eight are.
//
// Per lane the operations are those of the portable walk in the same order (the current ISI
// as K[k+1] - K[k], as kreuz_knots computes it), compiled without FMA contraction
// (snn/CMakeLists.txt), so the doubles are the same on either path.

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

constexpr std::size_t groups = 2;

/// |nu1 - nu2| / max(mrts, max(nu1, nu2)) (the value lambda of isi_distance_unchecked).
inline __m512d value(const position& s1, const position& s2, __m512d mrts) {
    return _mm512_div_pd(_mm512_abs_pd(_mm512_sub_pd(s1.isi, s2.isi)),
                         max_pd(max_pd(s1.isi, s2.isi), mrts));
}

/// out[8 g + l] = ISI-distance of a[g][l] and b[g][l] (isi_distance_unchecked, lane by lane).
void walk_sixteen(const std::array<lane_trains, groups>& a,
                  const std::array<lane_trains, groups>& b, const char* origin,
                  const kreuz_options& o, double* out) {
    const __m512d mrts = _mm512_set1_pd(o.mrts_ms);
    const __m512d never = _mm512_set1_pd(std::numeric_limits<double>::infinity());
    position s1[groups], s2[groups];
    __m512d last[groups], sum[groups];
    for (std::size_t g = 0; g < groups; ++g) {
        s1[g] = start_position(a[g], origin);
        s2[g] = start_position(b[g], origin);
        last[g] = _mm512_set1_pd(o.window.start_ms);
        sum[g] = _mm512_setzero_pd();
    }
    for (;;) {
        __mmask8 any = 0;
        for (std::size_t g = 0; g < groups; ++g) {
            const __m512d t = min_pd(s1[g].next, s2[g].next);
            const __mmask8 on = _mm512_cmp_pd_mask(t, never, _CMP_LT_OQ);
            any |= on;
            sum[g] = _mm512_mask_add_pd(
                sum[g], on, sum[g],
                _mm512_mul_pd(value(s1[g], s2[g], mrts), _mm512_sub_pd(t, last[g])));
            last[g] = _mm512_mask_mov_pd(last[g], on, t);
            const __mmask8 fire1 = _mm512_mask_cmp_pd_mask(on, s1[g].next, s2[g].next, _CMP_LE_OQ);
            const __mmask8 fire2 = _mm512_mask_cmp_pd_mask(on, s2[g].next, s1[g].next, _CMP_LE_OQ);
            advance(s1[g], fire1, origin);
            advance(s2[g], fire2, origin);
        }
        if (any == 0) break;
    }
    const __m512d stop = _mm512_set1_pd(o.window.stop_ms);
    const __m512d duration = _mm512_set1_pd(o.window.stop_ms - o.window.start_ms);
    for (std::size_t g = 0; g < groups; ++g) {
        const __mmask8 tail = _mm512_cmp_pd_mask(stop, last[g], _CMP_GT_OQ);
        sum[g] = _mm512_mask_add_pd(
            sum[g], tail, sum[g],
            _mm512_mul_pd(value(s1[g], s2[g], mrts), _mm512_sub_pd(stop, last[g])));
        _mm512_storeu_pd(out + lanes * g, _mm512_div_pd(sum[g], duration));
    }
}

}  // namespace

void isi_distance_pairs_avx512(std::span<const knots_pair> pairs, const kreuz_options& options,
                               double* out) {
    if (pairs.empty()) return;
    // Every gather addresses its step by its offset from this origin.
    const char* const origin = reinterpret_cast<const char*>(pairs[0].a->steps.data());
    constexpr std::size_t walk = groups * lanes;
    for (std::size_t p = 0; p < pairs.size(); p += walk) {
        const std::size_t count = std::min(walk, pairs.size() - p);
        std::array<lane_trains, groups> a{}, b{};
        for (std::size_t g = 0; g < groups; ++g) {
            // Past the last pair, a group repeats it.
            const std::size_t first = std::min(p + g * lanes, p + count - 1);
            fill_lanes(pairs, first, std::min(lanes, p + count - first), a[g], b[g]);
        }
        double d[walk];
        walk_sixteen(a, b, origin, options, d);
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
