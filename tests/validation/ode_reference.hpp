#pragma once
// An independent reference integrator for the ODE-model tests: classic fourth-order Runge-Kutta
// with a fixed small step, a spike when v (component 0) crosses the level upwards, the crossing
// time refined by bisection on RK4 sub-steps from the start of the step, and the reset applied
// there. It shares no code with the engine (which uses Boost.Odeint's adaptive dopri5 with
// dense output), so agreement between the two is evidence for both.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace volley::snn::testing {

template <std::size_t N, class F>
std::array<double, N> rk4_step(const F& f, const std::array<double, N>& x, double h) {
    std::array<double, N> k1, k2, k3, k4, y;
    f(x, k1);
    for (std::size_t i = 0; i < N; ++i) y[i] = x[i] + 0.5 * h * k1[i];
    f(y, k2);
    for (std::size_t i = 0; i < N; ++i) y[i] = x[i] + 0.5 * h * k2[i];
    f(y, k3);
    for (std::size_t i = 0; i < N; ++i) y[i] = x[i] + h * k3[i];
    f(y, k4);
    for (std::size_t i = 0; i < N; ++i)
        y[i] = x[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return y;
}

/// Spike times [ms] of dx/dt = f(x) from x over [0, t_end], with a spike when x[0] crosses
/// `level` upwards and `reset(x)` applied at the crossing. No refractory period. The step is h,
/// shortened so that v moves at most 0.01 mV per step (the upswing of AdEx or Izhikevich
/// spikes is far faster than the rest of the trajectory).
template <std::size_t N, class F, class Reset>
std::vector<double> reference_spike_times(std::array<double, N> x, const F& f, double level,
                                          const Reset& reset, double t_end, double h) {
    std::vector<double> spikes;
    double t = 0;
    std::array<double, N> d;
    while (t < t_end) {
        f(x, d);
        const double h_here = std::min(h, 0.01 / std::max(std::abs(d[0]), 1e-300));
        const double step = t + h_here > t_end ? t_end - t : h_here;
        auto y = rk4_step<N>(f, x, step);
        if (x[0] < level && y[0] >= level) {
            double lo = 0, hi = step;
            for (int it = 0; it < 60; ++it) {
                const double mid = 0.5 * (lo + hi);
                if (rk4_step<N>(f, x, mid)[0] >= level)
                    hi = mid;
                else
                    lo = mid;
            }
            x = rk4_step<N>(f, x, hi);
            t += hi;
            spikes.push_back(t);
            reset(x);
            continue;
        }
        x = y;
        t += step;
    }
    return spikes;
}

/// Inter-spike intervals [ms].
inline std::vector<double> intervals(const std::vector<double>& times) {
    std::vector<double> isi;
    for (std::size_t i = 1; i < times.size(); ++i) isi.push_back(times[i] - times[i - 1]);
    return isi;
}

}  // namespace volley::snn::testing
