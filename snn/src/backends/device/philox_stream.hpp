#pragma once
// The counter-based stream of random/counter_rng.hpp (Philox4x32-10) as a plain struct that
// device code can hold in a column and step: the same key, counter and draws, so a Poisson
// source draws the same intervals on every backend (tests/backend/test_philox_stream.cpp
// compares it with counter_rng).

#include <cmath>
#include <cstdint>

#include "backends/host_device.hpp"

namespace volley::snn::detail {

struct philox_stream {
    std::uint32_t key[2];
    std::uint32_t ctr[4];
    std::uint32_t block[4];
    std::uint32_t used;

    /// The stream (seed, purpose, a, b) of counter_rng.
    VOLLEY_HD static philox_stream make(std::uint64_t seed, std::uint32_t purpose, std::uint32_t a, std::uint32_t b) {
        philox_stream r{};
        r.key[0] = static_cast<std::uint32_t>(seed);
        r.key[1] = static_cast<std::uint32_t>(seed >> 32);
        r.ctr[0] = 0, r.ctr[1] = b, r.ctr[2] = a, r.ctr[3] = purpose;
        r.used = 4;
        return r;
    }

    VOLLEY_HD std::uint32_t next_u32() {
        if (used == 4) refill();
        return block[used++];
    }
    VOLLEY_HD std::uint64_t next_u64() {
        const std::uint64_t hi = next_u32();
        return (hi << 32) | next_u32();
    }
    /// Uniform on (0, 1], as counter_rng::uniform_open0.
    VOLLEY_HD double uniform_open0() { return 1.0 - static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
    /// Exponential with the given rate, as counter_rng::exponential. The host uses the C
    /// library's log, the device CUDA's (see docs/cuda.md, "Poisson sources").
    VOLLEY_HD double exponential(double rate) { return -std::log(uniform_open0()) / rate; }

    VOLLEY_HD void refill() {
        std::uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3];
        std::uint32_t k0 = key[0], k1 = key[1];
        for (int round = 0; round < 10; ++round) {
            const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * x0;
            const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * x2;
            const std::uint32_t y0 = static_cast<std::uint32_t>(p1 >> 32) ^ x1 ^ k0, y1 = static_cast<std::uint32_t>(p1),
                                y2 = static_cast<std::uint32_t>(p0 >> 32) ^ x3 ^ k1, y3 = static_cast<std::uint32_t>(p0);
            x0 = y0, x1 = y1, x2 = y2, x3 = y3;
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        block[0] = x0, block[1] = x1, block[2] = x2, block[3] = x3;
        used = 0;
        ++ctr[0];
    }
};

}  // namespace volley::snn::detail
