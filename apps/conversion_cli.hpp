#pragma once
// Helpers shared by `volley convert` and `volley demo`: the --timesteps list and the class
// predicted for each image.

#include <volley/convert/tensor.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace volley::cli {

/// Parses "8,16,32": ascending integers >= 1. Throws invalid_parameter naming --timesteps.
std::vector<std::int64_t> parse_timesteps(const std::string& text);

/// The index of the largest logit of each image (the first one on ties).
std::vector<std::int32_t> argmax_rows(const convert::tensor<float>& logits);

}  // namespace volley::cli
