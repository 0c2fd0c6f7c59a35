// The device backends' Philox stream (backends/device/philox_stream.hpp) draws what the CPU
// engine's counter_rng draws: the same 32-bit words and the same exponential intervals.

#include <gtest/gtest.h>

#include "backends/device/philox_stream.hpp"
#include "random/counter_rng.hpp"

namespace volley::snn::detail {
namespace {

TEST(backend_philox_stream, draws_the_words_and_intervals_of_counter_rng) {
    for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{42}, std::uint64_t{0x123456789abcdefULL}})
        for (const std::uint32_t a : {0u, 3u})
            for (const std::uint32_t b : {0u, 1u, 4095u}) {
                counter_rng cpu(seed, stream_purpose::poisson, a, b);
                auto dev = philox_stream::make(seed, static_cast<std::uint32_t>(stream_purpose::poisson), a, b);
                for (int k = 0; k < 50; ++k) ASSERT_EQ(dev.next_u32(), cpu.next_u32());
                for (int k = 0; k < 50; ++k) ASSERT_EQ(dev.exponential(0.04), cpu.exponential(0.04));
            }
}

}  // namespace
}  // namespace volley::snn::detail
