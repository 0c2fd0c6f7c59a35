#pragma once
// The generator's random stream: splitmix64 (Steele, Lea & Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014), with integer-only draws, so that a seed gives
// the same numbers on every platform and standard library.

#include <cstdint>

namespace volley::temporal::detail {

class splitmix64 {
  public:
    /// The stream keyed by (seed, stream).
    splitmix64(std::uint64_t seed, std::uint64_t stream) : state_(mix(seed) ^ mix(stream + 0x632be59bd9b4e019ull)) {}

    std::uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ull;
        return mix(state_);
    }
    /// Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; bias at most n / 2^32).
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
    }
    /// Uniform double in [0, 1) with 53 random bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  private:
    static std::uint64_t mix(std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::uint64_t state_;
};

}  // namespace volley::temporal::detail
