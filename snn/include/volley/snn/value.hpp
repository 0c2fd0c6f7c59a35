#pragma once
// Value specifications: how a per-neuron parameter or a per-synapse weight or delay is given.
// A constant, a list with one value per element, or a distribution drawn from the network's
// counter-based random streams (so the drawn values never depend on the thread count).

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

/// Normal distribution with the given mean and standard deviation (no truncation: a drawn
/// value that is invalid for its use, such as a delay below dt, is an error, never clamped).
struct normal {
    double mean = 0;
    double stddev = 1;
    friend bool operator==(const normal&, const normal&) = default;
};

/// A constant, one value per element (neuron or synapse), or a distribution.
using value_spec = std::variant<double, std::vector<double>, uniform, normal>;

/// Human-readable form of a value spec, for error messages: "1.5", "uniform(-60, -50)", ...
std::string describe(const value_spec& v);

/// Throws invalid_parameter naming `object` and `parameter` if any number in `v` is not finite,
/// or if a distribution's bounds are inverted (uniform: low > high; normal: stddev < 0).
void check_finite(const value_spec& v, const std::string& object, const std::string& parameter);

}  // namespace volley::snn
