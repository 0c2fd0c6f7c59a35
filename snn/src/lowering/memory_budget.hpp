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

/// The synapses a projection's connector makes, on average, known before it is expanded (0 for the
/// convolutions and gates, whose memory is their kernel).
double expected_synapses(const network& net, std::size_t projection);

/// Before the network is lowered (which expands every connector): throws invalid_parameter
/// naming the projection with the most expected synapses, their number, the bytes and the limit
/// when 16 bytes per neuron and 4 per expected synapse of this rank (a lower bound of what the
/// engine takes) exceed `limit_bytes` (0: available_memory_bytes(); no check when unknown).
/// Without it a connector of 10^17 synapses ran (and `volley info` hung) until the memory ran out.
void check_expected_size(const network& net, std::uint64_t limit_bytes, int ranks);

/// Throws invalid_parameter naming the largest population, its size, the estimate and the limit
/// when minimum_engine_bytes(low) exceeds `limit_bytes` (0: available_memory_bytes(), and no
/// check when that is unknown).
void check_memory_budget(const network& net, const lowered_network& low, std::uint64_t limit_bytes);

}  // namespace volley::snn::detail
