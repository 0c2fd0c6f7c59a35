#pragma once
// Right-hand side of the adaptive exponential integrate-and-fire model (Brette & Gerstner 2005)
// with exponential conductance synapses (NEST aeif_cond_exp). Units: mV, nS, pF, pA, ms.
//
// Why v is capped at v_peak inside the exponential: the exponential term diverges in finite
// time, and a trial step of the integrator can overshoot v_peak by far; the cap (as in NEST)
// keeps every evaluation finite, and the spike is located where v crosses v_peak.

#include <volley/snn/neuron_models.hpp>

#include "backends/cpu/ode/exact_flow.hpp"
#include "backends/host_device.hpp"
#include "backends/vector_exp.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace volley::snn::detail {

struct adex_dynamics : decaying_conductances<4, 2, 3> {
    using model = adex;
    using params = adex::params;
    static constexpr std::size_t dim = 4;
    using state = std::array<double, dim>;  // (v [mV], w [pA], g_e [nS], g_i [nS])
    static constexpr bool conductance_input = true;
    static constexpr bool input_moves_v = false;
    static constexpr bool clamp_when_refractory = true;

    static state initial(const params& p) { return {p.e_l_mv, 0, 0, 0}; }
    VOLLEY_HD static double spike_level(const params& p) { return p.v_peak_mv; }
    VOLLEY_HD static double refractory_ms(const params& p) { return p.t_ref_ms; }
    VOLLEY_HD static void reset(const params& p, state& x) {
        x[0] = p.v_reset_mv;
        x[1] += p.b_pa;
    }
    VOLLEY_HD static void add_input(const params&, state& x, double w_e, double w_i) {
        x[2] += w_e;
        x[3] += w_i;
    }
    /// dv/dt and dw/dt of the AdEx membrane with conductances g_e, g_i (adex and adex_alpha).
    VOLLEY_HD static void membrane(const params& p, double i_ext, bool clamped, double v_raw, double w, double g_e,
                                   double g_i, double& dv, double& dw) {
        const double v = clamped ? p.v_reset_mv : std::min(v_raw, p.v_peak_mv);
        const double spike = p.g_l_ns * p.delta_t_mv * vexp((v - p.v_t_mv) * (1 / p.delta_t_mv));
        const double i = -p.g_l_ns * (v - p.e_l_mv) + spike - w - g_e * (v - p.e_ex_mv) - g_i * (v - p.e_in_mv) +
                         p.i_e_pa + i_ext;
        dv = clamped ? 0.0 : i * (1 / p.c_m_pf);
        dw = (p.a_ns * (v - p.e_l_mv) - w) * (1 / p.tau_w_ms);
    }
    VOLLEY_HD static void derivative(const params& p, double i_ext, bool clamped, const state& x,
                           state& dxdt) {
        membrane(p, i_ext, clamped, x[0], x[1], x[2], x[3], dxdt[0], dxdt[1]);
        dxdt[2] = -x[2] * (1 / p.tau_syn_e_ms);
        dxdt[3] = -x[3] * (1 / p.tau_syn_i_ms);
    }
};

/// adex_alpha (NEST aeif_cond_alpha): state (v, w, g_e, g_i, dg_e, dg_i); a spike of weight w
/// adds w·e/tau to dg, so that g peaks at w, tau after the spike (lif_cond_alpha's synapses).
struct adex_alpha_dynamics : alpha_conductances<6, 2, 4> {
    using model = adex_alpha;
    using params = adex_alpha::params;
    static constexpr std::size_t dim = 6;
    using state = std::array<double, dim>;
    static constexpr bool conductance_input = true;
    static constexpr bool input_moves_v = false;
    static constexpr bool clamp_when_refractory = true;

    static state initial(const params& p) { return {p.e_l_mv, 0, 0, 0, 0, 0}; }
    VOLLEY_HD static double spike_level(const params& p) { return p.v_peak_mv; }
    VOLLEY_HD static double refractory_ms(const params& p) { return p.t_ref_ms; }
    VOLLEY_HD static void reset(const params& p, state& x) {
        x[0] = p.v_reset_mv;
        x[1] += p.b_pa;
    }
    VOLLEY_HD static void derivative(const params& p, double i_ext, bool clamped, const state& x, state& dxdt) {
        adex_dynamics::membrane(p, i_ext, clamped, x[0], x[1], x[2], x[3], dxdt[0], dxdt[1]);
        conductance_derivative(p, x, dxdt);
    }
};

}  // namespace volley::snn::detail
