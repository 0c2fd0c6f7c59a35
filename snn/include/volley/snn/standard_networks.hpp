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

}  // namespace volley::snn
