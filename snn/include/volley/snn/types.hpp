#pragma once
// Strong types for ids and time (docs/architecture.md, "Strong types"). Ids and time never share
// an integer type: mixing them up is a compile error.

#include <compare>
#include <cstdint>
#include <functional>

namespace volley::snn {

/// A neuron's global index across every population of a network.
struct neuron_id {
    std::uint32_t value = 0;
    friend constexpr auto operator<=>(neuron_id, neuron_id) = default;
};

/// A neuron's index inside its population (SONATA's node_id).
struct local_id {
    std::uint32_t value = 0;
    friend constexpr auto operator<=>(local_id, local_id) = default;
};

/// A point on the simulation grid: an integer count of dt since t = 0.
struct step {
    std::int64_t value = 0;
    friend constexpr auto operator<=>(step, step) = default;
};

/// Time at the API, in milliseconds. Inside the engine time is always a `step`.
using time_ms = double;

/// A population's index in its network.
struct population_index {
    std::uint32_t value = 0;
    friend constexpr auto operator<=>(population_index, population_index) = default;
};

}  // namespace volley::snn
