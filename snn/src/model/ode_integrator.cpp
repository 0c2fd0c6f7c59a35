// The integration schemes of the ODE models: names, which model supports which, and their
// checks (see ode_integrator.hpp and neuron_models.hpp).

#include <volley/snn/ode_integrator.hpp>

#include <volley/error.hpp>
#include <volley/snn/neuron_models.hpp>

#include <algorithm>
#include <array>
#include <utility>

#include "model/format_number.hpp"

namespace volley::snn {

namespace {

constexpr std::array<std::pair<ode_scheme, const char*>, 6> scheme_names{{
    {ode_scheme::adaptive, "adaptive"},
    {ode_scheme::rk4, "rk4"},
    {ode_scheme::rk2, "rk2"},
    {ode_scheme::exponential_euler, "exponential_euler"},
    {ode_scheme::euler, "euler"},
    {ode_scheme::half_step_euler, "half_step_euler"},
}};

using enum ode_scheme;
constexpr std::array conductance_lif_schemes{adaptive, rk4, rk2, exponential_euler, euler};
constexpr std::array izhikevich_schemes{adaptive, rk4, rk2, euler, half_step_euler};
constexpr std::array adex_schemes{adaptive, rk4, rk2, euler};
constexpr std::array hh_schemes{adaptive, rk4, rk2, exponential_euler, euler};

template <class M>
concept has_integrator = requires(M m) { m.integrator; };

}  // namespace

std::string scheme_name(ode_scheme s) {
    for (const auto& [scheme, name] : scheme_names)
        if (scheme == s) return name;
    return "unknown";
}

ode_scheme scheme_from_name(const std::string& name, const std::string& object) {
    for (const auto& [scheme, n] : scheme_names)
        if (name == n) return scheme;
    std::string known;
    for (const auto& [scheme, n] : scheme_names) known += std::string(known.empty() ? "" : ", ") + n;
    throw invalid_parameter(object, "integrator", name, "expected one of " + known);
}

ode_integrator* model_integrator(neuron_model& m) {
    return std::visit(
        [](auto& x) -> ode_integrator* {
            if constexpr (has_integrator<std::decay_t<decltype(x)>>) return &x.integrator;
            else return nullptr;
        },
        m);
}

const ode_integrator* model_integrator(const neuron_model& m) {
    return model_integrator(const_cast<neuron_model&>(m));
}

std::span<const ode_scheme> model_schemes(const neuron_model& m) {
    if (std::holds_alternative<lif_cond_exp>(m) || std::holds_alternative<lif_cond_alpha>(m))
        return conductance_lif_schemes;
    if (std::holds_alternative<izhikevich>(m)) return izhikevich_schemes;
    if (std::holds_alternative<adex>(m) || std::holds_alternative<adex_alpha>(m)) return adex_schemes;
    if (std::holds_alternative<hh>(m)) return hh_schemes;
    return {};
}

void check_integrator(const neuron_model& m, const std::string& object) {
    const ode_integrator* in = model_integrator(m);
    if (!in) return;
    const auto schemes = model_schemes(m);
    if (std::find(schemes.begin(), schemes.end(), in->scheme) == schemes.end()) {
        std::string known;
        for (const auto s : schemes) known += (known.empty() ? "" : ", ") + scheme_name(s);
        throw unsupported_model(model_name(m), object + ": integrator '" + scheme_name(in->scheme) +
                                                   "' is not one of this model's schemes (" + known + ")");
    }
    for (const auto& [name, value] : {std::pair{"abs_tol", in->abs_tol}, std::pair{"rel_tol", in->rel_tol}})
        if (!(value > 0) || !(value < 1))
            throw invalid_parameter(object, name, detail::format_number(value), "the adaptive integrator's tolerance must be in (0, 1)");
}

}  // namespace volley::snn
