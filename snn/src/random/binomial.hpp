#pragma once
// Binomial variates from a counter-based stream, by inversion searching outward from the mode:
// one uniform per draw, and O(sqrt(n p (1 - p))) steps on average. Exact up to the rounding of
// the probabilities (the mode's from lgamma, the rest by the ratio of neighbours).

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "random/counter_rng.hpp"

namespace volley::snn::detail {

/// A draw from Binomial(n, p); p outside (0, 1) gives 0 or n.
inline std::uint64_t binomial(std::uint64_t n, double p, counter_rng& rng) {
    if (n == 0 || !(p > 0)) return 0;
    if (p >= 1) return n;
    const double nd = static_cast<double>(n), q = 1 - p;
    const auto mode = static_cast<std::uint64_t>(std::min(nd, std::floor((nd + 1) * p)));
    const double md = static_cast<double>(mode);
    const double f_mode = std::exp(std::lgamma(nd + 1) - std::lgamma(md + 1) - std::lgamma(nd - md + 1) +
                                   md * std::log(p) + (nd - md) * std::log1p(-p));
    double u = rng.uniform01() - f_mode;
    if (u < 0) return mode;
    // Walk up and down from the mode, taking the likelier side first, until the uniform is spent.
    std::uint64_t up = mode, down = mode;
    double f_up = f_mode, f_down = f_mode;
    const double r_up = p / q, r_down = q / p;
    for (;;) {
        const bool can_up = up < n, can_down = down > 0;
        const double next_up = can_up ? f_up * (nd - static_cast<double>(up)) / static_cast<double>(up + 1) * r_up : 0;
        const double next_down =
            can_down ? f_down * static_cast<double>(down) / (nd - static_cast<double>(down) + 1) * r_down : 0;
        if (!(next_up > 0) && !(next_down > 0)) return mode;  // the rounding's residue: the mode
        if (next_up >= next_down) {
            ++up;
            f_up = next_up;
            if ((u -= f_up) < 0) return up;
        } else {
            --down;
            f_down = next_down;
            if ((u -= f_down) < 0) return down;
        }
    }
}

}  // namespace volley::snn::detail
