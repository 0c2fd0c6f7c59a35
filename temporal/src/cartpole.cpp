// The cart-pole dynamics and start states (see cartpole.hpp).

#include <volley/temporal/cartpole.hpp>

#include "splitmix.hpp"

#include <cmath>

namespace volley::temporal {

// Why: written in the order of Gymnasium's CartPoleEnv.step (the "euler" kinematics
// integrator), so that the same state and force give the same bits as Gymnasium's float64
// arithmetic: the TENNLab logs and Gymnasium itself are the references.
cartpole_state cartpole_step(const cartpole_state& s, double force, const cartpole_physics& p) {
    const double total_mass = p.pole_mass + p.cart_mass;
    const double polemass_length = p.pole_mass * p.half_length;
    const double costheta = std::cos(s.theta);
    const double sintheta = std::sin(s.theta);
    const double temp = (force + polemass_length * s.theta_dot * s.theta_dot * sintheta) / total_mass;
    const double thetaacc = (p.gravity * sintheta - costheta * temp) /
                            (p.half_length * (4.0 / 3.0 - p.pole_mass * costheta * costheta / total_mass));
    const double xacc = temp - polemass_length * thetaacc * costheta / total_mass;
    cartpole_state n;
    n.x = s.x + p.tau * s.x_dot;
    n.x_dot = s.x_dot + p.tau * xacc;
    n.theta = s.theta + p.tau * s.theta_dot;
    n.theta_dot = s.theta_dot + p.tau * thetaacc;
    return n;
}

bool cartpole_failed(const cartpole_state& s, const cartpole_physics& p) {
    return s.x < -p.x_limit || s.x > p.x_limit || s.theta < -p.theta_limit || s.theta > p.theta_limit;
}

start_ranges default_start_ranges() { return {{{-1.2, 1.2}, {-0.5, 0.5}, {-0.1, 0.1}, {-0.5, 0.5}}}; }

cartpole_state cartpole_start(const start_ranges& ranges, std::uint64_t seed, std::uint64_t index) {
    detail::splitmix64 rng(seed, index);
    double v[4];
    for (std::size_t k = 0; k < 4; ++k) v[k] = ranges[k].lo + (ranges[k].hi - ranges[k].lo) * rng.unit();
    return {v[0], v[1], v[2], v[3]};
}

}  // namespace volley::temporal
