#pragma once
// The cart-pole system (docs/control.md, "Dynamics"): Gymnasium CartPole-v1's equations (Barto,
// Sutton and Anderson 1983, as Gymnasium writes them), advanced by explicit Euler, and the
// seeded, platform-independent start states of the control benchmark.

#include <array>
#include <cstdint>

namespace volley::temporal {

/// The state of the cart and the pole: x [m], ẋ [m/s], θ [rad, 0 = upright], θ̇ [rad/s].
struct cartpole_state {
    double x = 0, x_dot = 0, theta = 0, theta_dot = 0;
    /// The four values in the order x, ẋ, θ, θ̇.
    std::array<double, 4> values() const { return {x, x_dot, theta, theta_dot}; }
};

/// Gymnasium CartPole-v1's constants.
struct cartpole_physics {
    double gravity = 9.8;        ///< [m/s²]
    double cart_mass = 1.0;      ///< [kg]
    double pole_mass = 0.1;      ///< [kg]
    double half_length = 0.5;    ///< [m] half the pole's length
    double tau = 0.02;           ///< [s] one step
    double x_limit = 2.4;        ///< [m] the episode ends when |x| > x_limit
    double theta_limit = 12.0 * 2.0 * 3.14159265358979323846 / 360.0;  ///< [rad] … or |θ| > this
    double force = 10.0;         ///< [N] magnitude of a push
};

/// One explicit Euler step of `tau` under a horizontal force `force` [N] on the cart.
cartpole_state cartpole_step(const cartpole_state& s, double force, const cartpole_physics& p = {});

/// True when the state is outside the limits (|x| > x_limit or |θ| > theta_limit).
bool cartpole_failed(const cartpole_state& s, const cartpole_physics& p = {});

/// A closed interval [lo, hi].
struct value_range {
    double lo = 0, hi = 0;
};

/// Start states are drawn uniformly from these ranges (x, ẋ, θ, θ̇).
using start_ranges = std::array<value_range, 4>;

/// The benchmark's start ranges: x ∈ [−1.2, 1.2], ẋ ∈ [−0.5, 0.5], θ ∈ [−0.1, 0.1], θ̇ ∈ [−0.5, 0.5].
start_ranges default_start_ranges();

/// Start `index` of stream `seed`: each value lo + (hi − lo)·u, u a 53-bit uniform draw of a
/// splitmix64 stream keyed by (seed, index), in the order x, ẋ, θ, θ̇. The same (seed, index)
/// gives the same start on every platform.
cartpole_state cartpole_start(const start_ranges& ranges, std::uint64_t seed, std::uint64_t index);

/// The stream seed of the held-out test starts (docs/control.md, "Starts"): the training starts
/// of `volley evolve` use the evolution's seed, which never reaches this range in practice.
inline constexpr std::uint64_t test_start_seed = 1'000'000'007ull;

}  // namespace volley::temporal
