#pragma once
// Right-hand side of the Izhikevich (2003) model: dv/dt = 0.04 v^2 + 5 v + 140 - u + I,
// du/dt = a (b v - u); at v >= v_peak: v = c, u += d. Delta synapses: a weight [mV] jumps v.

#include <volley/snn/neuron_models.hpp>

#include "backends/cpu/ode/exact_flow.hpp"
#include "backends/host_device.hpp"

#include <array>
#include <cstddef>

namespace volley::snn::detail {

struct izhikevich_dynamics : no_exact_part<2> {
    using model = izhikevich;
    using params = izhikevich::params;
    static constexpr std::size_t dim = 2;
    using state = std::array<double, dim>;                // (v [mV], u [mV/ms])
    static constexpr bool conductance_input = false;      // weights [mV] of either sign
    static constexpr bool input_moves_v = true;           // a jump can reach v_peak at once
    static constexpr bool clamp_when_refractory = false;  // no refractory period

    static state initial(const params& p) { return {-65.0, p.b * -65.0}; }
    VOLLEY_HD static double spike_level(const params& p) { return p.v_peak_mv; }
    VOLLEY_HD static double refractory_ms(const params&) { return 0; }
    VOLLEY_HD static void reset(const params& p, state& x) {
        x[0] = p.c_mv;
        x[1] += p.d;
    }
    VOLLEY_HD static void add_input(const params&, state& x, double w_e, double w_i) { x[0] += w_e + w_i; }
    VOLLEY_HD static void derivative(const params& p, double i_ext, bool, const state& x, state& dxdt) {
        dxdt[0] = 0.04 * x[0] * x[0] + 5 * x[0] + 140 - x[1] + p.i_e + i_ext;
        dxdt[1] = p.a * (p.b * x[0] - x[1]);
    }
    /// The published update (Izhikevich 2003, Fig. 3): v by two Euler half-steps, u from the new
    /// v, in the paper's order of operations (at dt = 1 ms the same arithmetic as its code: the
    /// rounding matters, as this model at dt = 1 ms amplifies a last-bit change into spike times).
    VOLLEY_HD static void half_step_euler(const params& p, double i_ext, state& x, double h) {
        const double i = p.i_e + i_ext, half = 0.5 * h;
        double v = x[0];
        const double u = x[1];
        v = v + half * (0.04 * v * v + 5 * v + 140 - u + i);
        v = v + half * (0.04 * v * v + 5 * v + 140 - u + i);
        x[0] = v;
        x[1] = u + h * p.a * (p.b * v - u);
    }
};

}  // namespace volley::snn::detail
