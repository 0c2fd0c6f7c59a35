#pragma once
// The fixed-step schemes of the ODE models (ode_integrator.hpp), each one step of length h of
// one neuron, written once over a model's right-hand side (Dyn::derivative) so that the loop
// over a population vectorises (fixed_step_kernel.hpp) and CUDA kernels can call the same
// functions. `clamped`: v is held (refractory). A scheme integrates the variables outside the
// model's exact part; those (the synaptic conductances, exact_flow.hpp) take their exact values
// at the scheme's stage times.

#include <volley/snn/ode_integrator.hpp>

#include <cmath>
#include <cstddef>
#include <utility>

#include "backends/host_device.hpp"
#include "backends/vector_exp.hpp"

namespace volley::snn::detail {

/// What a step of one neuron needs besides its state: its parameters and the constants of its
/// exact part at the population's step (Dyn::make_flow), computed once.
template <class Dyn>
struct step_constants {
    typename Dyn::params p;
    typename Dyn::flow flow;
};

/// y_k = x_k + c d_k for the variables the scheme integrates (unrolled at compile time: a loop
/// with a test on Dyn::exact would reach the vectoriser as control flow).
template <class Dyn>
VOLLEY_HD inline void stage(const typename Dyn::state& x, double c, const typename Dyn::state& d,
                            typename Dyn::state& y) {
    [&]<std::size_t... k>(std::index_sequence<k...>) {
        ((Dyn::exact[k] ? void() : void(y[k] = x[k] + c * d[k])), ...);
    }(std::make_index_sequence<Dyn::dim>{});
}

/// Forward Euler: x += h f(x).
struct euler_scheme {
    static constexpr ode_scheme id = ode_scheme::euler;
    template <class Dyn>
    VOLLEY_HD static void step(const step_constants<Dyn>& c, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state d;
        Dyn::derivative(c.p, i_ext, clamped, x, d);
        Dyn::advance_exact(c.flow, x, x, false);
        stage<Dyn>(x, h, d, x);
    }
};

/// The midpoint rule (Brian2's rk2): x += h f(x + h/2 f(x)).
struct rk2_scheme {
    static constexpr ode_scheme id = ode_scheme::rk2;
    template <class Dyn>
    VOLLEY_HD static void step(const step_constants<Dyn>& c, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state k1, y;
        Dyn::derivative(c.p, i_ext, clamped, x, k1);
        stage<Dyn>(x, 0.5 * h, k1, y);
        Dyn::advance_exact(c.flow, x, y, true);
        Dyn::derivative(c.p, i_ext, clamped, y, k1);
        Dyn::advance_exact(c.flow, x, x, false);
        stage<Dyn>(x, h, k1, x);
    }
};

/// Classic 4th-order Runge-Kutta.
struct rk4_scheme {
    static constexpr ode_scheme id = ode_scheme::rk4;
    template <class Dyn>
    VOLLEY_HD static void step(const step_constants<Dyn>& c, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state k1, k2, k3, k4, y;
        Dyn::derivative(c.p, i_ext, clamped, x, k1);
        stage<Dyn>(x, 0.5 * h, k1, y);
        Dyn::advance_exact(c.flow, x, y, true);
        Dyn::derivative(c.p, i_ext, clamped, y, k2);
        stage<Dyn>(x, 0.5 * h, k2, y);
        Dyn::derivative(c.p, i_ext, clamped, y, k3);
        stage<Dyn>(x, h, k3, y);
        Dyn::advance_exact(c.flow, x, y, false);
        Dyn::derivative(c.p, i_ext, clamped, y, k4);
        for (std::size_t k = 0; k < Dyn::dim; ++k) k1[k] += 2 * (k2[k] + k3[k]) + k4[k];
        Dyn::advance_exact(c.flow, x, x, false);
        stage<Dyn>(x, h / 6, k1, x);
    }
};

/// Exponential Euler: with dx_k/dt = a_k + b_k x_k (Dyn::linear, every other variable held
/// at the step's start), x_k += (a_k + b_k x_k) (e^{b_k h} - 1) / b_k, which is h a_k when b_k = 0.
struct exponential_euler_scheme {
    static constexpr ode_scheme id = ode_scheme::exponential_euler;
    template <class Dyn>
        requires requires(const typename Dyn::params& p, typename Dyn::state& x) { Dyn::linear(p, 0.0, false, x, x, x); }
    VOLLEY_HD static void step(const step_constants<Dyn>& c, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state a, b;
        Dyn::linear(c.p, i_ext, clamped, x, a, b);
        Dyn::advance_exact(c.flow, x, x, false);
        // h (e^{bh} - 1)/(bh) through vexprel, which vectorises and gives the same bits at
        // every vector width (vector_exp.hpp).
        [&]<std::size_t... k>(std::index_sequence<k...>) {
            ((Dyn::exact[k] ? void() : void(x[k] += (a[k] + b[k] * x[k]) * (h * vexprel(b[k] * h)))), ...);
        }(std::make_index_sequence<Dyn::dim>{});
    }
};

/// The model's own half-step scheme (Dyn::half_step_euler; izhikevich's published update).
struct half_step_euler_scheme {
    static constexpr ode_scheme id = ode_scheme::half_step_euler;
    template <class Dyn>
        requires requires(const typename Dyn::params& p, typename Dyn::state& x) { Dyn::half_step_euler(p, 0.0, x, 1.0); }
    VOLLEY_HD static void step(const step_constants<Dyn>& c, double i_ext, bool,
                               typename Dyn::state& x, double h) {
        Dyn::half_step_euler(c.p, i_ext, x, h);
    }
};

}  // namespace volley::snn::detail
