// The portable ISI- and SPIKE-distance strategies and the choice of strategy (kreuz_pairs.hpp);
// the AVX-512 ones are in isi_distance_avx512.cpp and spike_distance_avx512.cpp.

#include "analysis/kreuz_pairs.hpp"

namespace volley::snn::analysis::detail {

void isi_distance_pairs_portable(std::span<const knots_pair> pairs, const kreuz_options& options,
                                 double* out) {
    for (std::size_t p = 0; p < pairs.size(); ++p)
        out[p] = isi_distance_unchecked(*pairs[p].a, *pairs[p].b, options);
}

void spike_distance_pairs_portable(std::span<const knots_pair> pairs, const kreuz_options& options,
                                   double* out) {
    for (std::size_t p = 0; p < pairs.size(); ++p)
        out[p] = spike_distance_unchecked(*pairs[p].a, *pairs[p].b, options);
}

#if !(defined(__GNUC__) && defined(__x86_64__))
// Never chosen (cpu_isa_level() is baseline there); defined for the linker.
void isi_distance_pairs_avx512(std::span<const knots_pair> pairs, const kreuz_options& options,
                               double* out) {
    isi_distance_pairs_portable(pairs, options, out);
}
void spike_distance_pairs_avx512(std::span<const knots_pair> pairs, const kreuz_options& options,
                                 double* out) {
    spike_distance_pairs_portable(pairs, options, out);
}
#endif

kreuz_pairs_kernel choose_isi_distance_pairs(snn::detail::cpu_isa isa) {
    return isa == snn::detail::cpu_isa::avx512 ? isi_distance_pairs_avx512
                                               : isi_distance_pairs_portable;
}

kreuz_pairs_kernel choose_spike_distance_pairs(snn::detail::cpu_isa isa) {
    return isa == snn::detail::cpu_isa::avx512 ? spike_distance_pairs_avx512
                                               : spike_distance_pairs_portable;
}

}  // namespace volley::snn::analysis::detail
