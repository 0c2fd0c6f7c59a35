#pragma once
// Where a spike time [ms] falls on the step grid. A spike source fires at the times it is given,
// on the grid or off it; the grid-timed kernels receive a spike at the end of the step that
// holds its time, step k covering (k - 1)·dt < t <= k·dt: NEST's convention for a precise spike
// into a grid-based neuron (spike_generator with precise_times into iaf_psc_exp). Its exact time
// stays in the recording (spike_data::source_times_ms).

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace volley::snn::detail {

/// The step k whose end a spike at time t > 0 [ms] is sent at: the smallest k with k·dt >= t,
/// a time within 1e-6 of a step (relative) counting as on it, so that 0.3 with dt 0.1 is step 3
/// although 0.3 / 0.1 is 2.9999999999999996.
inline std::int64_t spike_time_step(double t_ms, double dt_ms) {
    const double x = t_ms / dt_ms, r = std::nearbyint(x);
    if (std::abs(x - r) <= 1e-6 * std::max(1.0, std::abs(x))) return static_cast<std::int64_t>(r);
    return static_cast<std::int64_t>(std::ceil(x));
}

}  // namespace volley::snn::detail
