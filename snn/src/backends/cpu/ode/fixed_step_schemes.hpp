#pragma once
// The fixed-step schemes of the ODE models (ode_integrator.hpp), each one step of length h of
// one neuron, written once over a model's right-hand side (Dyn::derivative) so that the loop
// over a population vectorises (fixed_step_kernel.hpp) and CUDA kernels can call the same
// functions. `clamped`: v is held (refractory).

#include <volley/snn/ode_integrator.hpp>

#include <cmath>
#include <cstddef>

#include "backends/host_device.hpp"

namespace volley::snn::detail {

/// Forward Euler: x += h f(x).
struct euler_scheme {
    static constexpr ode_scheme id = ode_scheme::euler;
    template <class Dyn>
    VOLLEY_HD static void step(const typename Dyn::params& p, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state d;
        Dyn::derivative(p, i_ext, clamped, x, d);
        for (std::size_t k = 0; k < Dyn::dim; ++k) x[k] += h * d[k];
    }
};

/// The midpoint rule (Brian2's rk2): x += h f(x + h/2 f(x)).
struct rk2_scheme {
    static constexpr ode_scheme id = ode_scheme::rk2;
    template <class Dyn>
    VOLLEY_HD static void step(const typename Dyn::params& p, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state k1, y;
        Dyn::derivative(p, i_ext, clamped, x, k1);
        for (std::size_t k = 0; k < Dyn::dim; ++k) y[k] = x[k] + 0.5 * h * k1[k];
        Dyn::derivative(p, i_ext, clamped, y, k1);
        for (std::size_t k = 0; k < Dyn::dim; ++k) x[k] += h * k1[k];
    }
};

/// Classic 4th-order Runge-Kutta.
struct rk4_scheme {
    static constexpr ode_scheme id = ode_scheme::rk4;
    template <class Dyn>
    VOLLEY_HD static void step(const typename Dyn::params& p, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state k1, k2, k3, k4, y;
        Dyn::derivative(p, i_ext, clamped, x, k1);
        for (std::size_t k = 0; k < Dyn::dim; ++k) y[k] = x[k] + 0.5 * h * k1[k];
        Dyn::derivative(p, i_ext, clamped, y, k2);
        for (std::size_t k = 0; k < Dyn::dim; ++k) y[k] = x[k] + 0.5 * h * k2[k];
        Dyn::derivative(p, i_ext, clamped, y, k3);
        for (std::size_t k = 0; k < Dyn::dim; ++k) y[k] = x[k] + h * k3[k];
        Dyn::derivative(p, i_ext, clamped, y, k4);
        for (std::size_t k = 0; k < Dyn::dim; ++k)
            x[k] += h / 6 * (k1[k] + 2 * (k2[k] + k3[k]) + k4[k]);
    }
};

/// Exponential Euler: with dx_k/dt = a_k + b_k x_k (Dyn::linear, every other variable held
/// at the step's start), x_k += (a_k + b_k x_k) (e^{b_k h} - 1) / b_k, or h a_k when b_k = 0.
struct exponential_euler_scheme {
    static constexpr ode_scheme id = ode_scheme::exponential_euler;
    template <class Dyn>
        requires requires(const typename Dyn::params& p, typename Dyn::state& x) { Dyn::linear(p, 0.0, false, x, x, x); }
    VOLLEY_HD static void step(const typename Dyn::params& p, double i_ext, bool clamped,
                               typename Dyn::state& x, double h) {
        typename Dyn::state a, b;
        Dyn::linear(p, i_ext, clamped, x, a, b);
        for (std::size_t k = 0; k < Dyn::dim; ++k) {
            const double bh = b[k] * h;
            const double phi = bh == 0 ? h : std::expm1(bh) / b[k];  // h (e^{bh} - 1)/(bh)
            x[k] += (a[k] + b[k] * x[k]) * phi;
        }
    }
};

/// The model's own half-step scheme (Dyn::half_step_euler; izhikevich's published update).
struct half_step_euler_scheme {
    static constexpr ode_scheme id = ode_scheme::half_step_euler;
    template <class Dyn>
        requires requires(const typename Dyn::params& p, typename Dyn::state& x) { Dyn::half_step_euler(p, 0.0, x, 1.0); }
    VOLLEY_HD static void step(const typename Dyn::params& p, double i_ext, bool,
                               typename Dyn::state& x, double h) {
        Dyn::half_step_euler(p, i_ext, x, h);
    }
};

}  // namespace volley::snn::detail
