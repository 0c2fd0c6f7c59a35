#pragma once
// A fingerprint of a spike raster, for regression tests of deterministic runs
// (docs/recording-format.md, "Spike checksum").

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace volley::snn {

/// Lowercase hexadecimal SHA-256 (FIPS 180-4) of a spike raster given as (neuron_id, step)
/// pairs: neuron_id is a global neuron index, step the integer time step (count of dt) of the
/// spike. The pairs are sorted ascending by (neuron_id, step), so the order they were recorded
/// in does not matter (duplicates are kept); each pair is then encoded as 8 bytes little-endian
/// uint64 neuron_id followed by 8 bytes little-endian int64 step (two's complement), and the
/// concatenation is hashed. An empty raster hashes the empty message.
std::string spike_checksum(std::vector<std::pair<std::uint32_t, std::int64_t>> spikes);

}  // namespace volley::snn
