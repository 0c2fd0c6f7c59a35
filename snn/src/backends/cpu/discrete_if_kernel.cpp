// The step of plain integrate-and-fire discrete_neuron populations (no leak, no synaptic
// stage, v_leak = 0: the neurons of CNN conversion), in a loop that vectorises.
//
// It performs the operations of discrete_population::update in the same order, so the results
// are bit-identical: with mem_keep = mem_gain = 1, cross = 0 and v_leak = 0 the general
// formula v_leak + (v - v_leak)·1 + 1·r·u + 0 reduces exactly to v + r·u. Branches become
// bit selects (as in lif_dense_kernel.inc) and the spike flags are collected afterwards, in
// blocks that stay in L1. Compiled for AVX-512 (which converts int64 to double in vectors),
// AVX2 (which converts the ring's cells with split_to_double, the same bits) and the baseline,
// chosen at run time. No target enables FMA and ISO C++ mode (-std=c++20) keeps
// -ffp-contract=off, so all round the same.

#include <algorithm>
#include <bit>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif
#include <cstring>

#include "backends/cpu/avx2_list_bits.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/discrete_population.hpp"
#include "backends/cpu/split_to_double.hpp"

namespace volley::snn::detail {

namespace {

inline double select(std::uint64_t mask, double a, double b) {
    return std::bit_cast<double>((std::bit_cast<std::uint64_t>(a) & mask) | (std::bit_cast<std::uint64_t>(b) & ~mask));
}

struct if_columns {
    std::int64_t* cells;
    double scale_e, scale_i;
    double *v;
    const double *r, *w_in, *i_bias, *threshold, *reset;
    bool subtract;
    /// r = w_in = 1 and one threshold and reset for all: multiplying by 1 is exact, so the
    /// step reads only the ring cells, i_bias and v.
    bool unit = false;
    /// The receptors whose cells may hold input: 0 (none: x = 0), 1 (excitatory only: the
    /// inhibitory cells are 0, and x = e·scale_e + 0 is the same sum) or 2 (both); 3: no
    /// cells, the excitatory input is sums[i] · 2^sums_shift (the value the convolution's
    /// flush would have put into the cell).
    int receptors = 2;
    const std::int32_t* sums = nullptr;
    std::uint32_t sums_shift = 0;
};

template <bool Split, bool Unit, int Receptors>
[[gnu::always_inline]] inline void if_block_body(const if_columns& c, std::uint32_t b0, std::uint32_t b1, std::uint8_t* __restrict flag) {
    std::int64_t* __restrict cells = c.cells + 2 * std::size_t{b0};
    double* __restrict v_col = c.v + b0;
    const double* __restrict r = c.r + b0;
    const double* __restrict w_in = c.w_in + b0;
    const double* __restrict bias = c.i_bias + b0;
    const double* __restrict thr = c.threshold + b0;
    const double* __restrict reset = c.reset + b0;
    const double se = c.scale_e, si = c.scale_i, thr0 = c.threshold[b0], reset0 = c.reset[b0];
    const std::uint64_t subtract = c.subtract ? ~std::uint64_t{0} : 0;
    const std::int32_t* __restrict sums = Receptors == 3 ? c.sums + b0 : nullptr;
    const int n = static_cast<int>(b1 - b0);
    for (int i = 0; i < n; ++i) {
        double x = 0;
        if constexpr (Receptors == 3)
            x = to_double<Split>(static_cast<std::int64_t>(sums[i]) << c.sums_shift) * se;
        else if constexpr (Receptors == 2)
            x = to_double<Split>(cells[2 * i]) * se + to_double<Split>(cells[2 * i + 1]) * si;
        else if constexpr (Receptors == 1)
            x = to_double<Split>(cells[2 * i]) * se;
        if constexpr (Receptors == 1 || Receptors == 2) cells[2 * i] = 0;
        if constexpr (Receptors == 2) cells[2 * i + 1] = 0;
        const double u = Unit ? x + bias[i] : w_in[i] * (x + bias[i]);
        const double v = Unit ? v_col[i] + u : v_col[i] + r[i] * u;
        const double t = Unit ? thr0 : thr[i];
        const std::uint64_t spike = -static_cast<std::uint64_t>(v > t);
        const double after = select(subtract, v - t, Unit ? reset0 : reset[i]);
        v_col[i] = select(spike, after, v);
        flag[i] = static_cast<std::uint8_t>(spike & 1);
    }
}

/// if_block_body for the run-time choices of `c`.
template <bool Split>
[[gnu::always_inline]] inline void if_block_dispatch(const if_columns& c, std::uint32_t b0, std::uint32_t b1, std::uint8_t* flag) {
    switch (c.receptors * 2 + (c.unit ? 1 : 0)) {
        case 0: return if_block_body<Split, false, 0>(c, b0, b1, flag);
        case 1: return if_block_body<Split, true, 0>(c, b0, b1, flag);
        case 2: return if_block_body<Split, false, 1>(c, b0, b1, flag);
        case 3: return if_block_body<Split, true, 1>(c, b0, b1, flag);
        case 4: return if_block_body<Split, false, 2>(c, b0, b1, flag);
        case 5: return if_block_body<Split, true, 2>(c, b0, b1, flag);
        case 6: return if_block_body<Split, false, 3>(c, b0, b1, flag);
        default: return if_block_body<Split, true, 3>(c, b0, b1, flag);
    }
}

void if_block_baseline(const if_columns& c, std::uint32_t b0, std::uint32_t b1, std::uint8_t* flag) {
    if_block_dispatch<false>(c, b0, b1, flag);
}

#if defined(__GNUC__) && defined(__x86_64__)
// AVX-512DQ converts int64 to double in vectors; AVX2 needs the split conversion, without
// which the loop stays scalar.
[[gnu::target("avx512f,avx512dq,avx512vl,prefer-vector-width=512")]]
void if_block_avx512(const if_columns& c, std::uint32_t b0, std::uint32_t b1, std::uint8_t* flag) {
    if_block_dispatch<false>(c, b0, b1, flag);
}

[[gnu::target("avx2")]] void if_block_avx2(const if_columns& c, std::uint32_t b0, std::uint32_t b1, std::uint8_t* flag) {
    if_block_dispatch<true>(c, b0, b1, flag);
}
#endif

using if_block_fn = void (*)(const if_columns&, std::uint32_t, std::uint32_t, std::uint8_t*);

/// Writes base + k for every flag[k] != 0, k < n, to out; returns how many.
std::uint32_t extract_baseline(const std::uint8_t* flag, std::uint32_t n, std::uint32_t base, std::uint32_t* out) {
    std::uint32_t count = 0, k = 0;
    for (; k + 8 <= n; k += 8) {
        std::uint64_t word;
        std::memcpy(&word, flag + k, 8);
        while (word != 0) {
            out[count++] = base + k + static_cast<std::uint32_t>(std::countr_zero(word)) / 8;
            word &= word - 1;
        }
    }
    for (; k < n; ++k)
        if (flag[k]) out[count++] = base + k;
    return count;
}

#if defined(__GNUC__) && defined(__x86_64__)
// The same with a compress-store of 16 indices at a time: no branch per spike, which at the
// firing rates of converted networks (~10% per step) would be mispredicted half the time.
[[gnu::target("avx512f")]]
std::uint32_t extract_avx512(const std::uint8_t* flag, std::uint32_t n, std::uint32_t base, std::uint32_t* out) {
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    std::uint32_t count = 0, k = 0;
    for (; k + 16 <= n; k += 16) {
        const __m512i f = _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(flag + k)));
        const __mmask16 m = _mm512_test_epi32_mask(f, f);
        _mm512_mask_compressstoreu_epi32(out + count, m, _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int>(base + k))));
        count += static_cast<std::uint32_t>(std::popcount(static_cast<unsigned>(m)));
    }
    return count + extract_baseline(flag + k, n - k, base + k, out + count);
}

/// The same, 32 flags at a time, with AVX2's table compress (avx2_list_bits.hpp).
[[gnu::target("avx2")]]
std::uint32_t extract_avx2(const std::uint8_t* flag, std::uint32_t n, std::uint32_t base, std::uint32_t* out) {
    std::uint32_t count = 0, k = 0;
    for (; k + 32 <= n; k += 32) {
        const __m256i f = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(flag + k));
        const auto set = ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, _mm256_setzero_si256())));
        if (set == 0) continue;
        for (unsigned b = 0; b < 4; ++b) count += list_bits_avx2(set >> (8 * b) & 0xffu, base + k + 8 * b, out + count);
    }
    return count + extract_baseline(flag + k, n - k, base + k, out + count);
}
#endif

using extract_fn = std::uint32_t (*)(const std::uint8_t*, std::uint32_t, std::uint32_t, std::uint32_t*);

#if defined(__GNUC__) && defined(__x86_64__)
/// The unit IF step (c.unit) over [b0, b1) in one pass: eight neurons per vector, the same
/// operations in the same order as if_block_body, and the indices of the neurons that fire
/// compress-stored into `out` (no flag bytes, no second pass), which has room for b1 - b0 + 8
/// indices. Returns how many fired.
template <int Receptors>
[[gnu::target("avx512f,avx512dq,avx512vl")]] std::uint32_t if_unit_avx512(const if_columns& c, std::uint32_t b0, std::uint32_t b1,
                                                                 std::uint32_t* out) {
    const __m512d se = _mm512_set1_pd(c.scale_e), si = _mm512_set1_pd(c.scale_i);
    const __m512d thr = _mm512_set1_pd(c.threshold[b0]), reset = _mm512_set1_pd(c.reset[b0]);
    const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m128i shift = _mm_cvtsi32_si128(static_cast<int>(c.sums_shift));
    std::uint32_t count = 0, i = b0;
    for (; i + 8 <= b1; i += 8) {
        __m512d x = _mm512_setzero_pd();
        if constexpr (Receptors == 3) {
            const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c.sums + i));
            const __m512i wide = _mm512_maskz_sll_epi64(0xFF, _mm512_maskz_cvtepi32_epi64(0xFF, a), shift);
            x = _mm512_mul_pd(_mm512_cvtepi64_pd(wide), se);
        } else if constexpr (Receptors >= 1) {
            std::int64_t* cell = c.cells + 2 * std::size_t{i};
            const __m512i lo = _mm512_loadu_si512(cell), hi = _mm512_loadu_si512(cell + 8);
            x = _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_permutex2var_epi64(lo, even, hi)), se);
            if constexpr (Receptors == 2)
                x = _mm512_add_pd(x, _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_permutex2var_epi64(lo, odd, hi)), si));
            _mm512_storeu_si512(cell, _mm512_setzero_si512());
            _mm512_storeu_si512(cell + 8, _mm512_setzero_si512());
        }
        const __m512d u = _mm512_add_pd(x, _mm512_loadu_pd(c.i_bias + i));
        const __m512d v = _mm512_add_pd(_mm512_loadu_pd(c.v + i), u);
        const __mmask8 fire = _mm512_cmp_pd_mask(v, thr, _CMP_GT_OQ);
        const __m512d after = c.subtract ? _mm512_sub_pd(v, thr) : reset;
        _mm512_storeu_pd(c.v + i, _mm512_mask_blend_pd(fire, v, after));
        // A compress in registers and a full store (out has 8 spare slots): a compress-store
        // to memory is several times slower on Intel cores.
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + count),
                            _mm256_maskz_compress_epi32(fire, _mm256_add_epi32(iota, _mm256_set1_epi32(static_cast<int>(i)))));
        count += static_cast<std::uint32_t>(std::popcount(static_cast<unsigned>(fire)));
    }
    if (i < b1) {
        alignas(64) std::uint8_t flag[64];  // fewer than 8 used; sized for the vectorised body
        if_block_body<false, true, Receptors>(c, i, b1, flag);
        count += extract_baseline(flag, b1 - i, i, out + count);
    }
    return count;
}
#endif

}  // namespace

void discrete_population::update_plain_if(std::uint32_t begin, std::uint32_t end, const step_input& in,
                                          std::vector<std::uint32_t>& spikes) {
    constexpr std::uint32_t block = 256;
#if defined(__GNUC__) && defined(__x86_64__)
    const bool wide = isa_ == cpu_isa::avx512;
    const if_block_fn if_block = wide ? if_block_avx512 : isa_ == cpu_isa::avx2 ? if_block_avx2 : if_block_baseline;
    const extract_fn extract = wide ? extract_avx512 : isa_ == cpu_isa::avx2 ? extract_avx2 : extract_baseline;
#else
    static const if_block_fn if_block = if_block_baseline;
    static const extract_fn extract = extract_baseline;
#endif
    alignas(64) std::uint8_t flag[block];
    alignas(64) std::uint32_t fired[block + 8];
    const if_columns c{in.cells, in.scale_e, in.scale_i, v_.data(), r_.data(), w_in_.data(), i_bias_.data(),
                       v_threshold_.data(), v_reset_.data(), subtracts(), unit_if_,
                       in.sums ? 3 : !in.fed ? 0 : in.inhibitory ? 2 : 1, in.sums, in.sums_shift};
#if defined(__GNUC__) && defined(__x86_64__)
    if (wide && c.unit) {
        const auto step = c.receptors == 0   ? if_unit_avx512<0>
                          : c.receptors == 1 ? if_unit_avx512<1>
                          : c.receptors == 2 ? if_unit_avx512<2>
                                             : if_unit_avx512<3>;
        for (std::uint32_t b0 = begin; b0 < end; b0 += block) {
            const std::uint32_t count = step(c, b0, std::min(end, b0 + block), fired);
            spikes.insert(spikes.end(), fired, fired + count);
        }
        return;
    }
#endif
    for (std::uint32_t b0 = begin; b0 < end; b0 += block) {
        const std::uint32_t b1 = std::min(end, b0 + block);
        if_block(c, b0, b1, flag);
        const std::uint32_t count = extract(flag, b1 - b0, b0, fired);
        spikes.insert(spikes.end(), fired, fired + count);
    }
}

}  // namespace volley::snn::detail
