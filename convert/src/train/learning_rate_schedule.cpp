// Warm-up and polynomial decay.

#include <volley/convert/learning_rate_schedule.hpp>
#include <volley/error.hpp>

#include <cmath>
#include <string>

namespace volley::convert {

void learning_rate_schedule::validate() const {
    const std::string what = "learning-rate schedule";
    if (!(std::isfinite(base_rate) && base_rate > 0))
        throw invalid_parameter(what, "base_rate", std::to_string(base_rate), "must be > 0");
    if (total_steps == 0) throw invalid_parameter(what, "total_steps", "0", "must be >= 1");
    if (warmup_steps > total_steps)
        throw invalid_parameter(what, "warmup_steps", std::to_string(warmup_steps),
                                "exceeds the " + std::to_string(total_steps) + " steps of the run");
    if (!(std::isfinite(power) && power >= 0))
        throw invalid_parameter(what, "power", std::to_string(power), "must be >= 0");
}

double learning_rate_schedule::at(std::size_t s) const {
    validate();
    if (s < warmup_steps)
        return base_rate * static_cast<double>(s + 1) / static_cast<double>(warmup_steps);
    if (s >= total_steps) s = total_steps - 1;
    const double span = static_cast<double>(total_steps - warmup_steps);
    const double progress = static_cast<double>(s - warmup_steps) / span;
    return base_rate * std::pow(1.0 - progress, power);
}

}  // namespace volley::convert
