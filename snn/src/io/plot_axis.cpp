#include <volley/snn/plot_axis.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace volley::snn::detail {

double nice_number(double x, bool round) {
    const double exponent = std::floor(std::log10(x));
    const double power = std::pow(10.0, exponent);
    const double fraction = x / power;
    double nice;
    if (round)
        nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10;
    else
        nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
    return nice * power;
}

axis_ticks nice_ticks(double lo, double hi, int target) {
    axis_ticks ticks;
    const double range = nice_number(hi - lo, false);
    ticks.step = nice_number(range / std::max(target - 1, 1), true);
    const double first = std::ceil(lo / ticks.step - 1e-9);
    const double tolerance = ticks.step * 1e-9;
    for (double i = first;; ++i) {
        const double value = i * ticks.step;
        if (value > hi + tolerance) break;
        ticks.values.push_back(std::abs(value) < tolerance ? 0.0 : value);
    }
    ticks.decimals = std::max(0, static_cast<int>(-std::floor(std::log10(ticks.step) + 1e-9)));
    return ticks;
}

std::string format_tick(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    std::string s = text;
    if (s.find_first_not_of("-0.") == std::string::npos && s.front() == '-') s.erase(0, 1);
    return s;
}

}  // namespace volley::snn::detail
