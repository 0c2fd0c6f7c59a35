#pragma once
// The CPU engine's thread team: a parallel region whose exceptions come back by thread index,
// and a barrier that does nothing for one thread.

#include <volley/error.hpp>

#include <barrier>
#include <exception>
#include <memory>
#include <string>
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

/// The barrier of a team of threads; none for one thread.
class team_barrier {
public:
    explicit team_barrier(int threads) {
        if (threads > 1) barrier_ = std::make_unique<std::barrier<>>(threads);
    }
    void wait() {
        if (barrier_) barrier_->arrive_and_wait();
    }
    std::barrier<>* get() { return barrier_.get(); }

private:
    // std::barrier waits on a futex after a short spin; OpenMP's barrier spins far longer,
    // which is ruinous when the machine has other work (or ctest runs tests side by side).
    std::unique_ptr<std::barrier<>> barrier_;
};

}  // namespace volley::snn::detail
