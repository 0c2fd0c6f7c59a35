#pragma once
// Exact propagators of the linear LIF models over one step h (Rotter & Diesmann 1999).
// With u = v - v_rest, a synaptic current x(t) = x0·exp(-t/tau_s) adds
//   u(h) += x0 · tau_s/(tau_s - tau_m) · (exp(-h/tau_s) - exp(-h/tau_m)),
// written with expm1 so that tau_s -> tau_m stays exact (the singular case of NEST's
// iaf_psc_exp). The alpha current's derivative state adds
//   u(h) += x1 · exp(-h/tau_m)/tau_m · h² · f(a·h),  a = 1/tau_s - 1/tau_m,
//   f(z) = (1 - exp(-z)(1 + z)) / z²,  using a series near z = 0.

#include <cmath>

namespace volley::snn::detail {

/// exp(-h/tau_m): decay of u over one step.
inline double membrane_decay(double h, double tau_m) { return std::exp(-h / tau_m); }

/// 1 - exp(-h/tau_m): weight of a constant current over one step.
inline double constant_input_gain(double h, double tau_m) { return -std::expm1(-h / tau_m); }

/// Contribution of an exponential current with unit initial value to u after h.
inline double exp_current_gain(double h, double tau_s, double tau_m) {
    const double x = h * (1.0 / tau_m - 1.0 / tau_s);
    if (std::abs(x) < 1e-14) return h / tau_m * std::exp(-h / tau_m);
    return tau_s * std::exp(-h / tau_m) * std::expm1(x) / (tau_s - tau_m);
}

/// Contribution of an alpha current's derivative state x1 = 1 (x2 = 0) to u after h.
inline double alpha_derivative_gain(double h, double tau_s, double tau_m) {
    const double z = h * (1.0 / tau_s - 1.0 / tau_m);
    double f;
    if (std::abs(z) < 0.1) {
        // f(z) = sum_{n>=2} (-1)^n (n-1)/n! z^(n-2); terms to n = 12 leave < 1e-16.
        f = 0;
        double factorial = 1;
        for (int n = 2; n <= 12; ++n) factorial *= n;
        for (int n = 12; n >= 2; --n) {
            f = f * z + ((n % 2 == 0) ? 1.0 : -1.0) * (n - 1) / factorial;
            factorial /= n;
        }
    } else {
        f = (-std::expm1(-z) - z * std::exp(-z)) / (z * z);
    }
    return std::exp(-h / tau_m) / tau_m * h * h * f;
}

}  // namespace volley::snn::detail
