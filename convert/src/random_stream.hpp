#pragma once
// Counter-based random numbers (SplitMix64 finaliser): a value is a pure function of its keys,
// so weight initialisation and Dropout masks do not depend on thread count or call order.

#include <cmath>
#include <cstdint>

namespace volley::convert::detail {

/// The SplitMix64 finaliser (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
inline std::uint64_t mix64(std::uint64_t z) noexcept {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// A uniform double in [0, 1) keyed by (a, b, c).
inline double uniform01(std::uint64_t a, std::uint64_t b, std::uint64_t c) noexcept {
    const std::uint64_t h = mix64(mix64(mix64(a) ^ b) ^ c);
    return static_cast<double>(h >> 11) * 0x1.0p-53;
}

/// A sequential stream over the counter-based generator, for initialisation and shuffling.
class random_stream {
public:
    explicit random_stream(std::uint64_t seed) noexcept : seed_(seed) {}
    /// The next 64 random bits.
    std::uint64_t next() noexcept { return mix64(mix64(seed_) ^ counter_++); }
    /// Uniform in [0, 1).
    double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform integer in [0, n), by Lemire's multiply-shift (negligible bias for n ≪ 2^64).
    std::uint64_t below(std::uint64_t n) noexcept {
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
    }

private:
    std::uint64_t seed_, counter_ = 0;
};

}  // namespace volley::convert::detail
