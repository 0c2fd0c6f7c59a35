#pragma once
// Spikes as CSV text (docs/recording-format.md, "CSV"): one header line
// `population,node_id,time_ms`, then one line per spike. Times are written in the shortest form
// that reads back to the same double, so a CSV round trip is exact.

#include <volley/snn/sonata_spikes.hpp>

#include <filesystem>
#include <span>
#include <vector>

namespace volley::snn {

/// Writes the spikes of `pops` to `file` (created or truncated), population by population in
/// the given order, each population's spikes in their stored order. Population names holding
/// a comma, a double quote or a line break are quoted as in RFC 4180. io_error naming the file
/// if it cannot be written; when a write fails part way (a full disk, a file-size limit), the
/// file is cut back to its last complete line and the error says how many lines it keeps.
void write_spike_csv(const std::filesystem::path& file, std::span<const population_spikes> pops);

/// Reads a file written by write_spike_csv: one population_spikes per distinct population, in
/// order of first appearance. io_error if the file cannot be read; file_format_error naming the
/// file and line ("line 7") for a bad header, a missing field or a value that is not a number.
std::vector<population_spikes> read_spike_csv(const std::filesystem::path& file);

}  // namespace volley::snn
