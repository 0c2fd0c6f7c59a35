// The CPU engine's thread team (snn/src/backends/cpu/thread_team.hpp): the spinning barrier
// lets no thread into round r + 1 before every thread has finished round r, over many rounds
// and with more threads than cores (where it must yield, then sleep); parallel_for_threads
// rethrows the exception of the lowest thread index.

#include "backends/cpu/thread_team.hpp"

#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

namespace vd = volley::snn::detail;

void expect_rounds_stay_apart(int threads, int rounds) {
    vd::spin_barrier barrier(threads);
    std::atomic<int> arrived{0};
    std::atomic<int> violations{0};
    std::vector<std::thread> team;
    for (int t = 0; t < threads; ++t)
        team.emplace_back([&, t] {
            for (int r = 0; r < rounds; ++r) {
                arrived.fetch_add(1);
                if (t == r % threads) std::this_thread::yield();  // one late thread per round
                barrier.arrive_and_wait();
                // Every thread of round r has arrived, and none of round r + 1 can have yet.
                if (arrived.load() < threads * (r + 1)) violations.fetch_add(1);
                barrier.arrive_and_wait();
                if (arrived.load() > threads * (r + 1)) violations.fetch_add(1);
                barrier.arrive_and_wait();
            }
        });
    for (auto& th : team) th.join();
    EXPECT_EQ(arrived.load(), threads * rounds);
    EXPECT_EQ(violations.load(), 0) << threads << " threads";
}

TEST(thread_team, barrier_keeps_rounds_apart_with_as_many_threads_as_cores) { expect_rounds_stay_apart(2, 20000); }

TEST(thread_team, barrier_keeps_rounds_apart_with_more_threads_than_cores) { expect_rounds_stay_apart(9, 2000); }

TEST(thread_team, parallel_for_threads_rethrows_the_lowest_threads_exception) {
    try {
        vd::parallel_for_threads(3, [](int t) {
            if (t >= 1) throw std::runtime_error("thread " + std::to_string(t));
        });
        FAIL() << "nothing thrown";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "thread 1");
    }
}

}  // namespace
