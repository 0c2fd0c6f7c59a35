#pragma once
// Standard benchmark networks, built in code.

#include <cstdint>

#include <volley/snn/network.hpp>

namespace volley::snn {

/// The CUBA network (Vogels & Abbott 2005; Brette et al. 2007, benchmark 2), as in Brian2's
/// example: 80% excitatory, 20% inhibitory lif_exp neurons, each pair connected with
/// probability 80/N (so about 80 inputs per neuron; 0.02 at N = 4000), tau_m = 20 ms,
/// tau_e = 5 ms, tau_i = 10 ms, v_thresh = -50 mV, v_reset = -60 mV, v_rest = -49 mV,
/// t_ref = 5 ms, w_e = 1.62 mV, w_i = -9 mV, delay one step, v(0) uniform in [v_reset, v_thresh).
/// `dt_ms` sets the delay (one step).
network cuba_network(std::uint32_t neurons, double dt_ms = 0.1);

/// The COBA network (Vogels & Abbott 2005; Brette et al. 2007, benchmark 1), as in the review's
/// Brian and NEST code (ModelDB 83319, Brian/COBA.py, NEST/coba.sli): 80% excitatory, 20%
/// inhibitory lif_cond_exp neurons, connected with probability 80/N (0.02 at N = 4000),
/// C = 200 pF, g_L = 10 nS (tau_m = 20 ms), E_L = -60 mV, v_thresh = -50 mV, v_reset = -60 mV,
/// t_ref = 5 ms, E_ex = 0 mV, E_in = -80 mV, tau_e = 5 ms, tau_i = 10 ms; conductance jumps
/// w_e = 6 nS and w_i = 67 nS (0.6 and 6.7 in units of g_L, as Brian writes them); delay one
/// step. The activity is self-sustained from the review's initial state: v ~ N(-65, 5) mV,
/// g_e ~ N(40, 15) nS, g_i ~ N(200, 120) nS.
network coba_network(std::uint32_t neurons, double dt_ms = 0.1);

/// The COBAHH network (Brette et al. 2007, benchmark 3; Brian2's COBAHH example): the COBA
/// wiring with Traub-Miles hh neurons (the model's defaults), w_e = 6 nS, w_i = 67 nS, delay
/// one step, v ~ N(-65, 5) mV, g_e ~ N(40, 15) nS, g_i ~ N(200, 120) nS, m = n = h = 0.
network cobahh_network(std::uint32_t neurons, double dt_ms = 0.1);

}  // namespace volley::snn
