// Value specifications: description and validation.

#include <volley/error.hpp>
#include <volley/snn/value.hpp>

#include <cmath>
#include <cstdio>

namespace volley::snn {

namespace {
std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}
}  // namespace

std::string describe(const value_spec& v) {
    struct visitor {
        std::string operator()(double c) const { return num(c); }
        std::string operator()(const std::vector<double>& l) const {
            return "a list of " + std::to_string(l.size()) + " values";
        }
        std::string operator()(const uniform& u) const {
            return "uniform(" + num(u.low) + ", " + num(u.high) + ")";
        }
        std::string operator()(const normal& n) const {
            return "normal(" + num(n.mean) + ", " + num(n.stddev) + ")";
        }
    };
    return std::visit(visitor{}, v);
}

void check_finite(const value_spec& v, const std::string& object, const std::string& parameter) {
    auto bad = [&](double x, const std::string& what) {
        throw invalid_parameter(object, parameter, num(x), what);
    };
    if (const auto* c = std::get_if<double>(&v)) {
        if (!std::isfinite(*c)) bad(*c, "must be finite");
    } else if (const auto* l = std::get_if<std::vector<double>>(&v)) {
        for (std::size_t i = 0; i < l->size(); ++i)
            if (!std::isfinite((*l)[i]))
                throw invalid_parameter(object, parameter + "[" + std::to_string(i) + "]",
                                        num((*l)[i]), "must be finite");
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
