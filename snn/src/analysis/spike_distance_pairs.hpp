#pragma once
// Strategies of the SPIKE-distance over many pairs of trains (distance_matrix): the portable
// walk, one pair at a time (spike_distance_unchecked), or eight pairs at once, one per lane of
// AVX-512 vectors. Chosen once per matrix from the CPU's instruction set; each lane performs
// the portable walk's operations in the same order, so both give the same doubles.

#include "analysis/pair_terms.hpp"
#include "backends/cpu/cpu_isa.hpp"

#include <span>

namespace volley::snn::analysis::detail {

/// Two prepared trains.
struct knots_pair {
    const kreuz_knots* a;
    const kreuz_knots* b;
};

/// Writes the SPIKE-distance of pairs[p] to out[p].
using spike_distance_pairs = void (*)(std::span<const knots_pair> pairs,
                                      const kreuz_options& options, double* out);

/// One pair after another, spike_distance_unchecked.
void spike_distance_pairs_portable(std::span<const knots_pair> pairs,
                                   const kreuz_options& options, double* out);

/// Eight pairs at a time in AVX-512 lanes; only where cpu_isa_level() is avx512.
void spike_distance_pairs_avx512(std::span<const knots_pair> pairs, const kreuz_options& options,
                                 double* out);

/// The widest strategy that `isa` allows.
spike_distance_pairs choose_spike_distance_pairs(snn::detail::cpu_isa isa);

}  // namespace volley::snn::analysis::detail
