#pragma once
// "Nice" axis ticks (1, 2 or 5 times a power of ten), after P. S. Heckbert, "Nice numbers for
// graph labels", Graphics Gems (1990). Used by the raster plots and the demo's accuracy plot.

#include <string>
#include <vector>

namespace volley::snn::detail {

/// Ticks of an axis: evenly spaced round values.
struct axis_ticks {
    double step = 1;             ///< distance between ticks (1, 2 or 5 times a power of ten)
    std::vector<double> values;  ///< tick values inside [lo, hi], ascending
    int decimals = 0;            ///< digits after the point needed to print `step` exactly
};

/// A nice number close to `x` > 0: the nearest one when `round`, else the next larger one.
double nice_number(double x, bool round);

/// About `target` nice ticks covering [lo, hi] (lo < hi, both finite).
axis_ticks nice_ticks(double lo, double hi, int target);

/// `value` printed with `decimals` digits after the point ("-0" printed as "0").
std::string format_tick(double value, int decimals);

}  // namespace volley::snn::detail
