#pragma once
// The CPU engine's thread team: a parallel region whose exceptions come back by thread index,
// and a barrier that does nothing for one thread.

#include <volley/error.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <omp.h>

namespace volley::snn::detail {

/// Runs f(t) on `threads` OpenMP threads and rethrows the first exception, by thread index,
/// so that errors are reported the same way whatever the thread timing.
template <class F>
inline void parallel_for_threads(int threads, F&& f) {
    if (threads == 1) {  // no team to start
        f(0);
        return;
    }
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        try {
            if (omp_get_num_threads() != threads)
                throw internal_error("OpenMP gave " + std::to_string(omp_get_num_threads()) + " threads, not " +
                                     std::to_string(threads));
            f(t);
        } catch (...) {
            errors[static_cast<std::size_t>(t)] = std::current_exception();
        }
    }
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

/// A barrier for a team that meets once per epoch: the others usually arrive within
/// microseconds (the same work apart), so a waiting thread spins for a while (a few us), then
/// yields its core a while, before it sleeps on the futex (std::atomic::wait). std::barrier sleeps almost at once, and
/// a futex wake costs more than a small network's step (CUBA at N = 40,000 on 2 threads ran
/// slower than on 1); OpenMP's barrier spins far longer, which is ruinous when the machine has
/// other work (or ctest runs tests side by side).
class spin_barrier {
public:
    explicit spin_barrier(int threads) : threads_(threads) {}
    void arrive_and_wait() {
        const std::uint32_t generation = generation_.load(std::memory_order_acquire);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {  // the last one opens it
            arrived_.store(0, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
            generation_.notify_all();
            return;
        }
        for (int i = 0; i < spin_limit; ++i) {
            if (generation_.load(std::memory_order_acquire) != generation) return;
            pause();
        }
        // Then yield the core: when more threads than cores run (ranks of a dry run, tests side
        // by side), the thread still at work needs it.
        for (int i = 0; i < yield_limit; ++i) {
            if (generation_.load(std::memory_order_acquire) != generation) return;
            std::this_thread::yield();
        }
        while (generation_.load(std::memory_order_acquire) == generation)
            generation_.wait(generation, std::memory_order_acquire);
    }

private:
    static constexpr int spin_limit = 300, yield_limit = 100;
    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }
    const int threads_;
    alignas(64) std::atomic<int> arrived_{0};
    alignas(64) std::atomic<std::uint32_t> generation_{0};
};

/// The barrier of a team of threads; none for one thread.
class team_barrier {
public:
    explicit team_barrier(int threads) {
        if (threads > 1) barrier_ = std::make_unique<spin_barrier>(threads);
    }
    void wait() {
        if (barrier_) barrier_->arrive_and_wait();
    }
    spin_barrier* get() { return barrier_.get(); }

private:
    std::unique_ptr<spin_barrier> barrier_;
};

}  // namespace volley::snn::detail
