// Run-ahead of a unit IF population with no input (see discrete_population.hpp): ahead_steps
// steps per pass over v. One step of a neuron is that of if_block_body<·, true, 0> and
// if_unit_avx512<0> (discrete_if_kernel.cpp): u = 0 + i_bias, v ← v + u, a spike when
// v > θ, then v − θ (reset by subtraction) or the reset value; the same operations in the same
// order, so the same doubles. The spikes of each step are kept as one bit per neuron and listed
// when the engine reaches that step.

#include <algorithm>
#include <bit>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include "backends/cpu/avx2_list_bits.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/discrete_population.hpp"

namespace volley::snn::detail {

namespace {

/// The parameters of the pass: n neurons, `steps` steps, one threshold and reset.
struct ahead_pass {
    const double* v_start;
    const double* bias;
    double* v_end;
    std::uint8_t* bits;  ///< [step][neuron / 8], bit neuron % 8
    std::uint32_t n, steps;
    double threshold, reset;
    bool subtract;
};

/// One step of one neuron (the arithmetic of the one-step kernels); true when it fires.
inline bool step_one(double& v, double u, const ahead_pass& a) {
    const double w = v + u;
    const bool spike = w > a.threshold;
    v = spike ? (a.subtract ? w - a.threshold : a.reset) : w;
    return spike;
}

/// Neurons [first, n) of the pass, one at a time.
void pass_scalar(const ahead_pass& a, std::uint32_t first) {
    const std::size_t bytes = (a.n + 7) / 8;
    for (std::uint32_t k = 0; k < a.steps; ++k)
        for (std::uint32_t b = first / 8; b < bytes; ++b) a.bits[k * bytes + b] = 0;
    for (std::uint32_t i = first; i < a.n; ++i) {
        double v = a.v_start[i];
        const double u = 0.0 + a.bias[i];
        for (std::uint32_t k = 0; k < a.steps; ++k)
            a.bits[k * bytes + i / 8] |= static_cast<std::uint8_t>(step_one(v, u, a) ? 1u << (i % 8) : 0u);
        a.v_end[i] = v;
    }
}

/// The listing of step k's bits: local indices, ascending.
std::uint32_t list_scalar(const std::uint8_t* bits, std::uint32_t n, std::uint32_t* out) {
    std::uint32_t count = 0;
    for (std::uint32_t b = 0; b < (n + 7) / 8; ++b)
        for (unsigned m = bits[b]; m != 0; m &= m - 1) out[count++] = 8 * b + static_cast<std::uint32_t>(std::countr_zero(m));
    return count;
}

#if defined(__GNUC__) && defined(__x86_64__)
/// Eight neurons per vector, W vectors side by side (each step of one vector waits for the
/// one before, so independent vectors fill the pipeline); v stays in registers over the steps.
template <int W>
[[gnu::target("avx512f,avx512dq,avx512vl"), gnu::always_inline]] inline void pass_vectors(const ahead_pass& a,
                                                                                       std::uint32_t i) {
    const std::size_t bytes = (a.n + 7) / 8;
    const __m512d thr = _mm512_set1_pd(a.threshold), reset = _mm512_set1_pd(a.reset);
    __m512d v[W], u[W];
    for (int w = 0; w < W; ++w) {
        v[w] = _mm512_loadu_pd(a.v_start + i + 8 * w);
        u[w] = _mm512_add_pd(_mm512_setzero_pd(), _mm512_loadu_pd(a.bias + i + 8 * w));
    }
    std::uint8_t* bits = a.bits + i / 8;
    for (std::uint32_t k = 0; k < a.steps; ++k)
        for (int w = 0; w < W; ++w) {
            v[w] = _mm512_add_pd(v[w], u[w]);
            const __mmask8 fire = _mm512_cmp_pd_mask(v[w], thr, _CMP_GT_OQ);
            v[w] = _mm512_mask_blend_pd(fire, v[w], a.subtract ? _mm512_sub_pd(v[w], thr) : reset);
            bits[k * bytes + static_cast<std::size_t>(w)] = static_cast<std::uint8_t>(fire);
        }
    for (int w = 0; w < W; ++w) _mm512_storeu_pd(a.v_end + i + 8 * w, v[w]);
}

[[gnu::target("avx512f,avx512dq,avx512vl")]] void pass_avx512(const ahead_pass& a) {
    std::uint32_t i = 0;
    for (; i + 32 <= a.n; i += 32) pass_vectors<4>(a, i);
    for (; i + 8 <= a.n; i += 8) pass_vectors<1>(a, i);
    if (i < a.n) pass_scalar(a, i);
}

/// pass_vectors with four neurons per vector: 2W vectors make W bytes of a step's bits.
template <int W>
[[gnu::target("avx2"), gnu::always_inline]] inline void pass_vectors_avx2(const ahead_pass& a, std::uint32_t i) {
    const std::size_t bytes = (a.n + 7) / 8;
    const __m256d thr = _mm256_set1_pd(a.threshold), reset = _mm256_set1_pd(a.reset);
    __m256d v[2 * W], u[2 * W];
    for (int w = 0; w < 2 * W; ++w) {
        v[w] = _mm256_loadu_pd(a.v_start + i + 4 * w);
        u[w] = _mm256_add_pd(_mm256_setzero_pd(), _mm256_loadu_pd(a.bias + i + 4 * w));
    }
    std::uint8_t* bits = a.bits + i / 8;
    for (std::uint32_t k = 0; k < a.steps; ++k)
        for (int w = 0; w < W; ++w) {
            unsigned byte = 0;
            for (int h = 0; h < 2; ++h) {
                __m256d& x = v[2 * w + h];
                x = _mm256_add_pd(x, u[2 * w + h]);
                const __m256d fire = _mm256_cmp_pd(x, thr, _CMP_GT_OQ);
                x = _mm256_blendv_pd(x, a.subtract ? _mm256_sub_pd(x, thr) : reset, fire);
                byte |= static_cast<unsigned>(_mm256_movemask_pd(fire)) << (4 * h);
            }
            bits[k * bytes + static_cast<std::size_t>(w)] = static_cast<std::uint8_t>(byte);
        }
    for (int w = 0; w < 2 * W; ++w) _mm256_storeu_pd(a.v_end + i + 4 * w, v[w]);
}

[[gnu::target("avx2")]] void pass_avx2(const ahead_pass& a) {
    std::uint32_t i = 0;
    for (; i + 16 <= a.n; i += 16) pass_vectors_avx2<2>(a, i);
    for (; i + 8 <= a.n; i += 8) pass_vectors_avx2<1>(a, i);
    if (i < a.n) pass_scalar(a, i);
}

/// list_scalar eight neurons at a time by AVX2's table compress (the last byte's bits past n
/// are 0: the passes write whole bytes only for eight neurons); `out` has 16 spare slots.
[[gnu::target("avx2")]] std::uint32_t list_avx2(const std::uint8_t* bits, std::uint32_t n, std::uint32_t* out) {
    std::uint32_t count = 0;
    for (std::uint32_t b = 0; b < (n + 7) / 8; ++b) count += list_bits_avx2(bits[b], 8 * b, out + count);
    return count;
}

/// list_scalar sixteen neurons at a time, compressed in registers; `out` has 16 spare slots.
[[gnu::target("avx512f")]] std::uint32_t list_avx512(const std::uint8_t* bits, std::uint32_t n, std::uint32_t* out) {
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    std::uint32_t count = 0, b = 0;
    for (; 8 * b + 16 <= n; b += 2) {
        const auto m = static_cast<__mmask16>(bits[b] | bits[b + 1] << 8);
        _mm512_storeu_si512(out + count, _mm512_maskz_compress_epi32(m, _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int>(8 * b)))));
        count += static_cast<std::uint32_t>(std::popcount(static_cast<unsigned>(m)));
    }
    for (; b < (n + 7) / 8; ++b)
        for (unsigned m = bits[b]; m != 0; m &= m - 1) out[count++] = 8 * b + static_cast<std::uint32_t>(std::countr_zero(m));
    return count;
}
#endif

}  // namespace

void discrete_population::update_ahead(std::vector<std::uint32_t>& spikes) {
    if (ahead_given_ == ahead_end_.size()) {
        if (!ahead_end_.empty()) v_.swap(ahead_v_);  // the steps computed so far are all handed out
        const std::size_t bytes = (n_ + 7) / 8;
        ahead_v_.resize(n_);
        ahead_bits_.resize(ahead_steps * bytes);
        ahead_spikes_.resize(ahead_steps * (std::size_t{n_} + 16));
        const ahead_pass a{v_.data(), i_bias_.data(), ahead_v_.data(), ahead_bits_.data(), n_, ahead_steps,
                           v_threshold_[0], v_reset_[0], subtracts()};
#if defined(__GNUC__) && defined(__x86_64__)
        const bool wide = isa_ == cpu_isa::avx512;
        if (wide) pass_avx512(a);
        else if (isa_ == cpu_isa::avx2) pass_avx2(a);
        else
#endif
            pass_scalar(a, 0);
        ahead_end_.clear();
        std::uint32_t end = 0;
        for (std::uint32_t k = 0; k < ahead_steps; ++k) {
#if defined(__GNUC__) && defined(__x86_64__)
            if (wide) end += list_avx512(ahead_bits_.data() + k * bytes, n_, ahead_spikes_.data() + end);
            else if (isa_ == cpu_isa::avx2) end += list_avx2(ahead_bits_.data() + k * bytes, n_, ahead_spikes_.data() + end);
            else
#endif
                end += list_scalar(ahead_bits_.data() + k * bytes, n_, ahead_spikes_.data() + end);
            ahead_end_.push_back(end);
        }
        ahead_given_ = 0;
    }
    const std::uint32_t b = ahead_given_ == 0 ? 0 : ahead_end_[ahead_given_ - 1], e = ahead_end_[ahead_given_];
    spikes.insert(spikes.end(), ahead_spikes_.begin() + b, ahead_spikes_.begin() + e);
    ++ahead_given_;
}

void discrete_population::replay(std::uint32_t steps, std::vector<double>& out) const {
    out = v_;
    const ahead_pass a{nullptr, nullptr, nullptr, nullptr, n_, steps, v_threshold_[0], v_reset_[0], subtracts()};
    for (std::uint32_t i = 0; i < n_; ++i) {
        const double u = 0.0 + i_bias_[i];
        for (std::uint32_t k = 0; k < steps; ++k) step_one(out[i], u, a);
    }
}

void discrete_population::settle() {
    if (ahead_end_.empty()) return;
    if (ahead_given_ == ahead_end_.size()) {
        v_.swap(ahead_v_);
    } else {
        std::vector<double> now;
        replay(ahead_given_, now);
        v_.swap(now);
    }
    ahead_end_.clear();
    ahead_given_ = 0;
}

}  // namespace volley::snn::detail
