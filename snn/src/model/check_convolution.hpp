#pragma once
// Validation of a convolution connector against its populations and synapse spec.

#include <string>

#include <volley/snn/network.hpp>

namespace volley::snn::detail {

/// Throws invalid_parameter naming `object` (the projection) and the offending value when a
/// size is 0, groups do not divide the channels, the kernel has the wrong length or a
/// non-finite value, the dilated kernel does not fit the padded input, the source or target
/// size does not match the maps, the weight is not the constant 1 or the delay not a constant.
void check_convolution(const convolution& c, const population& source, const population& target,
                       const synapse_spec& synapse, const std::string& object);

}  // namespace volley::snn::detail
