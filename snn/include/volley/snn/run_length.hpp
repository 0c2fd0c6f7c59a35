#pragma once
// How long one run may be: a step count and every sum the engine forms with it (steps already
// done, a network's depth, a checkpoint's interval) must stay within int64.

#include <cstdint>
#include <string>

namespace volley::snn {

/// The most steps one run may ask for (2^62).
inline constexpr std::int64_t max_run_steps = std::int64_t{1} << 62;

/// The steps of `duration_ms` at `dt_ms`, rounded to the nearest. Throws invalid_parameter naming
/// `object`, `parameter` and the duration as given (e.g. "inf", "1e+300") when it is not finite,
/// is negative, or is longer than max_run_steps steps.
std::int64_t duration_steps(double duration_ms, double dt_ms, const std::string& object,
                            const std::string& parameter = "duration_ms");

/// Throws invalid_parameter naming `object` and `parameter` when a step count is negative or
/// more than `max_run_steps - extra` (the steps the run adds to it).
void check_run_steps(std::int64_t steps, const std::string& object, const std::string& parameter,
                     std::int64_t extra = 0);

}  // namespace volley::snn
