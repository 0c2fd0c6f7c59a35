#pragma once
// Images are independent simulations: `workers` threads (the caller is worker 0) each set up
// their own state once and then take image indices from a shared counter until all n are
// taken. Results are stored by index, so they do not depend on which worker ran an image.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace volley::convert::detail {

/// The number of workers for n images and `threads` requested (at least 1).
inline int worker_count(int threads, std::size_t n) {
    const std::size_t want = threads < 1 ? 1 : static_cast<std::size_t>(threads);
    return static_cast<int>(std::min(want, std::max<std::size_t>(n, 1)));
}

/// Calls work(w, take) on worker w = 0 .. workers - 1, where take(i) sets i to the next image
/// index and returns false once all n are taken. The first exception, by worker index, is
/// rethrown after every worker has stopped (an exception stops the others at their next take).
template <class Work>
void run_image_workers(int workers, std::size_t n, Work&& work) {
    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
    auto run = [&](int w) {
        try {
            work(w, [&](std::size_t& i) { return (i = next.fetch_add(1)) < n; });
        } catch (...) {
            errors[static_cast<std::size_t>(w)] = std::current_exception();
            next.store(n);
        }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < workers; ++w) pool.emplace_back(run, w);
    run(0);
    for (auto& t : pool) t.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace volley::convert::detail
