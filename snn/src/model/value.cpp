// Value specifications: description and validation.

#include <volley/error.hpp>
#include <volley/snn/value.hpp>

#include <cmath>
#include <numbers>

#include "model/format_number.hpp"

namespace volley::snn {

namespace {
using detail::format_number;
}  // namespace

double normal_mass_within(const normal& n) {
    if (n.stddev == 0) return n.mean >= n.low && n.mean <= n.high ? 1.0 : 0.0;
    const double s = n.stddev * std::numbers::sqrt2;  // P(X <= x) = erfc(-(x - mean) / s) / 2
    return 0.5 * (std::erfc(-(n.high - n.mean) / s) - std::erfc(-(n.low - n.mean) / s));
}

std::string describe(const value_spec& v) {
    struct visitor {
        std::string operator()(double c) const { return format_number(c); }
        std::string operator()(const std::vector<double>& l) const {
            return "a list of " + std::to_string(l.size()) + " values";
        }
        std::string operator()(const uniform& u) const {
            return "uniform(" + format_number(u.low) + ", " + format_number(u.high) + ")";
        }
        std::string operator()(const normal& n) const {
            std::string s = "normal(" + format_number(n.mean) + ", " + format_number(n.stddev) + ")";
            if (n.bounded()) s += " redrawn outside [" + format_number(n.low) + ", " + format_number(n.high) + "]";
            return s;
        }
    };
    return std::visit(visitor{}, v);
}

void check_finite(const value_spec& v, const std::string& object, const std::string& parameter) {
    auto bad = [&](double x, const std::string& what) {
        throw invalid_parameter(object, parameter, format_number(x), what);
    };
    if (const auto* c = std::get_if<double>(&v)) {
        if (!std::isfinite(*c)) bad(*c, "must be finite");
    } else if (const auto* l = std::get_if<std::vector<double>>(&v)) {
        for (std::size_t i = 0; i < l->size(); ++i)
            if (!std::isfinite((*l)[i]))
                throw invalid_parameter(object, parameter + "[" + std::to_string(i) + "]",
                                        format_number((*l)[i]), "must be finite");
    } else if (const auto* u = std::get_if<uniform>(&v)) {
        if (!std::isfinite(u->low)) bad(u->low, "uniform low bound must be finite");
        if (!std::isfinite(u->high)) bad(u->high, "uniform high bound must be finite");
        if (u->low > u->high)
            throw invalid_parameter(object, parameter, describe(v), "low bound above high bound");
    } else if (const auto* n = std::get_if<normal>(&v)) {
        if (!std::isfinite(n->mean)) bad(n->mean, "normal mean must be finite");
        if (!std::isfinite(n->stddev) || n->stddev < 0)
            bad(n->stddev, "normal stddev must be finite and >= 0");
        if (std::isnan(n->low) || std::isnan(n->high) || n->low > n->high)
            throw invalid_parameter(object, parameter, describe(v), "normal low bound above high bound");
        if (n->bounded() && normal_mass_within(*n) < min_redraw_mass)
            throw invalid_parameter(object, parameter, describe(v),
                                    "less than 0.1% of the distribution lies within [low, high]: redrawing would "
                                    "not end; move the bounds or the mean");
    }
}

}  // namespace volley::snn
