#pragma once
// A progress bar on stderr, drawn only on a terminal and only once a run has taken ~2 s.

#include <chrono>
#include <cstdio>

namespace volley::cli {

class progress_bar {
public:
    /// @param enabled  false under --quiet or when stderr is not a terminal
    /// @param total_ms the biological time the run will cover [ms]
    progress_bar(bool enabled, double total_ms)
        : enabled_(enabled), total_ms_(total_ms), start_(std::chrono::steady_clock::now()) {}

    /// Redraws the bar at biological time `done_ms`.
    void update(double done_ms) {
        if (!enabled_ || total_ms_ <= 0) return;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (elapsed < 2.0) return;
        const double frac = done_ms / total_ms_;
        const int width = 40, filled = static_cast<int>(frac * width);
        const double eta = frac > 0 ? elapsed * (1 - frac) / frac : 0;
        std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  %.0f/%.0f ms  ETA %.0f s ", filled,
                     "########################################", width - filled, "", 100 * frac, done_ms, total_ms_, eta);
        drawn_ = true;
    }

    /// Clears the line if anything was drawn.
    void finish() {
        if (drawn_) std::fputs("\r\033[K", stderr);
        drawn_ = false;
    }

private:
    bool enabled_;
    double total_ms_;
    std::chrono::steady_clock::time_point start_;
    bool drawn_ = false;
};

}  // namespace volley::cli
