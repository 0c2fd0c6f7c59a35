#pragma once
// The memory a network needs on this rank, estimated from the lowering before any kernel,
// ring or table is allocated, so that a network far too large for the machine is refused with
// an error instead of paging the machine to a standstill (a population of 2^31 neurons once
// ran for minutes filling arrays).

#include <cstdint>

#include <volley/snn/network.hpp>

#include "lowering/lowered_network.hpp"

namespace volley::snn::detail {

/// A lower bound of the bytes the CPU engine allocates for `net` as lowered: 16 bytes of state
/// per neuron, 16 bytes of ring per neuron of the rank's domain and delay slot, 4 bytes per synapse of this rank.
std::uint64_t minimum_engine_bytes(const lowered_network& low);

/// The memory this process may still take: /proc/meminfo's MemAvailable, capped by the cgroup's
/// memory.max less its memory.current where there is one; 0 when neither can be read.
std::uint64_t available_memory_bytes();

/// Throws invalid_parameter naming the largest population, its size, the estimate and the limit
/// when minimum_engine_bytes(low) exceeds `limit_bytes` (0: available_memory_bytes(), and no
/// check when that is unknown).
void check_memory_budget(const network& net, const lowered_network& low, std::uint64_t limit_bytes);

}  // namespace volley::snn::detail
