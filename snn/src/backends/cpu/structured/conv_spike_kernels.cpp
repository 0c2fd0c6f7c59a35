// The spike kernels of a convolutional projection (see conv_spike_kernels.hpp).

#include "backends/cpu/structured/conv_spike_kernels.hpp"

#include <cstddef>
#include <cstdint>

namespace volley::snn::detail {

// The hot loop of a convolutional projection, compiled for AVX-512, AVX2 and the baseline
// and chosen at load time (GCC function multi-versioning). Integer additions round nowhere,
// so every version gives the same sums.
namespace {

/// a[0, n) += w[0, n), with n = N when N > 0 (a fixed number of vector additions, no loop or
/// remainder); `a` and `w` never overlap. With Mul, a[0, n) += w[0, n)·mult (a group of
/// `mult` spikes with the same slices).
template <class Word, std::uint32_t N, bool Mul>
[[gnu::always_inline]] inline void add_slice(Word* __restrict a, const Word* __restrict w, std::uint32_t n, Word mult) {
    const std::uint32_t m = N == 0 ? n : N;
    for (std::uint32_t c = 0; c < m; ++c) a[c] += Mul ? w[c] * mult : w[c];
}

/// Adds the slices of one spike of source p. Everything the loops need is first copied into
/// locals: the stores into the accumulator could alias the view's integer arrays (a 32-bit
/// accumulator may alias uint32_t), which would otherwise reload them after every store. RY and
/// RX, when not 0, are the numbers of row and column taps known at compile time (the interior
/// of a map), so that the loops unroll into straight-line additions.
template <class Word, bool Mul, std::uint32_t N, std::uint32_t RY, std::uint32_t RX>
[[gnu::always_inline]] inline void deliver_spike(const conv_projection::view<Word>& v, conv_projection::place p, Word mult,
                                                 std::uint32_t r0, std::uint32_t r1, std::uint32_t c0, std::uint32_t c1) {
    const std::uint32_t n = N == 0 ? v.ch_count[p.ch] : N;
    const std::uint32_t ny = RY == 0 ? r1 - r0 : RY, nx = RX == 0 ? c1 - c0 : RX;
    const std::size_t n_ch = v.n_ch, row_stride = std::size_t{v.out_w} * n_ch, kw = v.kw;
    const std::uint64_t* const slice_of = v.slice_of + std::size_t{p.ch} * v.kh * kw;
    Word* const out = v.acc + v.ch_first[p.ch];
    const Word* const slices = v.slices;
    const conv_projection::tap* const row_taps = v.row_taps + r0;
    const conv_projection::tap* const col_taps = v.col_taps + c0;
    for (std::uint32_t r = 0; r < ny; ++r) {
        const conv_projection::tap rt = row_taps[r];
        Word* const row = out + rt.out * row_stride;
        const std::uint64_t* const row_slices = slice_of + rt.k * kw;
        for (std::uint32_t q = 0; q < nx; ++q) {
            const conv_projection::tap ct = col_taps[q];
            add_slice<Word, N, Mul>(row + ct.out * n_ch, slices + row_slices[ct.k], n, mult);
        }
    }
}

template <class Word, bool Mul, std::uint32_t N>
[[gnu::always_inline]] inline void deliver_spike(const conv_projection::view<Word>& v, conv_projection::place p, Word mult) {
    const std::uint32_t r0 = v.row_tap_begin[p.iy], r1 = v.row_tap_begin[p.iy + 1];
    const std::uint32_t c0 = v.col_tap_begin[p.ix], c1 = v.col_tap_begin[p.ix + 1];
    if (r1 - r0 == 3 && c1 - c0 == 3) deliver_spike<Word, Mul, N, 3, 3>(v, p, mult, r0, r1, c0, c1);
    else deliver_spike<Word, Mul, N, 0, 0>(v, p, mult, r0, r1, c0, c1);
}

/// Adds one strip (length L, or `len` when L is 0) per row tap of a spike of source p, whose
/// input column has strip pattern `pat`. Returns false, adding nothing, when its channel has no
/// strips.
template <class Word, bool Mul, std::uint32_t L>
[[gnu::always_inline]] inline bool deliver_strips(const conv_projection::view<Word>& v, conv_projection::place p, Word mult,
                                                  std::uint32_t pat, std::uint32_t len) {
    const std::uint32_t r0 = v.row_tap_begin[p.iy], r1 = v.row_tap_begin[p.iy + 1];
    const std::size_t n_ch = v.n_ch, row_stride = std::size_t{v.out_w} * n_ch, n_pat = v.n_patterns;
    const std::uint64_t* const strip_of = v.strip_of + std::size_t{p.ch} * v.kh * n_pat + pat;
    if (*strip_of == ~std::uint64_t{0}) return false;
    Word* const out = v.acc + v.col_first_out[p.ix] * n_ch;
    const Word* const strips = v.strips;
    const conv_projection::tap* const row_taps = v.row_taps;
    for (std::uint32_t r = r0; r < r1; ++r) {
        const conv_projection::tap rt = row_taps[r];
        add_slice<Word, L, Mul>(out + rt.out * row_stride, strips + strip_of[rt.k * n_pat], len, mult);
    }
    return true;
}

/// Delivers `count` sources: spikes (Mul false; returns their synaptic events), or groups of
/// sources with the same slices, group k standing for mults[k] spikes (Mul true; returns 0,
/// the caller counts the events of each spike).
template <class Word, bool Mul>
[[gnu::always_inline]] inline std::uint64_t conv_spike_body(const conv_projection::view<Word>& v,
                                                           const std::uint32_t* spikes, const Word* mults,
                                                           std::size_t count) {
    std::uint64_t events = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t i = spikes[k];
        const conv_projection::place p = v.places[i];
        const Word mult = Mul ? mults[k] : Word{1};
        if (!Mul) events += v.fanout[i];
        if (v.strips) {
            const std::uint32_t pat = v.col_pattern[p.ix];
            if (pat != conv_projection::no_strip) {
                const std::uint32_t len = v.pattern_taps[pat] * v.n_ch;
                bool done = false;
                switch (len) {
                    case 96: done = deliver_strips<Word, Mul, 96>(v, p, mult, pat, len); break;
                    case 64: done = deliver_strips<Word, Mul, 64>(v, p, mult, pat, len); break;
                    case 48: done = deliver_strips<Word, Mul, 48>(v, p, mult, pat, len); break;
                    default: done = deliver_strips<Word, Mul, 0>(v, p, mult, pat, len); break;
                }
                if (done) continue;
            }
        }
        switch (v.ch_count[p.ch]) {
            case 0: break;
            case 8: deliver_spike<Word, Mul, 8>(v, p, mult); break;
            case 16: deliver_spike<Word, Mul, 16>(v, p, mult); break;
            case 32: deliver_spike<Word, Mul, 32>(v, p, mult); break;
            case 64: deliver_spike<Word, Mul, 64>(v, p, mult); break;
            default: deliver_spike<Word, Mul, 0>(v, p, mult); break;
        }
    }
    return events;
}

}  // namespace

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
[[gnu::target_clones("avx512f", "avx2", "default")]]
#endif
std::uint64_t conv_spike_kernel(const conv_projection::view<std::int64_t>& v, const std::uint32_t* spikes,
                                std::size_t count) {
    return conv_spike_body<std::int64_t, false>(v, spikes, nullptr, count);
}

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
[[gnu::target_clones("avx512f", "avx2", "default")]]
#endif
std::uint64_t conv_spike_kernel(const conv_projection::view<std::int32_t>& v, const std::uint32_t* spikes,
                                std::size_t count) {
    return conv_spike_body<std::int32_t, false>(v, spikes, nullptr, count);
}

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
[[gnu::target_clones("avx512f", "avx2", "default")]]
#endif
void conv_group_kernel(const conv_projection::view<std::int32_t>& v, const std::uint32_t* groups,
                       const std::int32_t* mults, std::size_t count) {
    conv_spike_body<std::int32_t, true>(v, groups, mults, count);
}

}  // namespace volley::snn::detail
