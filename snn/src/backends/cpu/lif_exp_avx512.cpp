// The dense lif_exp step in AVX-512 intrinsics (see lif_exp_avx512.hpp).
//
// The same operations in the same order as the scaled kernel of lif_dense_kernel.inc (K = 3),
// with no FMA, so the result is bit-identical to the baseline and AVX2 kernels
// (tests/cli/test_cli.cpp compares them). What differs is the bookkeeping: the refractory test
// is one byte compare per 64 neurons into a mask register, refractory neurons are skipped by
// a masked store, and the spikes leave as bits, where the compiled loop widens every byte flag
// to a 64-bit lane mask and back.

#include "backends/cpu/lif_exp_avx512.hpp"

#include <immintrin.h>

namespace volley::snn::detail {

[[gnu::target("avx512f,avx512bw,avx512vl,avx512dq")]] void lif_exp_block_avx512(
    std::uint32_t n, double* __restrict v, const double* __restrict ie, const double* __restrict ii,
    const std::uint8_t* __restrict held, std::uint64_t* __restrict fired, const lif_exp_constants& c) {
    const __m512d v_reset = _mm512_set1_pd(c.v_reset), v_thresh = _mm512_set1_pd(c.v_thresh),
                  p22 = _mm512_set1_pd(c.p22), p21e = _mm512_set1_pd(c.p21e), p21i = _mm512_set1_pd(c.p21i),
                  drive = _mm512_set1_pd(c.i_ext_p20);
    for (std::uint32_t i = 0; i < n; i += 64) {
        const std::uint32_t left = n - i;
        const std::uint64_t lanes = left >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << left) - 1;
        const __m512i flags = _mm512_maskz_loadu_epi8(lanes, held + i);
        const std::uint64_t idle = _mm512_mask_testn_epi8_mask(lanes, flags, flags);  // in range, not refractory
        std::uint64_t word = 0;
        for (std::uint32_t j = 0; j < 8 && 8 * j < left; ++j) {
            const std::uint32_t k = i + 8 * j;
            const auto in = static_cast<__mmask8>(lanes >> (8 * j));
            const auto active = static_cast<__mmask8>(idle >> (8 * j));
            const __m512d vv = _mm512_maskz_loadu_pd(in, v + k);
            // v·p22 + ie·p21e + ii·p21i + i_ext·p20, left to right.
            __m512d vp = _mm512_mul_pd(vv, p22);
            vp = _mm512_add_pd(vp, _mm512_mul_pd(_mm512_maskz_loadu_pd(in, ie + k), p21e));
            vp = _mm512_add_pd(vp, _mm512_mul_pd(_mm512_maskz_loadu_pd(in, ii + k), p21i));
            vp = _mm512_add_pd(vp, drive);
            const __mmask8 spike = _mm512_mask_cmp_pd_mask(active, vp, v_thresh, _CMP_GE_OQ);
            _mm512_mask_storeu_pd(v + k, active, _mm512_mask_blend_pd(spike, vp, v_reset));
            word |= std::uint64_t{spike} << (8 * j);
        }
        fired[i / 64] = word;
    }
}

}  // namespace volley::snn::detail
