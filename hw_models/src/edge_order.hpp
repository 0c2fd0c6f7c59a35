#pragma once
// The reference's synapse order (RISP.md Appendix A, b.6): the iteration order of the
// framework's Robin-Hood edge hash table, which decides the order of noise draws.

#include <cstdint>
#include <utility>
#include <vector>

namespace volley::hw::detail {

/// Indices into `edges` ((from, to) pairs in JSON order), in the table's iteration order.
std::vector<std::size_t> reference_edge_order(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

}  // namespace volley::hw::detail
