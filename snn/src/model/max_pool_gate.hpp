#pragma once
// The max_pool_gate connector (connectors.hpp): validation, and the source neurons of a window.

#include <volley/snn/network.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace volley::snn::detail {

/// invalid_parameter naming `object` for zero sizes, a padding not below the pool size, a window
/// that does not fit, population sizes that do not match the maps, a weight or delay that is
/// not a constant.
void check_max_pool_gate(const max_pool_gate& g, const population& source, const population& target,
                         const synapse_spec& synapse, const std::string& object);

/// The source neurons (local indices) of window `j` of the target map, in row-major order
/// (the tie order of the gate); cells in the padding are left out.
void sources_max_pool_gate(const max_pool_gate& g, std::uint32_t j, std::vector<std::uint32_t>& sources);

}  // namespace volley::snn::detail
