// Value specifications: description and validation.

#include <volley/error.hpp>
#include <volley/snn/value.hpp>

#include <cmath>

#include "model/format_number.hpp"

namespace volley::snn {

namespace {
using detail::format_number;
}  // namespace

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
            return "normal(" + format_number(n.mean) + ", " + format_number(n.stddev) + ")";
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
    }
}

}  // namespace volley::snn
