#pragma once
// Value specifications: how a per-neuron parameter or a per-synapse weight or delay is given.
// A constant, a list with one value per element, or a distribution drawn from the network's
// counter-based random streams (so the drawn values never depend on the thread count).

#include <limits>
#include <string>
#include <variant>
#include <vector>

namespace volley::snn {

/// Uniform distribution on [low, high).
struct uniform {
    double low = 0;
    double high = 1;
    friend bool operator==(const uniform&, const uniform&) = default;
};

/// Normal distribution with the given mean and standard deviation. Without bounds a drawn value
/// that is invalid for its use, such as a delay below dt, is an error, never clamped. With
/// bounds, a value outside [low, high] is drawn again (NEST's `nest.math.redraw`): the normal
/// truncated to [low, high], which must hold at least 0.1% of the distribution's mass.
struct normal {
    double mean = 0;
    double stddev = 1;
    double low = -std::numeric_limits<double>::infinity();   ///< redraw below this
    double high = std::numeric_limits<double>::infinity();   ///< redraw above this
    bool bounded() const noexcept { return low > -std::numeric_limits<double>::infinity() || high < std::numeric_limits<double>::infinity(); }
    friend bool operator==(const normal&, const normal&) = default;
};

/// A constant, one value per element (neuron or synapse), or a distribution.
using value_spec = std::variant<double, std::vector<double>, uniform, normal>;

/// Human-readable form of a value spec, for error messages: "1.5", "uniform(-60, -50)", ...
std::string describe(const value_spec& v);

/// Throws invalid_parameter naming `object` and `parameter` if any number in `v` is not finite,
/// or if a distribution's bounds are inverted (uniform: low > high; normal: stddev < 0, low >
/// high, or less than 0.1% of the mass within [low, high], which would redraw without end).
void check_finite(const value_spec& v, const std::string& object, const std::string& parameter);

/// The probability that the untruncated normal N(mean, stddev) lies within [low, high].
double normal_mass_within(const normal& n);

/// The least mass a bounded normal must keep within its bounds (check_finite): 0.1%, so that a
/// value takes 1,000 draws on average at the very worst.
inline constexpr double min_redraw_mass = 1e-3;

}  // namespace volley::snn
