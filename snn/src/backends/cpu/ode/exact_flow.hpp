#pragma once
// The exact part of an ODE model's flow, which the fixed-step schemes (fixed_step_schemes.hpp)
// advance by its solution instead of by the scheme: the variables whose equations are linear
// with constant coefficients and do not depend on the others, i.e. the synaptic conductances.
// Between the spikes that arrive at step ends they decay exactly, so a scheme integrates only
// the rest (v and the gates) with the exact conductances at its stage times. That is cheaper
// (no stages for the conductances, no exponential per neuron and step) and more accurate than
// integrating them too, and no scheme's order on v changes.
//
// A model's dynamics (ode/<model>_dynamics.hpp) derives from one of these:
//   exact[k]                     true where x_k is advanced exactly;
//   flow, make_flow(p, h)        the constants of one parameter set at step h (computed once);
//   advance_exact(f, x0, y, half) sets y's exact variables to their values h/2 (half) or h
//                                after the step's start state x0.

#include <array>
#include <cmath>
#include <numbers>
#include <cstddef>

#include "backends/host_device.hpp"

namespace volley::snn::detail {

/// No exact part: the scheme integrates every variable (izhikevich).
template <std::size_t Dim>
struct no_exact_part {
    static constexpr std::array<bool, Dim> exact{};
    struct flow {};
    template <class Params>
    static flow make_flow(const Params&, double) {
        return {};
    }
    template <class State>
    VOLLEY_HD static void advance_exact(const flow&, const State&, State&, bool) {}
};

/// Two conductances, x_E and x_I, that decay with tau_syn_e_ms and tau_syn_i_ms.
template <std::size_t Dim, std::size_t E, std::size_t I>
struct decaying_conductances {
    static constexpr std::array<bool, Dim> exact = [] {
        std::array<bool, Dim> m{};
        m[E] = m[I] = true;
        return m;
    }();
    struct flow {
        double e_half, e_full, i_half, i_full;  ///< e^{-t/tau} at t = h/2 and t = h
    };
    template <class Params>
    static flow make_flow(const Params& p, double h) {
        return {std::exp(-0.5 * h / p.tau_syn_e_ms), std::exp(-h / p.tau_syn_e_ms),
                std::exp(-0.5 * h / p.tau_syn_i_ms), std::exp(-h / p.tau_syn_i_ms)};
    }
    template <class State>
    VOLLEY_HD static void advance_exact(const flow& f, const State& x0, State& y, bool half) {
        y[E] = x0[E] * (half ? f.e_half : f.e_full);
        y[I] = x0[I] * (half ? f.i_half : f.i_full);
    }
};

/// Alpha conductances: g_k' = dg_k - g_k / tau_k, dg_k' = -dg_k / tau_k at indices (G + k,
/// D + k) for k = e, i, whose solution is g(t) = (g0 + t dg0) e^{-t/tau}, dg(t) = dg0 e^{-t/tau}.
template <std::size_t Dim, std::size_t G, std::size_t D>
struct alpha_conductances {
    static constexpr std::array<bool, Dim> exact = [] {
        std::array<bool, Dim> m{};
        m[G] = m[G + 1] = m[D] = m[D + 1] = true;
        return m;
    }();
    struct flow {
        double e_half, e_full, i_half, i_full, h;
    };
    template <class Params>
    static flow make_flow(const Params& p, double h) {
        return {std::exp(-0.5 * h / p.tau_syn_e_ms), std::exp(-h / p.tau_syn_e_ms),
                std::exp(-0.5 * h / p.tau_syn_i_ms), std::exp(-h / p.tau_syn_i_ms), h};
    }
    template <class State>
    VOLLEY_HD static void advance_exact(const flow& f, const State& x0, State& y, bool half) {
        const double t = half ? 0.5 * f.h : f.h;
        const double de = half ? f.e_half : f.e_full, di = half ? f.i_half : f.i_full;
        y[G] = (x0[G] + t * x0[D]) * de;
        y[G + 1] = (x0[G + 1] + t * x0[D + 1]) * di;
        y[D] = x0[D] * de;
        y[D + 1] = x0[D + 1] * di;
    }
    /// A spike of weight w adds w·e/tau to dg, so that g peaks at w, tau after the spike.
    template <class Params, class State>
    VOLLEY_HD static void add_input(const Params& p, State& x, double w_e, double w_i) {
        x[D] += w_e * std::numbers::e / p.tau_syn_e_ms;
        x[D + 1] += w_i * std::numbers::e / p.tau_syn_i_ms;
    }
    /// The conductances' part of the right-hand side.
    template <class Params, class State>
    VOLLEY_HD static void conductance_derivative(const Params& p, const State& x, State& dxdt) {
        dxdt[G] = x[D] - x[G] * (1 / p.tau_syn_e_ms);
        dxdt[G + 1] = x[D + 1] - x[G + 1] * (1 / p.tau_syn_i_ms);
        dxdt[D] = -x[D] * (1 / p.tau_syn_e_ms);
        dxdt[D + 1] = -x[D + 1] * (1 / p.tau_syn_i_ms);
    }
};

}  // namespace volley::snn::detail
