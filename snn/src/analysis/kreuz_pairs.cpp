// The portable ISI- and SPIKE-distance strategies and the choice of strategy (kreuz_pairs.hpp).

#include "analysis/kreuz_pairs.hpp"

namespace volley::snn::analysis::detail {

void isi_distance_pairs_portable(std::span<const knots_pair> pairs, const kreuz_options& options,
                                 double* out) {
    for (std::size_t p = 0; p < pairs.size(); ++p)
        out[p] = isi_distance_unchecked(*pairs[p].a, *pairs[p].b, options);
}

void spike_distance_pairs_portable(std::span<const knots_pair> pairs,
                                   const kreuz_options& options, double* out) {
    for (std::size_t p = 0; p < pairs.size(); ++p)
        out[p] = spike_distance_unchecked(*pairs[p].a, *pairs[p].b, options);
}

kreuz_pairs_kernel choose_isi_distance_pairs(snn::detail::cpu_isa isa) {
    return isa == snn::detail::cpu_isa::avx512 ? isi_distance_pairs_avx512
                                                : isi_distance_pairs_portable;
}

kreuz_pairs_kernel choose_spike_distance_pairs(snn::detail::cpu_isa isa) {
    return isa == snn::detail::cpu_isa::avx512 ? spike_distance_pairs_avx512
                                                : spike_distance_pairs_portable;
}

}  // namespace volley::snn::analysis::detail
