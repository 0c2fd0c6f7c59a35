#pragma once
// The IDX format of MNIST and Fashion-MNIST (LeCun et al.), plain or gzip-compressed:
// bytes 0-1 zero, byte 2 the element type (0x08 = unsigned byte), byte 3 the number of
// dimensions, then one big-endian uint32 per dimension, then the values.

#include <cstdint>
#include <filesystem>
#include <vector>

namespace volley::convert {

/// An IDX array of unsigned bytes.
struct idx_array {
    std::vector<std::uint32_t> dims;  ///< e.g. {60000, 28, 28}
    std::vector<std::uint8_t> values; ///< row-major
};

/// Reads an IDX file of unsigned bytes (gzip-compressed or not). Every error names the file:
/// io_error if it is missing (the message says to run scripts/setup) or unreadable;
/// file_format_error for a bad magic number, an element type other than 0x08, zero dimensions,
/// or a size that does not match the header.
idx_array read_idx(const std::filesystem::path& file);

}  // namespace volley::convert
