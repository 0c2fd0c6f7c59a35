// Delivery through a one-route table whose rows share their targets (see cpu_engine.hpp): an
// all-to-all projection such as a converted dense layer. Adding each spike's row straight into
// the targets' cells chains every addition to the same few cells through memory, one spike
// after another, and costs several cycles per synaptic event. Here the step's rows of weights
// are first summed into one row of 64-bit integers, a contiguous loop that vectorises, and that
// row is added into the targets once. Integer sums: the cells end with the same values as
// when each row is added, in any order and for any thread count.

#include "backends/cpu/cpu_engine.hpp"
#include "backends/cpu/cpu_isa.hpp"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace volley::snn::detail {

namespace {

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
[[gnu::target_clones("avx512f", "avx2", "default")]]
#endif
/// sum[k] += weights[g·n + k] for each spike g (the rows of a shared-target table lie back to
/// back, n weights each).
void add_rows(std::int64_t* __restrict sum, const std::int32_t* __restrict weights, std::size_t n,
              const std::uint32_t* spikes, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const std::int32_t* __restrict row = weights + std::size_t{spikes[i]} * n;
        for (std::size_t k = 0; k < n; ++k) sum[k] += row[k];
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
/// add_rows for rows of n <= 16 weights (a classifier's few targets) on AVX-512: the sums stay
/// in two registers of eight 64-bit lanes over the whole step instead of going through memory
/// after every row; each row is two masked loads, widened.
[[gnu::target("avx512f,avx512vl")]] void add_short_rows_avx512(std::int64_t* __restrict sum,
                                                                const std::int32_t* __restrict weights, std::size_t n,
                                                                const std::uint32_t* spikes, std::size_t count) {
    const auto m0 = static_cast<__mmask8>(n >= 8 ? 0xFF : (1u << n) - 1);
    const auto m1 = static_cast<__mmask8>(n <= 8 ? 0 : (1u << (n - 8)) - 1);
    __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
    for (std::size_t i = 0; i < count; ++i) {
        const std::int32_t* row = weights + std::size_t{spikes[i]} * n;
        a0 = _mm512_add_epi64(a0, _mm512_maskz_cvtepi32_epi64(0xFF, _mm256_maskz_loadu_epi32(m0, row)));
        a1 = _mm512_add_epi64(a1, _mm512_maskz_cvtepi32_epi64(0xFF, _mm256_maskz_loadu_epi32(m1, row + 8)));
    }
    _mm512_mask_storeu_epi64(sum, m0, _mm512_add_epi64(a0, _mm512_maskz_loadu_epi64(m0, sum)));
    _mm512_mask_storeu_epi64(sum + 8, m1, _mm512_add_epi64(a1, _mm512_maskz_loadu_epi64(m1, sum + 8)));
}
#endif

}  // namespace

std::uint64_t cpu_engine::deliver_shared_targets(int t, std::int64_t s, std::uint32_t sp, const synapse_table& table,
                                                 std::int64_t* cells) {
    const auto targets = table.row(0);
    auto& sum = row_sums_[static_cast<std::size_t>(t)];
    sum.assign(targets.size(), 0);
    std::uint64_t spikes = 0;
    for_each_spike_list(s, sp, [&](const std::vector<std::uint32_t>& list) {
#if defined(__GNUC__) && defined(__x86_64__)
        const bool wide = isa_ == cpu_isa::avx512;
        if (wide && sum.size() <= 16)
            add_short_rows_avx512(sum.data(), table.row_weights(0), sum.size(), list.data(), list.size());
        else
#endif
            add_rows(sum.data(), table.row_weights(0), sum.size(), list.data(), list.size());
        spikes += list.size();
    });
    if (spikes == 0) return 0;
    for (std::size_t k = 0; k < targets.size(); ++k) cells[2 * std::size_t{table.target_of(targets[k])}] += sum[k];
    return spikes * targets.size();
}

}  // namespace volley::snn::detail
