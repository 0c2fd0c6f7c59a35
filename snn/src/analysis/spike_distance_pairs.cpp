// The portable SPIKE-distance strategy and the choice of strategy (spike_distance_pairs.hpp).

#include "analysis/spike_distance_pairs.hpp"

namespace volley::snn::analysis::detail {

void spike_distance_pairs_portable(std::span<const knots_pair> pairs,
                                   const kreuz_options& options, double* out) {
    for (std::size_t p = 0; p < pairs.size(); ++p)
        out[p] = spike_distance_unchecked(*pairs[p].a, *pairs[p].b, options);
}

spike_distance_pairs choose_spike_distance_pairs(snn::detail::cpu_isa isa) {
    return isa == snn::detail::cpu_isa::avx512 ? spike_distance_pairs_avx512
                                                : spike_distance_pairs_portable;
}

}  // namespace volley::snn::analysis::detail
