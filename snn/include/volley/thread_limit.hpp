#pragma once
// The most threads a user may ask for. Tens of thousands of OpenMP threads exhaust the runtime
// (65,536 crashed inside libgomp, 40,000 failed to create threads, 20,000 ran for minutes); more
// than a few per core only slow a run. Every thread count Volley takes from a user (the
// engine's context, EONS, the converters and trainers, every --threads option) is checked
// against this bound before a thread is started.

#include <volley/error.hpp>

#include <algorithm>
#include <string>
#include <thread>

namespace volley {

/// max(64, 16 × the cores the machine reports).
inline int max_thread_count() {
    return static_cast<int>(std::max(64u, 16u * std::thread::hardware_concurrency()));
}

/// invalid_parameter naming `object`, "threads" and the value unless 0 <= threads <=
/// max_thread_count() (or 1 <= threads when `zero_allowed` is false, where 0 would mean
/// nothing); the message gives the bound.
inline void check_thread_count(const std::string& object, int threads, bool zero_allowed = true) {
    const int low = zero_allowed ? 0 : 1, high = max_thread_count();
    if (threads < low || threads > high)
        throw invalid_parameter(object, "threads", std::to_string(threads),
                                "must be in [" + std::to_string(low) + ", " + std::to_string(high) + "] (" +
                                    (zero_allowed ? "0: all cores; " : "") + "the bound is 16 per core of this machine's " +
                                    std::to_string(std::thread::hardware_concurrency()) + ", and never below 64)");
}

}  // namespace volley
