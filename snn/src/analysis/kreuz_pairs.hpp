#pragma once
// Strategies of the ISI- and SPIKE-distance over many pairs of trains (distance_matrix): the
// portable walks, one pair at a time (isi_distance_unchecked, spike_distance_unchecked), or
// several pairs at once, one per lane of AVX-512 vectors. Chosen once per matrix from the CPU's
// instruction set; each lane performs the portable walk's operations in the same order, so
// both give the same doubles.

#include "analysis/pair_terms.hpp"
#include "backends/cpu/cpu_isa.hpp"

#include <span>

namespace volley::snn::analysis::detail {

/// Two prepared trains.
struct knots_pair {
    const kreuz_knots* a;
    const kreuz_knots* b;
};

/// Writes the distance of pairs[p] to out[p].
using kreuz_pairs_kernel = void (*)(std::span<const knots_pair> pairs, const kreuz_options& options,
                                    double* out);

/// One pair after another, isi_distance_unchecked.
void isi_distance_pairs_portable(std::span<const knots_pair> pairs, const kreuz_options& options,
                                 double* out);
/// Sixteen pairs at a time in two interleaved groups of AVX-512 lanes; only where
/// cpu_isa_level() is avx512.
void isi_distance_pairs_avx512(std::span<const knots_pair> pairs, const kreuz_options& options,
                               double* out);

/// One pair after another, spike_distance_unchecked.
void spike_distance_pairs_portable(std::span<const knots_pair> pairs, const kreuz_options& options,
                                   double* out);
/// Eight pairs at a time in AVX-512 lanes; only where cpu_isa_level() is avx512.
void spike_distance_pairs_avx512(std::span<const knots_pair> pairs, const kreuz_options& options,
                                 double* out);

/// The widest ISI-distance strategy that `isa` allows.
kreuz_pairs_kernel choose_isi_distance_pairs(snn::detail::cpu_isa isa);
/// The widest SPIKE-distance strategy that `isa` allows.
kreuz_pairs_kernel choose_spike_distance_pairs(snn::detail::cpu_isa isa);

}  // namespace volley::snn::analysis::detail
