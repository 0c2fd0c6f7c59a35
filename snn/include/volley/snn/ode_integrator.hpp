#pragma once
// How an ODE model (lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh) is integrated: a choice
// made per population, in the model (neuron_models.hpp), the network JSON ("integrator") and
// the CLI (--integrator). docs/integrators.md gives each scheme's accuracy and speed.

#include <cstdint>
#include <span>
#include <string>

namespace volley::snn {

/// The integration schemes.
enum class ode_scheme : std::uint8_t {
    /// Dormand-Prince 5(4) per neuron with error control (abs_tol, rel_tol), the threshold
    /// crossing located inside the step on the dense output, refractoriness in continuous time.
    adaptive,
    /// Fixed step dt, classic 4th-order Runge-Kutta. Spikes and refractoriness on the step grid.
    rk4,
    /// Fixed step dt, 2nd-order Runge-Kutta (the midpoint rule, as Brian2's rk2).
    rk2,
    /// Fixed step dt, exponential Euler: each variable x with dx/dt = a + b x, a and b taken at
    /// the step's start, advanced exactly over the step (as Brian2's exponential_euler). Exact
    /// for the conductances of lif_cond_exp; only models whose equations are linear in each
    /// variable by itself have it (not izhikevich, not adex).
    exponential_euler,
    /// Fixed step dt, forward Euler.
    euler,
    /// Izhikevich (2003)'s published update: v by two Euler half-steps of dt/2, then u by one
    /// Euler step of dt from the new v. izhikevich only.
    half_step_euler,
};

/// The scheme of one population, and the tolerances of `adaptive` (ignored by the others). Each
/// model's default is its member initialiser in neuron_models.hpp (rk4 for the conductance LIFs,
/// exponential_euler for hh, adaptive for izhikevich and adex: docs/integrators.md, "Defaults");
/// a value-initialised ode_integrator{} is adaptive.
struct ode_integrator {
    ode_scheme scheme = ode_scheme::adaptive;
    double abs_tol = 1e-8;  ///< absolute error per step [the variable's unit], > 0
    double rel_tol = 1e-8;  ///< relative error per step, > 0
    friend bool operator==(const ode_integrator&, const ode_integrator&) = default;
};

/// The scheme's name in files and on the command line: "adaptive", "rk4", ...
std::string scheme_name(ode_scheme s);

/// Parses a scheme name; throws invalid_parameter naming `object` and listing the names.
ode_scheme scheme_from_name(const std::string& name, const std::string& object);

/// True for the fixed-step schemes (every scheme but adaptive).
constexpr bool is_fixed_step(ode_scheme s) { return s != ode_scheme::adaptive; }

}  // namespace volley::snn
