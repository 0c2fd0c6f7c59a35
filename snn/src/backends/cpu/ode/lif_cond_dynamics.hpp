#pragma once
// Right-hand sides of the conductance-based LIF models (NEST iaf_cond_exp, iaf_cond_alpha).
// Units: v [mV], g [nS], C [pF], currents [pA], so dv/dt = I / C is in mV/ms.
// In every model's right-hand side a division by a parameter is a multiplication by its
// reciprocal, which the compiler hoists out of a population's loop when the neurons share one
// parameter set (fixed_step_kernel.hpp): rk4 on lif_cond_exp has no division left per neuron.

#include <volley/snn/neuron_models.hpp>

#include "backends/cpu/ode/exact_flow.hpp"
#include "backends/host_device.hpp"

#include <array>
#include <cstddef>
#include <numbers>

namespace volley::snn::detail {

/// dv/dt = a + b v of the conductance-based LIF models at conductances g_e, g_i, as the free
/// membrane has it. Written so that a population's loop computes little per neuron: g_L E_L + I_e
/// comes first (one constant when the neurons share their parameters), and a and b depend on
/// the conductances alone, which an rk4 step holds equal at its two middle stages (the compiler
/// computes them once there; the exact conductances of exact_flow.hpp).
VOLLEY_HD inline void lif_cond_free_linear_v(const lif_cond_exp::params& p, double i_ext, double g_e, double g_i,
                                             double& a, double& b) {
    const double inv_c = 1 / p.c_m_pf;
    a = ((p.g_l_ns * p.e_l_mv + p.i_e_pa) + i_ext) * inv_c + g_e * (p.e_ex_mv * inv_c) + g_i * (p.e_in_mv * inv_c);
    b = (p.g_l_ns + g_e + g_i) * -inv_c;
}

/// lif_cond_free_linear_v, with a = b = 0 when clamped (refractory).
VOLLEY_HD inline void lif_cond_linear_v(const lif_cond_exp::params& p, double i_ext, bool clamped,
                                        double g_e, double g_i, double& a, double& b) {
    double a_free, b_free;
    lif_cond_free_linear_v(p, i_ext, g_e, g_i, a_free, b_free);
    a = clamped ? 0.0 : a_free;
    b = clamped ? 0.0 : b_free;
}

/// dv/dt of the conductance-based LIF models, a + b v (0 when clamped).
VOLLEY_HD inline double lif_cond_dv(const lif_cond_exp::params& p, double i_ext, bool clamped, double v,
                                    double g_e, double g_i) {
    double a, b;
    lif_cond_free_linear_v(p, i_ext, g_e, g_i, a, b);
    const double dv = a + b * v;  // computed unconditionally: a select, not a branch
    return clamped ? 0.0 : dv;
}

/// lif_cond_exp: state (v, g_e, g_i).
struct lif_cond_exp_dynamics : decaying_conductances<3, 1, 2> {
    using model = lif_cond_exp;
    using params = lif_cond_exp::params;
    static constexpr std::size_t dim = 3;
    using state = std::array<double, dim>;
    static constexpr bool conductance_input = true;  ///< weights are conductance jumps [nS], >= 0
    static constexpr bool input_moves_v = false;     ///< input cannot cross the threshold by itself
    static constexpr bool clamp_when_refractory = true;

    static state initial(const params& p) { return {p.e_l_mv, 0, 0}; }
    VOLLEY_HD static double spike_level(const params& p) { return p.v_thresh_mv; }
    VOLLEY_HD static double refractory_ms(const params& p) { return p.t_ref_ms; }
    VOLLEY_HD static void reset(const params& p, state& x) { x[0] = p.v_reset_mv; }
    VOLLEY_HD static void add_input(const params&, state& x, double w_e, double w_i) {
        x[1] += w_e;
        x[2] += w_i;
    }
    VOLLEY_HD static void derivative(const params& p, double i_ext, bool clamped, const state& x,
                           state& dxdt) {
        dxdt[0] = lif_cond_dv(p, i_ext, clamped, x[0], x[1], x[2]);
        dxdt[1] = -x[1] * (1 / p.tau_syn_e_ms);
        dxdt[2] = -x[2] * (1 / p.tau_syn_i_ms);
    }
    /// dv/dt = a_0 + b_0 v (exponential Euler; the conductances are the exact part).
    VOLLEY_HD static void linear(const params& p, double i_ext, bool clamped, const state& x,
                                 state& a, state& b) {
        lif_cond_linear_v(p, i_ext, clamped, x[1], x[2], a[0], b[0]);
    }
};

/// lif_cond_alpha: state (v, g_e, g_i, dg_e, dg_i); a spike of weight w adds w·e/tau to dg,
/// so that g peaks at w, tau after the spike.
struct lif_cond_alpha_dynamics : alpha_conductances<5, 1, 3> {
    using model = lif_cond_alpha;
    using params = lif_cond_alpha::params;
    static constexpr std::size_t dim = 5;
    using state = std::array<double, dim>;
    static constexpr bool conductance_input = true;
    static constexpr bool input_moves_v = false;
    static constexpr bool clamp_when_refractory = true;

    static state initial(const params& p) { return {p.e_l_mv, 0, 0, 0, 0}; }
    VOLLEY_HD static double spike_level(const params& p) { return p.v_thresh_mv; }
    VOLLEY_HD static double refractory_ms(const params& p) { return p.t_ref_ms; }
    VOLLEY_HD static void reset(const params& p, state& x) { x[0] = p.v_reset_mv; }
    VOLLEY_HD static void derivative(const params& p, double i_ext, bool clamped, const state& x,
                           state& dxdt) {
        dxdt[0] = lif_cond_dv(p, i_ext, clamped, x[0], x[1], x[2]);
        conductance_derivative(p, x, dxdt);
    }
    /// dv/dt = a_0 + b_0 v (exponential Euler; the conductances are the exact part).
    VOLLEY_HD static void linear(const params& p, double i_ext, bool clamped, const state& x,
                                 state& a, state& b) {
        lif_cond_linear_v(p, i_ext, clamped, x[1], x[2], a[0], b[0]);
    }
};

}  // namespace volley::snn::detail
