#pragma once
// SHA-256 (FIPS 180-4), for spike-raster checksums and the demo's model cache. Self-contained so
// that checksums do not depend on which crypto library a machine has.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace volley::snn::detail {

/// Incremental SHA-256: update() with any number of byte ranges, then finish() once.
class sha256 {
  public:
    sha256() noexcept;

    /// Hashes `bytes` after everything given so far.
    void update(std::span<const std::byte> bytes) noexcept;
    /// Convenience overload for text.
    void update(const std::string& text) noexcept;

    /// Pads, finishes and returns the 32-byte digest. The object must not be updated after.
    std::array<std::uint8_t, 32> finish() noexcept;

    /// finish() as 64 lowercase hexadecimal digits.
    std::string finish_hex();

  private:
    void compress(const std::uint8_t* block) noexcept;

    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> block_{};
    std::size_t block_used_ = 0;
    std::uint64_t total_bytes_ = 0;
};

}  // namespace volley::snn::detail
