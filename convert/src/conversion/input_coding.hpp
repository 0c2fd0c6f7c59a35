#pragma once
// Spike-coded inputs: per image, a table of input events per step and pixel, drawn from
// counter-based streams keyed by (seed, image index, step, pixel), so that an image gets the
// same input whichever worker runs it.

#include <volley/convert/snn_evaluation.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace volley::convert::detail {

/// The step of pixel value x's one event under time-to-first-spike coding with a window of
/// K = `window` steps: min(K − 1, round((1 − x)·K)), or −1 (no event) for x <= 0. The event
/// at step t stands for the value 1 − t/K: 1 at t = 0, 1/K (not 0) at the last step.
std::int64_t ttfs_first_step(double x, std::int64_t window);

/// values[step][pixel] for steps [0, the largest checkpoint): Bernoulli 0/1 with probability
/// x·max_rate, a Poisson count of mean x·max_rate, or for ttfs the held current: 0 before the
/// pixel's first-spike step t, 1 − t/K from t on.
std::vector<std::vector<double>> input_table(const converted_snn& net, std::span<const float> image, std::size_t index,
                                             const evaluation_options& options);

}  // namespace volley::convert::detail
