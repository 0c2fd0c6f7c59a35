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

/// NEST's hpc_benchmark (pynest/examples/hpc_benchmark.py; Morrison et al. 2007, Helias et al.
/// 2012, Kunkel et al. 2014), the standard network of NEST's scaling studies.
struct hpc_benchmark_options {
    double scale = 1;            ///< network size: scale × 11,250 neurons (9,000 E, 2,250 I), > 0
    double in_degree_scale = 1;  ///< the in-degrees 9,000 (E) and 2,250 (I) times this, in (0, 1];
                                 ///< 1 is the benchmark, less only for quick tests
    bool plastic = true;         ///< power-law STDP on E -> E (false: static at J_E)
    double dt_ms = 0.1;
};

/// The hpc_benchmark network: scale·9,000 excitatory and scale·2,250 inhibitory lif_alpha
/// neurons (NEST iaf_psc_alpha: C = 250 pF, tau_m = 10 ms, E_L = 0, V_th = 20 mV, V_reset = 0,
/// t_ref = 0.5 ms, tau_syn = 0.3258 ms, v(0) ~ N(5.7, 7.2) mV); every neuron receives exactly
/// C_E = 9,000 excitatory and C_I = 2,250 inhibitory synapses (fixed in-degree, multapses,
/// no autapses), J_E = the weight of a 0.14 mV EPSP (hpc_benchmark_je_pa(), as R·I in mV), J_I =
/// -5 J_E, delay 1.5 ms; an independent Poisson drive per neuron at eta = 1.685 times the
/// threshold rate, weight J_E; E -> E synapses plastic with the power-law rule (stdp_pair with
/// power_law: lambda = 0.1, alpha = 0.0513, mu = 0.4, tau_plus = 15 ms, tau_minus = 30 ms, the
/// post spikes delayed by the 1.5 ms as NEST's dendritic delay; w_max = 100 J_E where NEST has
/// no bound). Populations "E", "I", "drive_E",
/// "drive_I". Throws invalid_parameter for a scale or in_degree_scale out of range.
network hpc_benchmark_network(const hpc_benchmark_options& options = {});

/// J_E of hpc_benchmark in pA: the peak of an alpha current [pA] whose PSP on the benchmark's
/// neuron at rest peaks at 0.14 mV (NEST's convert_synapse_weight; about 45.6 pA).
double hpc_benchmark_je_pa();

}  // namespace volley::snn
