// Plasticity rules: presets and validation (see plasticity.hpp).

#include <volley/error.hpp>
#include <volley/snn/plasticity.hpp>

#include <algorithm>
#include <cmath>

#include "model/format_number.hpp"

namespace volley::snn {

namespace {

using detail::format_number;

void check_tau(double tau, const std::string& object, const char* name) {
    if (!std::isfinite(tau) || !(tau > 0))
        throw invalid_parameter(object, name, format_number(tau), "time constants must be finite and > 0 ms");
}

void check_amplitude(double a, const std::string& object, const char* name) {
    if (!std::isfinite(a) || a < 0)
        throw invalid_parameter(object, name, format_number(a), "amplitudes must be finite and >= 0");
}

void check_bounds(double w_min, double w_max, const std::string& object) {
    if (!std::isfinite(w_min)) throw invalid_parameter(object, "w_min", format_number(w_min), "must be finite");
    if (!std::isfinite(w_max)) throw invalid_parameter(object, "w_max", format_number(w_max), "must be finite");
    if (w_min > w_max)
        throw invalid_parameter(object, "w_min", format_number(w_min),
                                "must be <= w_max (" + format_number(w_max) + ")");
}

}  // namespace

stdp_triplet stdp_triplet::visual_cortex(stdp_pairing pairing, bool minimal) {
    stdp_triplet r;
    r.pairing = pairing;
    if (pairing == stdp_pairing::all_to_all) {
        r.tau_x_ms = 101.0;
        r.tau_y_ms = 125.0;
        if (minimal) {
            r.a2_plus = 0;
            r.a3_plus = 6.5e-3;
            r.a2_minus = 7.1e-3;
            r.a3_minus = 0;
        } else {
            r.a2_plus = 5e-10;
            r.a3_plus = 6.2e-3;
            r.a2_minus = 7e-3;
            r.a3_minus = 2.3e-4;
        }
    } else {
        r.tau_x_ms = 714.0;
        r.tau_y_ms = 40.0;
        if (minimal) {
            r.a2_plus = 0;
            r.a3_plus = 5e-2;
            r.a2_minus = 8e-3;
            r.a3_minus = 0;
        } else {
            r.a2_plus = 8.8e-11;
            r.a3_plus = 5.3e-2;
            r.a2_minus = 6.6e-3;
            r.a3_minus = 3.1e-3;
        }
    }
    return r;
}

stdp_triplet stdp_triplet::scaled(double factor) const {
    if (!std::isfinite(factor) || !(factor > 0))
        throw invalid_parameter("stdp_triplet", "scale factor", format_number(factor), "must be finite and > 0");
    stdp_triplet r = *this;
    for (double* v : {&r.a2_plus, &r.a3_plus, &r.a2_minus, &r.a3_minus, &r.w_min, &r.w_max}) *v *= factor;
    return r;
}

namespace {

/// A rule parameter that is a constant or one value per synapse (its length is the connector's
/// business): throws invalid_parameter naming `object`, the parameter (and the element) and the
/// value when a value is not finite or `ok` refuses it, or for a distribution.
template <class Ok>
void check_per_synapse(const value_spec& v, const std::string& object, const char* name, Ok&& ok, const char* why) {
    if (!std::holds_alternative<double>(v) && !std::holds_alternative<std::vector<double>>(v))
        throw invalid_parameter(object, name, describe(v), "must be a constant or one value per synapse");
    const auto* c = std::get_if<double>(&v);
    const auto& l = c ? std::vector<double>{*c} : std::get<std::vector<double>>(v);
    for (std::size_t i = 0; i < l.size(); ++i)
        if (!(std::isfinite(l[i]) && ok(l[i])))
            throw invalid_parameter(object, c ? std::string(name) : std::string(name) + "[" + std::to_string(i) + "]",
                                    format_number(l[i]), why);
}

/// The element i of a constant or a per-synapse list (a constant for every i).
double element(const value_spec& v, std::size_t i) {
    const auto* c = std::get_if<double>(&v);
    return c ? *c : std::get<std::vector<double>>(v)[i];
}

std::size_t elements(const value_spec& v) {
    const auto* l = std::get_if<std::vector<double>>(&v);
    return l ? l->size() : 1;
}

void validate_quantal_release(const quantal_release& q, const std::string& o) {
    auto whole = [](double x) { return x == std::floor(x); };
    check_per_synapse(q.u, o, "u", [](double x) { return x >= 0 && x <= 1; }, "U must lie in [0, 1]");
    check_per_synapse(q.tau_rec_ms, o, "tau_rec_ms", [](double x) { return x > 0; }, "must be finite and > 0 ms");
    check_per_synapse(q.tau_facil_ms, o, "tau_facil_ms", [](double x) { return x >= 0; },
                      "must be finite and >= 0 ms (0: no facilitation)");
    check_per_synapse(q.sites, o, "sites", [&](double x) { return whole(x) && x >= 1 && x <= quantal_release::max_sites; },
                      "the number of release sites must be a whole number in [1, 65535]");
    if (q.initial_u)
        check_per_synapse(*q.initial_u, o, "initial_u", [](double x) { return x >= 0 && x <= 1; },
                          "a release probability must lie in [0, 1]");
    if (!q.initial_available) return;
    const value_spec& a = *q.initial_available;
    check_per_synapse(a, o, "initial_available", [&](double x) { return whole(x) && x >= 0; },
                      "the available sites must be a whole number >= 0");
    const std::size_t n = std::max(elements(a), elements(q.sites));
    if (elements(a) > 1 && elements(q.sites) > 1 && elements(a) != elements(q.sites)) return;  // lengths: network::connect
    for (std::size_t i = 0; i < n; ++i)
        if (element(a, elements(a) == 1 ? 0 : i) > element(q.sites, elements(q.sites) == 1 ? 0 : i))
            throw invalid_parameter(o, elements(a) == 1 ? std::string("initial_available")
                                                        : "initial_available[" + std::to_string(i) + "]",
                                    format_number(element(a, elements(a) == 1 ? 0 : i)),
                                    "must be <= the sites (" + format_number(element(q.sites, elements(q.sites) == 1 ? 0 : i)) + ")");
}

}  // namespace

std::pair<double, double> weight_bounds(const plasticity_rule& r) noexcept {
    if (const auto* p = std::get_if<stdp_pair>(&r)) return {p->w_min, p->w_max};
    if (const auto* t = std::get_if<stdp_triplet>(&r)) return {t->w_min, t->w_max};
    return {0.0, 0.0};
}

double max_delivery_factor(const plasticity_rule& r) noexcept {
    const auto* q = std::get_if<quantal_release>(&r);
    if (!q) return 1.0;
    if (const auto* c = std::get_if<double>(&q->sites)) return *c;
    const auto* l = std::get_if<std::vector<double>>(&q->sites);
    return l && !l->empty() ? *std::max_element(l->begin(), l->end()) : 1.0;
}

std::string plasticity_name(const plasticity_rule& r) {
    static constexpr const char* names[] = {"static",           "stdp_pair",         "stdp_triplet",
                                                  "tsodyks_markram",  "stochastic_release", "quantal_release"};
    return names[r.index()];
}

void validate_plasticity(const plasticity_rule& r, const std::string& object) {
    if (const auto* p = std::get_if<stdp_pair>(&r)) {
        const std::string o = object + " (stdp_pair)";
        check_tau(p->tau_plus_ms, o, "tau_plus_ms");
        check_tau(p->tau_minus_ms, o, "tau_minus_ms");
        check_amplitude(p->a_plus, o, "a_plus");
        check_amplitude(p->a_minus, o, "a_minus");
        check_bounds(p->w_min, p->w_max, o);
        if (p->dependence != stdp_weight_dependence::additive && p->w_min == p->w_max)
            throw invalid_parameter(o, "w_max", format_number(p->w_max),
                                    "a weight-dependent rule needs w_max > w_min");
        if (!std::isfinite(p->dendritic_delay_ms) || p->dendritic_delay_ms < 0)
            throw invalid_parameter(o, "dendritic_delay_ms", format_number(p->dendritic_delay_ms),
                                    "must be finite and >= 0 ms");
        if (p->dependence == stdp_weight_dependence::power_law) {
            if (!(p->mu >= 0 && p->mu <= 1))
                throw invalid_parameter(o, "mu", format_number(p->mu), "the power-law exponent must lie in [0, 1]");
            if (p->w_min < 0)
                throw invalid_parameter(o, "w_min", format_number(p->w_min),
                                        "power-law potentiation (w^mu) needs w_min >= 0");
        }
    } else if (const auto* t = std::get_if<stdp_triplet>(&r)) {
        const std::string o = object + " (stdp_triplet)";
        check_tau(t->tau_plus_ms, o, "tau_plus_ms");
        check_tau(t->tau_minus_ms, o, "tau_minus_ms");
        check_tau(t->tau_x_ms, o, "tau_x_ms");
        check_tau(t->tau_y_ms, o, "tau_y_ms");
        check_amplitude(t->a2_plus, o, "a2_plus");
        check_amplitude(t->a3_plus, o, "a3_plus");
        check_amplitude(t->a2_minus, o, "a2_minus");
        check_amplitude(t->a3_minus, o, "a3_minus");
        check_bounds(t->w_min, t->w_max, o);
    } else if (const auto* m = std::get_if<tsodyks_markram>(&r)) {
        const std::string o = object + " (tsodyks_markram)";
        auto each = [&](const value_spec& v, const char* name, auto&& ok, const char* why) {
            check_per_synapse(v, o, name, ok, why);
        };
        each(m->u, "u", [](double x) { return x > 0 && x <= 1; }, "U must lie in (0, 1]");
        each(m->tau_rec_ms, "tau_rec_ms", [](double x) { return x > 0; }, "must be finite and > 0 ms");
        each(m->tau_facil_ms, "tau_facil_ms", [](double x) { return x >= 0; }, "must be finite and >= 0 ms (0: no facilitation)");
        each(m->tau_psc_ms, "tau_psc_ms", [](double x) { return x >= 0; }, "must be finite and >= 0 ms");
        const auto& at = element;
        const auto& count = elements;
        const std::size_t n = std::min(count(m->tau_psc_ms), count(m->tau_rec_ms));
        const bool listed = count(m->tau_psc_ms) > 1 || count(m->tau_rec_ms) > 1;
        for (std::size_t i = 0; i < (listed ? std::max(count(m->tau_psc_ms), count(m->tau_rec_ms)) : n); ++i) {
            const std::size_t a = count(m->tau_psc_ms) == 1 ? 0 : i, b = count(m->tau_rec_ms) == 1 ? 0 : i;
            if (a >= count(m->tau_psc_ms) || b >= count(m->tau_rec_ms)) break;  // lengths: network::connect
            if (at(m->tau_psc_ms, a) == at(m->tau_rec_ms, b))
                throw invalid_parameter(o, listed ? "tau_psc_ms[" + std::to_string(i) + "]" : std::string("tau_psc_ms"),
                                        format_number(at(m->tau_psc_ms, a)),
                                        "must differ from tau_rec_ms (the propagator divides by their difference)");
        }
    } else if (const auto* b = std::get_if<stochastic_release>(&r)) {
        check_per_synapse(b->p_transmit, object + " (stochastic_release)", "p_transmit",
                          [](double p) { return p >= 0 && p <= 1; }, "a probability must lie in [0, 1]");
    } else if (const auto* q = std::get_if<quantal_release>(&r)) {
        validate_quantal_release(*q, object + " (quantal_release)");
    }
}

}  // namespace volley::snn
