#include <volley/snn/spike_checksum.hpp>

#include <volley/snn/sha256.hpp>

#include <algorithm>
#include <array>
#include <cstddef>

namespace volley::snn {

namespace {

void put_le64(std::byte* out, std::uint64_t value) noexcept {
    for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}

}  // namespace

std::string spike_checksum(std::vector<std::pair<std::uint32_t, std::int64_t>> spikes) {
    std::sort(spikes.begin(), spikes.end());
    detail::sha256 hash;
    // Encode a batch of pairs at a time so that the hash sees large contiguous updates.
    constexpr std::size_t batch = 256;
    std::array<std::byte, batch * 16> buffer;
    for (std::size_t start = 0; start < spikes.size(); start += batch) {
        const std::size_t n = std::min(batch, spikes.size() - start);
        for (std::size_t i = 0; i < n; ++i) {
            put_le64(buffer.data() + 16 * i, spikes[start + i].first);
            put_le64(buffer.data() + 16 * i + 8,
                     static_cast<std::uint64_t>(spikes[start + i].second));
        }
        hash.update(std::span<const std::byte>(buffer.data(), 16 * n));
    }
    return hash.finish_hex();
}

}  // namespace volley::snn
