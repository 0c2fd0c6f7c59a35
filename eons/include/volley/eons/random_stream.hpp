#pragma once
// The random numbers of EONS: independent streams keyed by (seed, purpose, generation, index),
// so that every child of every generation draws the same numbers whatever thread breeds or
// evaluates it. The generator (splitmix64) and the uniform draws below are written out here
// rather than taken from <random>'s distributions, whose algorithms the C++ standard leaves to
// the library: the same seed gives the same networks with any standard library.

#include <cstdint>

namespace volley::eons {

/// What a stream is drawn for; part of its key, so that streams never overlap.
enum class stream_purpose : std::uint64_t {
    random_network = 1,  ///< a fresh random network (initial population, random share)
    breeding = 2,        ///< a child: selection, crossover or merge, mutations
};

/// A splitmix64 generator (Steele, Lea and Flood, OOPSLA 2014) with uniform integer, real
/// and Bernoulli draws.
class random_stream {
  public:
    /// A stream whose state is `state` (any value is fine).
    explicit random_stream(std::uint64_t state) : state_(state) {}

    /// The stream of (seed, purpose, generation, index): the key is hashed with the
    /// splitmix64 finaliser one part at a time.
    static random_stream keyed(std::uint64_t seed, stream_purpose purpose, std::uint64_t generation,
                               std::uint64_t index) {
        std::uint64_t h = mix(seed);
        h = mix(h ^ static_cast<std::uint64_t>(purpose));
        h = mix(h ^ generation);
        h = mix(h ^ index);
        return random_stream(h);
    }

    /// The next 64 random bits.
    std::uint64_t next() {
        state_ += golden;
        return finalise(state_);
    }

    /// A uniform integer in [0, n), n >= 1 (rejection sampling: no modulo bias).
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
        for (;;) {
            const std::uint64_t x = next();
            if (x >= threshold) return x % n;
        }
    }

    /// A uniform real in [0, 1) with 53 random bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    /// A uniform real in [lo, hi] (lo <= hi); hi itself only through rounding.
    double uniform(double lo, double hi) {
        const double v = lo + (hi - lo) * unit();
        return v > hi ? hi : v;
    }

    /// True with probability p (p <= 0: never; p >= 1: always).
    bool chance(double p) { return unit() < p; }

  private:
    static constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;
    static std::uint64_t finalise(std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    static std::uint64_t mix(std::uint64_t x) { return finalise(x + golden); }

    std::uint64_t state_;
};

}  // namespace volley::eons
