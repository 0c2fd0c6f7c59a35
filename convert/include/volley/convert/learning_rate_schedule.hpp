#pragma once
// Linear warm-up followed by polynomial decay, the schedule of the LARS paper
// (You, Gitman & Ginsburg 2017; Goyal et al. 2017 for the warm-up).

#include <cstddef>

namespace volley::convert {

/// lr(s) = base·(s + 1)/warm-up for s < warm-up steps; afterwards
/// lr(s) = base·(1 − (s − warm-up)/(total − warm-up))^power.
struct learning_rate_schedule {
    double base_rate = 0.01;        ///< peak learning rate
    std::size_t warmup_steps = 0;   ///< steps of linear warm-up
    std::size_t total_steps = 1;    ///< steps of the whole run
    double power = 2.0;             ///< polynomial decay exponent (0: constant after warm-up)

    /// The learning rate of step `s` (0-based). invalid_parameter if the schedule is inconsistent
    /// (total_steps = 0, warm-up > total, a negative or non-finite rate or power).
    double at(std::size_t s) const;
    /// Throws invalid_parameter if the schedule is inconsistent.
    void validate() const;
};

}  // namespace volley::convert
