#pragma once
// He initialisation (He et al. 2015) in its uniform form, the usual choice before ReLU.

#include "random_stream.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace volley::convert::detail {

/// Fills `values` uniformly in ±√(6/fan_in) from the stream keyed by `seed`.
template <class T>
void he_uniform(std::vector<T>& values, std::size_t fan_in, std::uint64_t seed) {
    random_stream rng(seed);
    const double limit = std::sqrt(6.0 / static_cast<double>(fan_in));
    for (auto& v : values) v = static_cast<T>((2 * rng.uniform() - 1) * limit);
}

}  // namespace volley::convert::detail
