// The dense lif_exp step in AVX-512 intrinsics (see lif_exp_avx512.hpp).
//
// The same operations in the same order as lif_dense_kernel.inc, with no FMA, so the result is
// bit-identical to the baseline and AVX2 kernels (tests/cli/test_cli.cpp compares them). What
// differs is the bookkeeping: the refractory test is one byte compare into a mask register,
// the selects are mask blends, and the spikes leave as bits, where the compiled loop widens
// every byte flag to a 64-bit lane mask and back.

#include "backends/cpu/lif_exp_avx512.hpp"

#include <immintrin.h>

namespace volley::snn::detail {

[[gnu::target("avx512f,avx512bw,avx512vl,avx512dq")]] void lif_exp_block_avx512(
    std::uint32_t n, double* __restrict v, double* __restrict ie, double* __restrict ii,
    const std::uint8_t* __restrict held, std::uint64_t* __restrict fired, const lif_exp_constants& c) {
    const __m512d v_rest = _mm512_set1_pd(c.v_rest), v_reset = _mm512_set1_pd(c.v_reset),
                  v_thresh = _mm512_set1_pd(c.v_thresh), p22 = _mm512_set1_pd(c.p22), p21e = _mm512_set1_pd(c.p21e),
                  p21i = _mm512_set1_pd(c.p21i), drive = _mm512_set1_pd(c.i_ext_p20), p11e = _mm512_set1_pd(c.p11e),
                  p11i = _mm512_set1_pd(c.p11i);
    const __m128i zero = _mm_setzero_si128();
    std::uint64_t word = 0;
    for (std::uint32_t i = 0; i < n; i += 8) {
        const std::uint32_t left = n - i;
        const __mmask8 lanes = left >= 8 ? __mmask8(0xff) : __mmask8((1u << left) - 1);
        const __m512d vv = _mm512_maskz_loadu_pd(lanes, v + i);
        const __m512d e = _mm512_maskz_loadu_pd(lanes, ie + i);
        const __m512d h = _mm512_maskz_loadu_pd(lanes, ii + i);
        const __mmask8 active =
            static_cast<__mmask8>(_mm_mask_cmpeq_epi8_mask(lanes, _mm_maskz_loadu_epi8(lanes, held + i), zero));
        // v_rest + (v - v_rest) * p22 + ie * p21e + ii * p21i + i_ext * p20, left to right.
        __m512d vp = _mm512_add_pd(v_rest, _mm512_mul_pd(_mm512_sub_pd(vv, v_rest), p22));
        vp = _mm512_add_pd(vp, _mm512_mul_pd(e, p21e));
        vp = _mm512_add_pd(vp, _mm512_mul_pd(h, p21i));
        vp = _mm512_add_pd(vp, drive);
        const __m512d vn = _mm512_mask_blend_pd(active, vv, vp);
        const __mmask8 spike = _mm512_mask_cmp_pd_mask(active, vn, v_thresh, _CMP_GE_OQ);
        _mm512_mask_storeu_pd(v + i, lanes, _mm512_mask_blend_pd(spike, vn, v_reset));
        if (c.decay) {
            _mm512_mask_storeu_pd(ie + i, lanes, _mm512_mul_pd(e, p11e));
            _mm512_mask_storeu_pd(ii + i, lanes, _mm512_mul_pd(h, p11i));
        }
        word |= std::uint64_t{spike} << (i & 63);
        if ((i & 63) == 56 || left <= 8) {
            fired[i / 64] = word;
            word = 0;
        }
    }
}

}  // namespace volley::snn::detail
