#pragma once
// The checkpoint file (docs/engine.md, "Checkpoints"): HDF5 with the attributes that say what
// wrote it, and one uint8 dataset per state record under /state.

#include <cstdint>
#include <filesystem>
#include <string>

#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

/// What a checkpoint was taken of; restore refuses a file whose header differs.
struct checkpoint_header {
    std::string network_sha256;  ///< of the network's JSON form with dt and seed
    std::string backend = "cpu";
    std::int64_t threads = 1;
    std::int64_t step = 0;
};

/// Writes `records` with `header` to `file` through a temporary file renamed over it, so that
/// an existing checkpoint is never left half written. Throws io_error.
void write_checkpoint(const std::filesystem::path& file, const checkpoint_header& header,
                      const state_archive::records& records);

/// Reads a checkpoint. Throws io_error when it cannot be opened and file_format_error when it
/// is not a Volley checkpoint or a record cannot be read.
state_archive::records read_checkpoint(const std::filesystem::path& file, checkpoint_header& header);

}  // namespace volley::snn::detail
