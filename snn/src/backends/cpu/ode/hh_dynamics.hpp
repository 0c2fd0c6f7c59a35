#pragma once
// Right-hand side of the Traub-Miles Hodgkin-Huxley neuron of Brian2's COBAHH example
// (Brette et al. 2007, benchmark 3), with exponential conductance synapses. Units: mV, nS, pF,
// pA, ms; rates in 1/ms. The rate functions of the form y / (exp(y/k) - 1) are written with
// vexprel(x) = (e^x - 1)/x, which is finite (1) at x = 0.

#include <volley/snn/neuron_models.hpp>

#include "backends/cpu/ode/exact_flow.hpp"
#include "backends/host_device.hpp"
#include "backends/vector_exp.hpp"

#include <array>
#include <cmath>
#include <cstddef>

namespace volley::snn::detail {

struct hh_dynamics : decaying_conductances<6, 4, 5> {
    using model = hh;
    using params = hh::params;
    static constexpr std::size_t dim = 6;
    using state = std::array<double, dim>;  // (v [mV], m, n, h, g_e [nS], g_i [nS])
    static constexpr bool conductance_input = true;
    static constexpr bool input_moves_v = false;
    static constexpr bool clamp_when_refractory = false;  // t_ref only suppresses detection

    VOLLEY_HD static double alpha_m(const params& p, double v) {
        return 0.32 * 4 / vexprel((13 - v + p.v_t_mv) / 4);
    }
    VOLLEY_HD static double beta_m(const params& p, double v) {
        return 0.28 * 5 / vexprel((v - p.v_t_mv - 40) / 5);
    }
    VOLLEY_HD static double alpha_h(const params& p, double v) {
        return 0.128 * vexp((17 - v + p.v_t_mv) / 18);
    }
    VOLLEY_HD static double beta_h(const params& p, double v) {
        return 4 / (1 + vexp((40 - v + p.v_t_mv) / 5));
    }
    VOLLEY_HD static double alpha_n(const params& p, double v) {
        return 0.032 * 5 / vexprel((15 - v + p.v_t_mv) / 5);
    }
    VOLLEY_HD static double beta_n(const params& p, double v) {
        return 0.5 * vexp((10 - v + p.v_t_mv) / 40);
    }

    /// v = E_L with every gate at its steady state there.
    static state initial(const params& p) {
        const double v = p.e_l_mv;
        const double am = alpha_m(p, v), bm = beta_m(p, v), an = alpha_n(p, v), bn = beta_n(p, v),
                     ah = alpha_h(p, v), bh = beta_h(p, v);
        return {v, am / (am + bm), an / (an + bn), ah / (ah + bh), 0, 0};
    }
    VOLLEY_HD static double spike_level(const params& p) { return p.v_spike_mv; }
    VOLLEY_HD static double refractory_ms(const params& p) { return p.t_ref_ms; }
    VOLLEY_HD static void reset(const params&, state&) {}
    VOLLEY_HD static void add_input(const params&, state& x, double w_e, double w_i) {
        x[4] += w_e;
        x[5] += w_i;
    }
    VOLLEY_HD static void derivative(const params& p, double i_ext, bool, const state& x, state& dxdt) {
        const double v = x[0], m = x[1], n = x[2], h = x[3];
        const double n2 = n * n;
        const double i = p.g_l_ns * (p.e_l_mv - v) + x[4] * (p.e_ex_mv - v) +
                         x[5] * (p.e_in_mv - v) - p.g_na_ns * m * m * m * h * (v - p.e_na_mv) -
                         p.g_k_ns * n2 * n2 * (v - p.e_k_mv) + p.i_e_pa + i_ext;
        dxdt[0] = i * (1 / p.c_m_pf);
        dxdt[1] = alpha_m(p, v) * (1 - m) - beta_m(p, v) * m;
        dxdt[2] = alpha_n(p, v) * (1 - n) - beta_n(p, v) * n;
        dxdt[3] = alpha_h(p, v) * (1 - h) - beta_h(p, v) * h;
        dxdt[4] = -x[4] * (1 / p.tau_syn_e_ms);
        dxdt[5] = -x[5] * (1 / p.tau_syn_i_ms);
    }
    /// dx_k/dt = a_k + b_k x_k (exponential Euler), the other variables held: v is linear given
    /// the gates and conductances, each gate given v (the conductances are the exact part).
    VOLLEY_HD static void linear(const params& p, double i_ext, bool, const state& x, state& a,
                                 state& b) {
        const double v = x[0], m = x[1], n = x[2], h = x[3];
        const double n2 = n * n;
        const double g_na = p.g_na_ns * m * m * m * h, g_k = p.g_k_ns * n2 * n2;
        a[0] = (p.g_l_ns * p.e_l_mv + x[4] * p.e_ex_mv + x[5] * p.e_in_mv + g_na * p.e_na_mv +
                g_k * p.e_k_mv + p.i_e_pa + i_ext) * (1 / p.c_m_pf);
        b[0] = -(p.g_l_ns + x[4] + x[5] + g_na + g_k) * (1 / p.c_m_pf);
        const double am = alpha_m(p, v), an = alpha_n(p, v), ah = alpha_h(p, v);
        a[1] = am;
        b[1] = -(am + beta_m(p, v));
        a[2] = an;
        b[2] = -(an + beta_n(p, v));
        a[3] = ah;
        b[3] = -(ah + beta_h(p, v));
    }
};

}  // namespace volley::snn::detail
