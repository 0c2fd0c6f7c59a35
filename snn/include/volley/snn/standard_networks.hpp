#pragma once
// Standard benchmark networks, built in code.

#include <array>
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

/// The Potjans-Diesmann cortical microcircuit (Potjans & Diesmann 2014), as in NEST's
/// pynest/examples/Potjans_2014: 77,169 lif_exp neurons (NEST iaf_psc_exp) in eight populations
/// L23E, L23I, L4E, L4I, L5E, L5I, L6E, L6I, about 3·10^8 synapses.
struct microcircuit_options {
    double scale = 1;            ///< neurons per population × this (NEST's N_scaling), in (0, 1]
    double in_degree_scale = 1;  ///< synapses per neuron × this (K_scaling), in (0, 1]; below 1 the
                                 ///< weights grow by 1/sqrt(K_scaling) and a DC input keeps each
                                 ///< population's mean input at its full-scale value
    bool poisson_drive = true;   ///< false: the background is the DC current of the same mean
    double dt_ms = 0.1;
};

/// The microcircuit network: neurons C = 250 pF, tau_m = 10 ms, tau_syn = 0.5 ms, E_L = V_reset =
/// -65 mV, V_th = -50 mV, t_ref = 2 ms, v(0) ~ N(mean, sd) per population (NEST's "optimized"
/// initial state); between each pair of populations fixed_total_number synapses, as many as the
/// connection probability gives (log(1 - p) / log(1 - 1/(N_pre N_post))) times scale ×
/// in_degree_scale, weights ~ N(w, 0.1|w|) redrawn to keep their sign (w: the current of a 0.15 mV
/// PSP, 87.8 pA; × -4 from inhibitory sources; × 2 from L4E to L23E), delays ~ N(1.5 ms, 0.75 ms)
/// from excitatory and N(0.75 ms, 0.375 ms) from inhibitory sources, redrawn below dt/2;
/// background: an independent Poisson drive per neuron at 8 Hz × K_ext (1600, 1500, 2100, 1900,
/// 2000, 1900, 2900, 2100) × in_degree_scale, weight w, delay 1.5 ms (populations "drive_L23E",
/// ...), or its mean as a DC current. Throws invalid_parameter for a scale or in_degree_scale out
/// of range.
network microcircuit_network(const microcircuit_options& options = {});

/// The microcircuit's population names, in order.
std::array<const char*, 8> microcircuit_populations();

/// The mean rates [Hz] of the full-scale microcircuit with Poisson drive, as NEST's example gives
/// them (network_params.py, `full_mean_rates`: NEST, N_scaling = K_scaling = 1); the reference
/// that `volley bench microcircuit` compares with, and that the DC compensation of a reduced
/// in-degree uses.
std::array<double, 8> microcircuit_full_scale_rates_hz();

}  // namespace volley::snn
