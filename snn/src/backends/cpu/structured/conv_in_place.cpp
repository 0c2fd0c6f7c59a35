// Sums read in place (see conv_projection.hpp): a zero-delay convolution that is a plain IF
// population's only input leaves its 32-bit sums for the IF step, transposed into the
// population's order, instead of moving them into ring cells.

#include <volley/error.hpp>

#include <algorithm>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "backends/cpu/structured/conv_projection.hpp"
#include "backends/cpu/cpu_isa.hpp"

namespace volley::snn::detail {

namespace {

/// chw[(o_lo + k) * out_hw + p] = acc[p * n_ch + k] for k in [k0, k1), p in [p0, p1).
void transpose_sums(const std::int32_t* acc, std::uint32_t n_ch, std::uint32_t out_hw, std::uint32_t o_lo, std::int32_t* chw,
                    std::uint32_t k0, std::uint32_t k1, std::uint32_t p0, std::uint32_t p1) {
    for (std::uint32_t k = k0; k < k1; ++k) {
        std::int32_t* row = chw + std::size_t{o_lo + k} * out_hw;
        for (std::uint32_t p = p0; p < p1; ++p) row[p] = acc[std::size_t{p} * n_ch + k];
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
/// transpose_sums over every channel and position, 16 x 16 blocks in registers (unpack 32-bit
/// pairs, then 64-bit pairs, then two rounds of 128-bit lane shuffles), the rest as above.
[[gnu::target("avx512f")]]
void transpose_sums_avx512(const std::int32_t* acc, std::uint32_t n_ch, std::uint32_t out_hw, std::uint32_t o_lo,
                           std::int32_t* chw) {
    const std::uint32_t k_full = n_ch / 16 * 16, p_full = out_hw / 16 * 16;
    for (std::uint32_t k0 = 0; k0 < k_full; k0 += 16)
        for (std::uint32_t p0 = 0; p0 < p_full; p0 += 16) {
            __m512i r[16], t[16];
            for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_si512(acc + std::size_t{p0 + i} * n_ch + k0);
            for (int a = 0; a < 8; ++a) {
                t[2 * a] = _mm512_maskz_unpacklo_epi32(0xFFFF, r[2 * a], r[2 * a + 1]);
                t[2 * a + 1] = _mm512_maskz_unpackhi_epi32(0xFFFF, r[2 * a], r[2 * a + 1]);
            }
            // r[4b + c], lane L: column 4L + c of rows 4b ... 4b + 3.
            for (int b = 0; b < 4; ++b) {
                r[4 * b] = _mm512_maskz_unpacklo_epi64(0xFF, t[4 * b], t[4 * b + 2]);
                r[4 * b + 1] = _mm512_maskz_unpackhi_epi64(0xFF, t[4 * b], t[4 * b + 2]);
                r[4 * b + 2] = _mm512_maskz_unpacklo_epi64(0xFF, t[4 * b + 1], t[4 * b + 3]);
                r[4 * b + 3] = _mm512_maskz_unpackhi_epi64(0xFF, t[4 * b + 1], t[4 * b + 3]);
            }
            for (int c = 0; c < 4; ++c) {
                const __m512i x0 = _mm512_maskz_shuffle_i32x4(0xFFFF, r[c], r[4 + c], 0x44), x1 = _mm512_maskz_shuffle_i32x4(0xFFFF, r[c], r[4 + c], 0xEE);
                const __m512i y0 = _mm512_maskz_shuffle_i32x4(0xFFFF, r[8 + c], r[12 + c], 0x44),
                              y1 = _mm512_maskz_shuffle_i32x4(0xFFFF, r[8 + c], r[12 + c], 0xEE);
                const int column[4] = {c, 4 + c, 8 + c, 12 + c};
                const __m512i out[4] = {_mm512_maskz_shuffle_i32x4(0xFFFF, x0, y0, 0x88), _mm512_maskz_shuffle_i32x4(0xFFFF, x0, y0, 0xDD),
                                        _mm512_maskz_shuffle_i32x4(0xFFFF, x1, y1, 0x88), _mm512_maskz_shuffle_i32x4(0xFFFF, x1, y1, 0xDD)};
                for (int m = 0; m < 4; ++m)
                    _mm512_storeu_si512(chw + std::size_t{o_lo + k0 + static_cast<std::uint32_t>(column[m])} * out_hw + p0, out[m]);
            }
        }
    transpose_sums(acc, n_ch, out_hw, o_lo, chw, 0, k_full, p_full, out_hw);
    transpose_sums(acc, n_ch, out_hw, o_lo, chw, k_full, n_ch, 0, out_hw);
}
#endif

}  // namespace

void conv_projection::read_in_place() {
    if (!narrow_ || empty()) throw internal_error("read_in_place needs the 32-bit path and owned targets");
    chw32_.assign(std::size_t{o_lo_ + n_ch_} * out_hw_, 0);
}

conv_projection::in_place_input conv_projection::take_in_place() {
    if (!dirty32_) {
        if (chw_dirty_) std::fill(chw32_.begin(), chw32_.end(), 0);
        chw_dirty_ = false;
        return {chw32_.data(), shift_};
    }
#if defined(__GNUC__) && defined(__x86_64__)
    const bool wide = wide_;
    if (wide) transpose_sums_avx512(acc32_.data(), n_ch_, out_hw_, o_lo_, chw32_.data());
    else
#endif
        transpose_sums(acc32_.data(), n_ch_, out_hw_, o_lo_, chw32_.data(), 0, n_ch_, 0, out_hw_);
    std::fill(acc32_.begin(), acc32_.end(), 0);
    dirty32_ = false;
    chw_dirty_ = true;
    return {chw32_.data(), shift_};
}

}  // namespace volley::snn::detail
