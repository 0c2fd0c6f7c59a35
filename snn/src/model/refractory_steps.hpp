#pragma once
// A refractory period as a count of steps, for the kernels that count it down in whole steps
// (the LIF kernel rounds to the nearest step, the fixed-step ODE kernels up). The count must fit
// the kernels' 31-bit counters: a longer period is refused, naming the neuron and the value,
// instead of wrapping to a negative count.

#include <volley/error.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "model/format_number.hpp"

namespace volley::snn::detail {

/// `steps` (t_ref_ms / dt_ms, rounded by the caller) as a counter; invalid_parameter naming
/// `object` when it is 2^31 or more (or not a number).
inline std::int32_t refractory_steps(double steps, double t_ref_ms, double dt_ms, const std::string& object) {
    if (!(steps < static_cast<double>(std::numeric_limits<std::int32_t>::max())))
        throw invalid_parameter(object, "t_ref_ms", format_number(t_ref_ms),
                                "is more than 2^31 steps of dt = " + format_number(dt_ms) + " ms");
    return static_cast<std::int32_t>(std::max(0.0, steps));
}

}  // namespace volley::snn::detail
