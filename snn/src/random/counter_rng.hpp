#pragma once
// Counter-based random streams (Salmon et al. 2011, "Parallel random numbers: as easy as
// 1, 2, 3", Philox4x32-10). A stream is named by (seed, purpose, a, b); its n-th number is a
// pure function of those and n. So each neuron or synapse row can draw its own numbers on any
// thread, in any order, and a network builds identically for any thread or rank count.

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace volley::snn::detail {

/// What a stream is for; keeps streams of different uses apart.
enum class stream_purpose : std::uint32_t {
    connectivity = 1,
    synapse_values = 2,
    neuron_values = 3,
    poisson = 4,
    current_noise = 5,
    synapse_release = 6,
    quantal_release = 7,
};

class counter_rng {
public:
    counter_rng(std::uint64_t seed, stream_purpose purpose, std::uint32_t a, std::uint32_t b)
        : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)},
          ctr_{0, b, a, static_cast<std::uint32_t>(purpose)} {}

    /// Moves to the start of block `block` (four 32-bit words; one standard_normal() each):
    /// the numbers from there are a pure function of the stream and `block`.
    void seek(std::uint32_t block) {
        ctr_[0] = block;
        used_ = 4;
    }

    /// The next 32 random bits.
    std::uint32_t next_u32() {
        if (used_ == 4) refill();
        return block_[used_++];
    }

    /// The next 64 random bits.
    std::uint64_t next_u64() {
        const std::uint64_t hi = next_u32();
        return (hi << 32) | next_u32();
    }

    /// Uniform on [0, 1), with 53 random bits.
    double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

    /// Uniform on (0, 1], safe for log().
    double uniform_open0() { return 1.0 - uniform01(); }

    /// Uniform integer in [0, n), unbiased (Lemire's multiply-shift with rejection).
    std::uint32_t below(std::uint32_t n) {
        std::uint64_t m = std::uint64_t{next_u32()} * n;
        auto low = static_cast<std::uint32_t>(m);
        if (low < n) {
            const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
            while (low < threshold) {
                m = std::uint64_t{next_u32()} * n;
                low = static_cast<std::uint32_t>(m);
            }
        }
        return static_cast<std::uint32_t>(m >> 32);
    }

    /// Standard normal (Box-Muller; one draw per call, the second value is discarded so that
    /// the stream position does not depend on call history).
    double standard_normal() {
        const double u1 = uniform_open0();
        const double u2 = uniform01();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

    /// Exponential with the given rate (mean 1/rate).
    double exponential(double rate) { return -std::log(uniform_open0()) / rate; }

private:
    void refill() {
        std::array<std::uint32_t, 4> x = ctr_;
        std::array<std::uint32_t, 2> k = key_;
        for (int round = 0; round < 10; ++round) {
            const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * x[0];
            const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * x[2];
            x = {static_cast<std::uint32_t>(p1 >> 32) ^ x[1] ^ k[0], static_cast<std::uint32_t>(p1),
                 static_cast<std::uint32_t>(p0 >> 32) ^ x[3] ^ k[1], static_cast<std::uint32_t>(p0)};
            k[0] += 0x9E3779B9u;
            k[1] += 0xBB67AE85u;
        }
        block_ = x;
        used_ = 0;
        ++ctr_[0];
    }

    std::array<std::uint32_t, 2> key_;
    std::array<std::uint32_t, 4> ctr_;
    std::array<std::uint32_t, 4> block_{};
    int used_ = 4;
};

}  // namespace volley::snn::detail
