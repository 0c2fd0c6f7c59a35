#pragma once
// The dense step of a lif_exp population with one set of parameters, in AVX-512 intrinsics:
// the hot loop of CUBA-like networks. lif_population.cpp calls it where the CPU has AVX-512
// and simulation_options::max_isa does not cap the choice; elsewhere the compiled loop of
// lif_dense_kernel.inc runs, with identical results.

#include <cstdint>

namespace volley::snn::detail {

/// Potentials relative to v_rest, and the gains of scaled currents at the current step.
struct lif_exp_constants {
    double v_reset, v_thresh, p22;
    double p21e, p21i;  ///< current-to-v gains, including the scale of the step
    double i_ext_p20;   ///< the constant drive's contribution to v over one step
};

/// Advances neurons [0, n) over one step: v (relative to v_rest) from v, ie and ii (scaled
/// currents, only read). held[i] != 0: refractory (v held). Bit j of fired[j / 64] is set when
/// neuron j fires; fired holds (n + 63) / 64 words.
void lif_exp_block_avx512(std::uint32_t n, double* v, const double* ie, const double* ii, const std::uint8_t* held,
                          std::uint64_t* fired, const lif_exp_constants& c);

}  // namespace volley::snn::detail
