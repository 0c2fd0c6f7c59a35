#pragma once
// The reference's noise generator (RISP.md Appendix B): MT19937 feeding the Marsaglia polar
// method with a one-value cache. std::mt19937 is specified bit-exactly by the standard.

#include <cmath>
#include <cstdint>
#include <random>

namespace volley::hw::detail {

class noise_source {
  public:
    /// Seeds from `noisy_seed` (0: time-based, as the reference does).
    void seed(std::uint32_t noisy_seed);

    /// One Normal(mean, sd) sample.
    double normal(double mean, double sd) {
        if (has_cached_) {
            has_cached_ = false;
            return cached_ * sd + mean;
        }
        double u, v, s;
        do {
            u = uniform() * 2.0 - 1.0;
            v = uniform() * 2.0 - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double f = std::sqrt(-2.0 * std::log(s) / s);
        cached_ = v * f;
        has_cached_ = true;
        return (u * f) * sd + mean;
    }

  private:
    double uniform() { return static_cast<double>(engine_()) / 4294967295.0; }

    std::mt19937 engine_;
    double cached_ = 0;
    bool has_cached_ = false;
};

}  // namespace volley::hw::detail
