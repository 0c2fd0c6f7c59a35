#pragma once
// The lowering's update order (docs/engine.md, "The lowering"): every engine updates the
// populations of a step in one order, where the source of each zero-delay projection comes
// before its target, so that its spikes can be delivered within the step.

#include <volley/snn/network.hpp>

#include <cstdint>
#include <vector>

namespace volley::snn::detail {

struct update_order {
    std::vector<std::uint32_t> order;     ///< population indices, zero-delay sources first
    std::vector<std::uint8_t> sends_now;  ///< [population]: the source of a zero-delay projection
};

/// The order, with ties broken by population index; throws invalid_parameter naming a
/// projection on a cycle of zero-delay projections.
update_order order_populations(const network& net);

/// The compound units: unit[p] is the smallest population index joined to p by zero-delay
/// projections (either way). A unit's spikes are delivered within the step, so no partition
/// of the neurons among ranks may split it.
std::vector<std::uint32_t> compound_units(const network& net);

}  // namespace volley::snn::detail
