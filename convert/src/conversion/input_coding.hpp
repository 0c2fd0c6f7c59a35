#pragma once
// Spike-coded inputs: per image, a table of input events per step and pixel, drawn from
// counter-based streams keyed by (seed, image index, step, pixel), so that an image gets the
// same input whichever worker runs it.

#include <volley/convert/snn_evaluation.hpp>

#include <span>
#include <vector>

namespace volley::convert::detail {

/// values[step][pixel] for steps [0, the largest checkpoint): Bernoulli 0/1 with probability
/// x·max_rate, or a Poisson count of mean x·max_rate.
std::vector<std::vector<double>> input_table(const converted_snn& net, std::span<const float> image, std::size_t index,
                                             const evaluation_options& options);

}  // namespace volley::convert::detail
