#pragma once
// Names and constants of the SONATA layouts that the spike and report readers and writers share
// (docs/recording-format.md).

#include <cstddef>
#include <cstdint>

namespace volley::snn::detail {

/// SONATA's file magic number, written as the uint32 attribute `magic` of /spikes.
inline constexpr std::uint32_t sonata_magic = 0x0A7A;
/// SONATA format version [major, minor], written as the uint32[2] attribute `version`.
inline constexpr std::uint32_t sonata_version[2] = {0, 1};

/// Values of SONATA's `sorting` enum attribute on /spikes/<population>.
enum class spike_sorting : std::uint8_t { none = 0, by_id = 1, by_time = 2 };

/// Spikes per chunk of node_ids and timestamps (64 KiB of timestamps), and the number of
/// spikes a population buffers in memory before it writes them.
inline constexpr std::size_t spike_chunk_size = 8192;

/// Values per chunk of a report's data (1 MiB of float64); a chunk spans whole rows where a
/// row fits, so rows per chunk = max(1, report_chunk_values / n_nodes).
inline constexpr std::size_t report_chunk_values = 131072;

}  // namespace volley::snn::detail
