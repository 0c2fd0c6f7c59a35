// The flush of a convolutional projection (see conv_projection.hpp): its accumulator moves
// into the target's ring cells (CHW), as a synapse table would have written them.

#include "backends/cpu/structured/conv_projection.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace volley::snn::detail {

namespace {

/// Adds acc[(p, k)]·unit into the cell of each owned target (channel o_lo + k, position p) and
/// lists the targets with input when `touched` is given; then clears acc, the positions of
/// the first and last channel that another thread owns included (the kernel adds there too).
template <class Word>
void move_accumulator(Word* acc, std::int64_t unit, std::uint32_t n_ch, std::uint32_t o_lo, std::uint32_t out_hw,
                      std::uint32_t own_begin, std::uint32_t own_end, std::int64_t* cells, std::int64_t offset,
                      std::vector<std::uint32_t>* touched) {
    for (std::uint32_t k = 0; k < n_ch; ++k) {
        const std::uint32_t o = o_lo + k;
        const std::uint32_t p0 = std::max(own_begin, o * out_hw) - o * out_hw;
        const std::uint32_t p1 = std::min(own_end, (o + 1) * out_hw) - o * out_hw;
        Word* column = acc + k;
        std::int64_t* target = cells + 2 * std::size_t{o} * out_hw;
        for (std::uint32_t p = p0; p < p1; ++p) {
            const std::int64_t v = static_cast<std::int64_t>(column[std::size_t{p} * n_ch]) * unit;
            column[std::size_t{p} * n_ch] = 0;
            if (touched) {
                if (v == 0) continue;
                touched->push_back(static_cast<std::uint32_t>(o * out_hw + p + offset));
            }
            target[2 * std::size_t{p}] += v;
        }
    }
    if (own_begin > o_lo * out_hw || own_end < (o_lo + n_ch) * out_hw)
        std::fill(acc, acc + std::size_t{n_ch} * out_hw, Word{0});
}

#if defined(__GNUC__) && defined(__x86_64__)
/// Adds four 64-bit values (lanes 0-3 of `x`) into the cells of four neurons at `c`, every
/// other word.
[[gnu::target("avx512f"), gnu::always_inline]] inline void add4(std::int64_t* c, __m512i x) {
    const __m512i spread = _mm512_maskz_expand_epi64(0x55, x);
    _mm512_storeu_si512(c, _mm512_add_epi64(_mm512_loadu_si512(c), spread));
}

/// move_accumulator for the 32-bit accumulator of a target that reads every cell (no touched
/// list), 16 positions of one channel at a time: a gather down the channel's column, widened
/// to 64 bits, shifted by `shift` (the unit 2^shift) and added into every other cell.
/// Integer arithmetic: the same sums as the scalar loop.
[[gnu::target("avx512f")]]
void move_accumulator32_avx512(std::int32_t* acc, std::uint32_t shift, std::uint32_t n_ch, std::uint32_t o_lo,
                               std::uint32_t out_hw, std::uint32_t own_begin, std::uint32_t own_end,
                               std::int64_t* cells) {
    const __m512i down = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                            _mm512_set1_epi32(static_cast<int>(n_ch)));
    const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
    for (std::uint32_t k = 0; k < n_ch; ++k) {
        const std::uint32_t o = o_lo + k;
        const std::uint32_t p0 = std::max(own_begin, o * out_hw) - o * out_hw;
        const std::uint32_t p1 = std::min(own_end, (o + 1) * out_hw) - o * out_hw;
        const std::int32_t* column = acc + k;
        std::int64_t* target = cells + 2 * std::size_t{o} * out_hw;
        std::uint32_t p = p0;
        for (; p + 16 <= p1; p += 16) {
            const __m512i index = _mm512_add_epi32(down, _mm512_set1_epi32(static_cast<int>(p * n_ch)));
            // The maskz forms, all lanes set: GCC 12 warns about the plain forms' undefined
            // pass-through operand.
            const __m512i x = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xFFFF, index, column, 4);
            const __m512i lo = _mm512_maskz_sll_epi64(0xFF, _mm512_maskz_cvtepi32_epi64(0xFF, _mm512_maskz_extracti64x4_epi64(0xF, x, 0)), count);
            const __m512i hi = _mm512_maskz_sll_epi64(
                0xFF, _mm512_maskz_cvtepi32_epi64(0xFF, _mm512_maskz_extracti64x4_epi64(0xF, x, 1)), count);
            std::int64_t* c = target + 2 * std::size_t{p};
            add4(c, lo);
            add4(c + 8, _mm512_maskz_shuffle_i64x2(0xFF, lo, lo, 0xEE));
            add4(c + 16, hi);
            add4(c + 24, _mm512_maskz_shuffle_i64x2(0xFF, hi, hi, 0xEE));
        }
        for (; p < p1; ++p) target[2 * std::size_t{p}] += std::int64_t{column[std::size_t{p} * n_ch]} << shift;
    }
    std::fill(acc, acc + std::size_t{n_ch} * out_hw, 0);
}

#endif

}  // namespace

void conv_projection::flush(std::int64_t* cells, std::int64_t offset, std::vector<std::uint32_t>* touched) {
    if (reads_in_place()) return;  // the target takes the sums with take_in_place()
    if (dirty32_ && dirty_) {  // both paths ran this step (cannot happen today): add the narrow sums first
        const std::int64_t unit = std::int64_t{1} << shift_;
        for (std::size_t q = 0; q < acc_.size(); ++q) {
            acc_[q] += acc32_[q] * unit;
            acc32_[q] = 0;
        }
        dirty32_ = false;
    }
#if defined(__GNUC__) && defined(__x86_64__)
    const bool wide = wide_;
    if (dirty32_ && !touched && wide)
        move_accumulator32_avx512(acc32_.data(), shift_, n_ch_, o_lo_, out_hw_, own_begin_, own_end_, cells);
    else
#endif
    if (dirty32_)
        move_accumulator(acc32_.data(), std::int64_t{1} << shift_, n_ch_, o_lo_, out_hw_, own_begin_, own_end_, cells,
                         offset, touched);
    else if (dirty_)
        move_accumulator(acc_.data(), 1, n_ch_, o_lo_, out_hw_, own_begin_, own_end_, cells, offset, touched);
    dirty_ = dirty32_ = false;
}

}  // namespace volley::snn::detail
