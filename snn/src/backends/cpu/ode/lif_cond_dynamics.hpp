#pragma once
// Right-hand sides of the conductance-based LIF models (NEST iaf_cond_exp, iaf_cond_alpha).
// Units: v [mV], g [nS], C [pF], currents [pA], so dv/dt = I / C is in mV/ms.

#include <volley/snn/neuron_models.hpp>

#include <array>
#include <cstddef>
#include <numbers>

namespace volley::snn::detail {

/// lif_cond_exp: state (v, g_e, g_i).
struct lif_cond_exp_dynamics {
    using model = lif_cond_exp;
    using params = lif_cond_exp::params;
    static constexpr std::size_t dim = 3;
    using state = std::array<double, dim>;
    static constexpr bool conductance_input = true;  ///< weights are conductance jumps [nS], >= 0
    static constexpr bool input_moves_v = false;     ///< input cannot cross the threshold by itself
    static constexpr bool clamp_when_refractory = true;
    static constexpr double abs_tol = 1e-8, rel_tol = 1e-8;

    static state initial(const params& p) { return {p.e_l_mv, 0, 0}; }
    static double spike_level(const params& p) { return p.v_thresh_mv; }
    static double refractory_ms(const params& p) { return p.t_ref_ms; }
    static void reset(const params& p, state& x) { x[0] = p.v_reset_mv; }
    static void add_input(const params&, state& x, double w_e, double w_i) {
        x[1] += w_e;
        x[2] += w_i;
    }
    static void derivative(const params& p, double i_ext, bool clamped, const state& x,
                           state& dxdt) {
        const double v = x[0];
        const double i = -p.g_l_ns * (v - p.e_l_mv) - x[1] * (v - p.e_ex_mv) -
                         x[2] * (v - p.e_in_mv) + p.i_e_pa + i_ext;
        dxdt[0] = clamped ? 0.0 : i / p.c_m_pf;
        dxdt[1] = -x[1] / p.tau_syn_e_ms;
        dxdt[2] = -x[2] / p.tau_syn_i_ms;
    }
};

/// lif_cond_alpha: state (v, g_e, g_i, dg_e, dg_i); a spike of weight w adds w·e/tau to dg,
/// so that g peaks at w, tau after the spike.
struct lif_cond_alpha_dynamics {
    using model = lif_cond_alpha;
    using params = lif_cond_alpha::params;
    static constexpr std::size_t dim = 5;
    using state = std::array<double, dim>;
    static constexpr bool conductance_input = true;
    static constexpr bool input_moves_v = false;
    static constexpr bool clamp_when_refractory = true;
    static constexpr double abs_tol = 1e-8, rel_tol = 1e-8;

    static state initial(const params& p) { return {p.e_l_mv, 0, 0, 0, 0}; }
    static double spike_level(const params& p) { return p.v_thresh_mv; }
    static double refractory_ms(const params& p) { return p.t_ref_ms; }
    static void reset(const params& p, state& x) { x[0] = p.v_reset_mv; }
    static void add_input(const params& p, state& x, double w_e, double w_i) {
        x[3] += w_e * std::numbers::e / p.tau_syn_e_ms;
        x[4] += w_i * std::numbers::e / p.tau_syn_i_ms;
    }
    static void derivative(const params& p, double i_ext, bool clamped, const state& x,
                           state& dxdt) {
        const double v = x[0];
        const double i = -p.g_l_ns * (v - p.e_l_mv) - x[1] * (v - p.e_ex_mv) -
                         x[2] * (v - p.e_in_mv) + p.i_e_pa + i_ext;
        dxdt[0] = clamped ? 0.0 : i / p.c_m_pf;
        dxdt[1] = x[3] - x[1] / p.tau_syn_e_ms;
        dxdt[2] = x[4] - x[2] / p.tau_syn_i_ms;
        dxdt[3] = -x[3] / p.tau_syn_e_ms;
        dxdt[4] = -x[4] / p.tau_syn_i_ms;
    }
};

}  // namespace volley::snn::detail
