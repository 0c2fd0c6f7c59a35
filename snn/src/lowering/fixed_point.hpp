#pragma once
// The lowering's fixed-point arithmetic (docs/engine.md, "Event-driven delivery and
// determinism"): every engine stores a weight w onto (target population, receptor) as the
// integer llround(w · 2^f), with one exponent f per (target population, receptor) from the
// largest |w| onto it over the whole network, and sums those integers. Engines that share this
// header round alike, so their sums, and their spikes, are the same bits.

#include <cmath>
#include <cstdint>

namespace volley::snn::detail {

/// The exponent f for a largest weight of `max_abs_weight`: the largest fits in 31 bits with a
/// relative precision of 2^-30 (30 when there is no weight). Decreasing in the weight, so the
/// exponent over several parts of a network is the smallest of theirs.
int fixed_point_exponent(double max_abs_weight);

/// w in fixed point with `to_fixed` = 2^f.
inline std::int64_t to_fixed_point(double w, double to_fixed) { return std::llround(w * to_fixed); }

}  // namespace volley::snn::detail
