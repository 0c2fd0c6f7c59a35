#pragma once
// Strong types for the two integers the API could mix up (docs/architecture.md, "Strong
// types"): a population's index and a step. Passing one for the other is a compile error.

#include <compare>
#include <cstdint>
#include <functional>

namespace volley::snn {

/// A point on the simulation grid: an integer count of dt since t = 0.
struct step {
    std::int64_t value = 0;
    friend constexpr auto operator<=>(step, step) = default;
};

/// A population's index in its network.
struct population_index {
    std::uint32_t value = 0;
    friend constexpr auto operator<=>(population_index, population_index) = default;
};

}  // namespace volley::snn
