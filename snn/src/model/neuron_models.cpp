// Parameter tables of the neuron models: names, units and bounds, used for validation, files,
// per-neuron overrides and the CLI.

#include <volley/error.hpp>
#include <volley/snn/neuron_models.hpp>

#include <array>
#include <utility>
#include <cmath>
#include <limits>

#include "model/format_number.hpp"

namespace volley::snn {

namespace {

constexpr double unbounded = -std::numeric_limits<double>::infinity();

template <class Params>
struct field {
    parameter_info info;
    double Params::*member;
};

template <class Model>
struct model_traits;

#define VOLLEY_LIF_COMMON(P)                                                 \
    field<P>{{"tau_m_ms", "ms", 0, true}, &P::tau_m_ms},                     \
        field<P>{{"v_rest_mv", "mV", unbounded, false}, &P::v_rest_mv},      \
        field<P>{{"v_reset_mv", "mV", unbounded, false}, &P::v_reset_mv},    \
        field<P>{{"v_thresh_mv", "mV", unbounded, false}, &P::v_thresh_mv},  \
        field<P>{{"t_ref_ms", "ms", 0, false}, &P::t_ref_ms},                \
        field<P>{{"i_e_mv", "mV", unbounded, false}, &P::i_e_mv}

template <>
struct model_traits<lif_delta> {
    using P = lif_delta::params;
    static constexpr const char* name = "lif_delta";
    static constexpr std::array fields{VOLLEY_LIF_COMMON(P)};
    static constexpr std::array<const char*, 1> state{"v_mv"};
};

template <>
struct model_traits<lif_exp> {
    using P = lif_exp::params;
    static constexpr const char* name = "lif_exp";
    static constexpr std::array fields{
        VOLLEY_LIF_COMMON(P), field<P>{{"tau_syn_e_ms", "ms", 0, true}, &P::tau_syn_e_ms},
        field<P>{{"tau_syn_i_ms", "ms", 0, true}, &P::tau_syn_i_ms}};
    static constexpr std::array<const char*, 3> state{"v_mv", "i_syn_e_mv", "i_syn_i_mv"};
};

template <>
struct model_traits<lif_alpha> {
    using P = lif_alpha::params;
    static constexpr const char* name = "lif_alpha";
    static constexpr std::array fields{
        VOLLEY_LIF_COMMON(P), field<P>{{"tau_syn_e_ms", "ms", 0, true}, &P::tau_syn_e_ms},
        field<P>{{"tau_syn_i_ms", "ms", 0, true}, &P::tau_syn_i_ms}};
    static constexpr std::array<const char*, 3> state{"v_mv", "i_syn_e_mv", "i_syn_i_mv"};
};

#undef VOLLEY_LIF_COMMON

template <>
struct model_traits<lif_cond_exp> {
    using P = lif_cond_exp::params;
    static constexpr const char* name = "lif_cond_exp";
    static constexpr std::array fields{
        field<P>{{"c_m_pf", "pF", 0, true}, &P::c_m_pf},
        field<P>{{"g_l_ns", "nS", 0, true}, &P::g_l_ns},
        field<P>{{"e_l_mv", "mV", unbounded, false}, &P::e_l_mv},
        field<P>{{"v_reset_mv", "mV", unbounded, false}, &P::v_reset_mv},
        field<P>{{"v_thresh_mv", "mV", unbounded, false}, &P::v_thresh_mv},
        field<P>{{"t_ref_ms", "ms", 0, false}, &P::t_ref_ms},
        field<P>{{"e_ex_mv", "mV", unbounded, false}, &P::e_ex_mv},
        field<P>{{"e_in_mv", "mV", unbounded, false}, &P::e_in_mv},
        field<P>{{"tau_syn_e_ms", "ms", 0, true}, &P::tau_syn_e_ms},
        field<P>{{"tau_syn_i_ms", "ms", 0, true}, &P::tau_syn_i_ms},
        field<P>{{"i_e_pa", "pA", unbounded, false}, &P::i_e_pa}};
    static constexpr std::array<const char*, 3> state{"v_mv", "g_e_ns", "g_i_ns"};
};

template <>
struct model_traits<lif_cond_alpha> {
    using P = lif_cond_alpha::params;
    static constexpr const char* name = "lif_cond_alpha";
    static constexpr auto fields = model_traits<lif_cond_exp>::fields;
    static constexpr std::array<const char*, 5> state{"v_mv", "g_e_ns", "g_i_ns", "dg_e_ns_per_ms", "dg_i_ns_per_ms"};
};

template <>
struct model_traits<izhikevich> {
    using P = izhikevich::params;
    static constexpr const char* name = "izhikevich";
    static constexpr std::array fields{field<P>{{"a", "1/ms", 0, true}, &P::a},
                                       field<P>{{"b", "1", unbounded, false}, &P::b},
                                       field<P>{{"c_mv", "mV", unbounded, false}, &P::c_mv},
                                       field<P>{{"d", "mV/ms", unbounded, false}, &P::d},
                                       field<P>{{"v_peak_mv", "mV", unbounded, false}, &P::v_peak_mv},
                                       field<P>{{"i_e", "mV/ms", unbounded, false}, &P::i_e}};
    static constexpr std::array<const char*, 2> state{"v_mv", "u"};
};

template <>
struct model_traits<adex> {
    using P = adex::params;
    static constexpr const char* name = "adex";
    static constexpr std::array fields{
        field<P>{{"c_m_pf", "pF", 0, true}, &P::c_m_pf},
        field<P>{{"g_l_ns", "nS", 0, true}, &P::g_l_ns},
        field<P>{{"e_l_mv", "mV", unbounded, false}, &P::e_l_mv},
        field<P>{{"v_t_mv", "mV", unbounded, false}, &P::v_t_mv},
        field<P>{{"delta_t_mv", "mV", 0, true}, &P::delta_t_mv},
        field<P>{{"a_ns", "nS", unbounded, false}, &P::a_ns},
        field<P>{{"tau_w_ms", "ms", 0, true}, &P::tau_w_ms},
        field<P>{{"b_pa", "pA", unbounded, false}, &P::b_pa},
        field<P>{{"v_reset_mv", "mV", unbounded, false}, &P::v_reset_mv},
        field<P>{{"v_peak_mv", "mV", unbounded, false}, &P::v_peak_mv},
        field<P>{{"t_ref_ms", "ms", 0, false}, &P::t_ref_ms},
        field<P>{{"e_ex_mv", "mV", unbounded, false}, &P::e_ex_mv},
        field<P>{{"e_in_mv", "mV", unbounded, false}, &P::e_in_mv},
        field<P>{{"tau_syn_e_ms", "ms", 0, true}, &P::tau_syn_e_ms},
        field<P>{{"tau_syn_i_ms", "ms", 0, true}, &P::tau_syn_i_ms},
        field<P>{{"i_e_pa", "pA", unbounded, false}, &P::i_e_pa}};
    static constexpr std::array<const char*, 4> state{"v_mv", "w_pa", "g_e_ns", "g_i_ns"};
};

template <>
struct model_traits<adex_alpha> {
    static constexpr const char* name = "adex_alpha";
    static constexpr auto fields = model_traits<adex>::fields;
    static constexpr std::array<const char*, 6> state{"v_mv", "w_pa", "g_e_ns", "g_i_ns", "dg_e_ns_per_ms",
                                                      "dg_i_ns_per_ms"};
};

template <>
struct model_traits<hh> {
    using P = hh::params;
    static constexpr const char* name = "hh";
    static constexpr std::array fields{
        field<P>{{"c_m_pf", "pF", 0, true}, &P::c_m_pf},
        field<P>{{"g_l_ns", "nS", 0, false}, &P::g_l_ns},
        field<P>{{"e_l_mv", "mV", unbounded, false}, &P::e_l_mv},
        field<P>{{"g_na_ns", "nS", 0, false}, &P::g_na_ns},
        field<P>{{"g_k_ns", "nS", 0, false}, &P::g_k_ns},
        field<P>{{"e_na_mv", "mV", unbounded, false}, &P::e_na_mv},
        field<P>{{"e_k_mv", "mV", unbounded, false}, &P::e_k_mv},
        field<P>{{"v_t_mv", "mV", unbounded, false}, &P::v_t_mv},
        field<P>{{"e_ex_mv", "mV", unbounded, false}, &P::e_ex_mv},
        field<P>{{"e_in_mv", "mV", unbounded, false}, &P::e_in_mv},
        field<P>{{"tau_syn_e_ms", "ms", 0, true}, &P::tau_syn_e_ms},
        field<P>{{"tau_syn_i_ms", "ms", 0, true}, &P::tau_syn_i_ms},
        field<P>{{"v_spike_mv", "mV", unbounded, false}, &P::v_spike_mv},
        field<P>{{"t_ref_ms", "ms", 0, false}, &P::t_ref_ms},
        field<P>{{"i_e_pa", "pA", unbounded, false}, &P::i_e_pa}};
    static constexpr std::array<const char*, 6> state{"v_mv", "m", "n", "h", "g_e_ns", "g_i_ns"};
};

template <>
struct model_traits<poisson_source> {
    using P = poisson_source::params;
    static constexpr const char* name = "poisson_source";
    static constexpr std::array fields{field<P>{{"rate_hz", "Hz", 0, false}, &P::rate_hz},
                                       field<P>{{"start_ms", "ms", 0, false}, &P::start_ms},
                                       field<P>{{"stop_ms", "ms", 0, false}, &P::stop_ms},
                                       field<P>{{"dead_time_ms", "ms", 0, false}, &P::dead_time_ms},
                                       field<P>{{"gamma_shape", "1", 0, true}, &P::gamma_shape}};
    static constexpr std::array<const char*, 0> state{};
};

template <>
struct model_traits<spike_source> {
    static constexpr const char* name = "spike_source";
    static constexpr std::array<field<lif_delta::params>, 0> fields{};
    static constexpr std::array<const char*, 0> state{};
};

template <>
struct model_traits<discrete_neuron> {
    using P = discrete_neuron::params;
    static constexpr const char* name = "discrete_neuron";
    static constexpr std::array fields{field<P>{{"tau_mem_ms", "ms", 0, true}, &P::tau_mem_ms},
                                       field<P>{{"tau_syn_ms", "ms", 0, false}, &P::tau_syn_ms},
                                       field<P>{{"r", "1", unbounded, false}, &P::r},
                                       field<P>{{"v_leak", "1", unbounded, false}, &P::v_leak},
                                       field<P>{{"v_threshold", "1", unbounded, false}, &P::v_threshold},
                                       field<P>{{"v_reset", "1", unbounded, false}, &P::v_reset},
                                       field<P>{{"w_in", "1", unbounded, false}, &P::w_in},
                                       field<P>{{"i_bias", "1", unbounded, false}, &P::i_bias}};
    static constexpr std::array<const char*, 2> state{"v", "i_syn"};
};

template <>
struct model_traits<analog_source> {
    static constexpr const char* name = "analog_source";
    static constexpr std::array<field<lif_delta::params>, 0> fields{};
    static constexpr std::array<const char*, 0> state{};
};

/// Parameters that may be +inf: a Poisson source that never stops, a neuron without leak or
/// without threshold.
bool may_be_infinite(const std::string& name) {
    return name == "stop_ms" || name == "tau_mem_ms" || name == "v_threshold";
}

template <class M>
constexpr std::array<parameter_info, model_traits<M>::fields.size()> infos() {
    std::array<parameter_info, model_traits<M>::fields.size()> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = model_traits<M>::fields[i].info;
    return out;
}

template <class M>
constexpr auto infos_v = infos<M>();

using detail::format_number;

template <class M>
double* find_member(M& m, const std::string& name) {
    if constexpr (requires { m.p; }) {
        for (const auto& f : model_traits<M>::fields)
            if (name == f.info.name) return &(m.p.*f.member);
    }
    return nullptr;
}

double* find_member(neuron_model& m, const std::string& name) {
    return std::visit([&](auto& x) { return find_member(x, name); }, m);
}

}  // namespace

std::string model_name(const neuron_model& m) {
    return std::visit([](const auto& x) { return std::string(model_traits<std::decay_t<decltype(x)>>::name); }, m);
}

neuron_model model_from_name(const std::string& name) {
    if (name == "lif_delta") return lif_delta{};
    if (name == "lif_exp") return lif_exp{};
    if (name == "lif_alpha") return lif_alpha{};
    if (name == "poisson_source") return poisson_source{};
    if (name == "spike_source") return spike_source{};
    if (name == "discrete_neuron") return discrete_neuron{};
    if (name == "analog_source") return analog_source{};
    if (name == "lif_cond_exp") return lif_cond_exp{};
    if (name == "lif_cond_alpha") return lif_cond_alpha{};
    if (name == "izhikevich") return izhikevich{};
    if (name == "adex") return adex{};
    if (name == "adex_alpha") return adex_alpha{};
    if (name == "hh") return hh{};
    throw unsupported_model(name, "unknown neuron model (known: lif_delta, lif_exp, lif_alpha, lif_cond_exp, "
                                  "lif_cond_alpha, izhikevich, adex, adex_alpha, hh, poisson_source, spike_source, "
                                  "discrete_neuron, analog_source)");
}

namespace {

constexpr std::pair<discrete_neuron::reset_mode, const char*> reset_mode_names[] = {
    {discrete_neuron::reset_mode::to_v_reset, "to_v_reset"},
    {discrete_neuron::reset_mode::subtract, "subtract"},
    {discrete_neuron::reset_mode::subtract_delayed, "subtract_delayed"},
    {discrete_neuron::reset_mode::subtract_no_delay, "subtract_no_delay"},
    {discrete_neuron::reset_mode::to_v_reset_delayed, "to_v_reset_delayed"},
    {discrete_neuron::reset_mode::none, "none"},
};

}  // namespace

std::vector<discrete_neuron::reset_mode> reset_modes() {
    std::vector<discrete_neuron::reset_mode> out;
    for (const auto& [mode, name] : reset_mode_names) out.push_back(mode);
    return out;
}

std::string reset_mode_name(discrete_neuron::reset_mode m) {
    for (const auto& [mode, name] : reset_mode_names)
        if (mode == m) return name;
    throw internal_error("unnamed discrete_neuron reset mode");
}

std::string integration_name(discrete_neuron::integration m) {
    return m == discrete_neuron::integration::exact ? "exact" : "euler";
}

discrete_neuron::reset_mode reset_mode_from_name(const std::string& name, const std::string& object) {
    std::string known;
    for (const auto& [mode, text] : reset_mode_names) {
        if (name == text) return mode;
        known += (known.empty() ? "" : ", ") + std::string(text);
    }
    throw invalid_parameter(object, "reset", name, "expected one of " + known);
}

discrete_neuron::integration integration_from_name(const std::string& name, const std::string& object) {
    if (name == "euler") return discrete_neuron::integration::euler;
    if (name == "exact") return discrete_neuron::integration::exact;
    throw invalid_parameter(object, "integration", name, "expected euler or exact");
}

std::span<const parameter_info> model_parameters(const neuron_model& m) {
    return std::visit(
        [](const auto& x) -> std::span<const parameter_info> {
            return infos_v<std::decay_t<decltype(x)>>;
        },
        m);
}

std::span<const char* const> model_state_variables(const neuron_model& m) {
    return std::visit(
        [](const auto& x) -> std::span<const char* const> {
            return model_traits<std::decay_t<decltype(x)>>::state;
        },
        m);
}

std::string parameter_names(const neuron_model& m) {
    std::string names;
    for (const auto& info : model_parameters(m)) names += (names.empty() ? "" : ", ") + std::string(info.name);
    return names;
}

double get_parameter(const neuron_model& m, const std::string& name) {
    auto& mutable_m = const_cast<neuron_model&>(m);
    if (const double* p = find_member(mutable_m, name)) return *p;
    throw unknown_name("parameter", name, "model '" + model_name(m) + "'", parameter_names(m));
}

void set_parameter(neuron_model& m, const std::string& name, double value) {
    if (double* p = find_member(m, name)) {
        *p = value;
        return;
    }
    throw unknown_name("parameter", name, "model '" + model_name(m) + "'", parameter_names(m));
}

bool is_source_model(const neuron_model& m) {
    return std::holds_alternative<poisson_source>(m) || std::holds_alternative<spike_source>(m) ||
           std::holds_alternative<analog_source>(m);
}

std::span<const char* const> model_backends(const neuron_model&) {
    static constexpr std::array<const char*, 1> cpu{"cpu"};
    return cpu;
}

bool is_ode_model(const neuron_model& m) { return model_integrator(m) != nullptr; }

void check_parameter(const parameter_info& info, double value, const std::string& object) {
    if (!std::isfinite(value) && !(value == std::numeric_limits<double>::infinity() && may_be_infinite(info.name)))
        throw invalid_parameter(object, info.name, format_number(value), "must be finite");
    if (info.lower_strict ? !(value > info.lower_bound) : !(value >= info.lower_bound))
        throw invalid_parameter(object, info.name, format_number(value),
                                std::string("must be ") + (info.lower_strict ? "> " : ">= ") +
                                    format_number(info.lower_bound) + " " + info.unit);
}

void check_parameter(const neuron_model& m, const std::string& name, double value,
                     const std::string& object) {
    for (const auto& info : model_parameters(m))
        if (name == info.name) return check_parameter(info, value, object);
    throw unknown_name("parameter", name, object + " (model '" + model_name(m) + "')", parameter_names(m));
}

void check_analog_values(const std::vector<std::vector<double>>& values, const std::string& object) {
    for (std::size_t s = 0; s < values.size(); ++s)
        for (std::size_t i = 0; i < values[s].size(); ++i)
            if (!(std::abs(values[s][i]) <= max_analog_value))
                throw invalid_parameter(object, "values[" + std::to_string(s) + "][" + std::to_string(i) + "]",
                                        format_number(values[s][i]),
                                        "must be finite with magnitude <= 1e6 (the fixed-point range)");
}

void validate_model(const neuron_model& m, const std::string& object) {
    for (const auto& info : model_parameters(m)) check_parameter(m, info.name, get_parameter(m, info.name), object);
    check_integrator(m, object);
    if (const auto* d = std::get_if<discrete_neuron>(&m)) {
        if (!(d->p.v_reset < d->p.v_threshold))
            throw invalid_parameter(object, "v_reset", format_number(d->p.v_reset),
                                    "must be below v_threshold (" + format_number(d->p.v_threshold) + ")");
    } else if (const auto* a = std::get_if<analog_source>(&m)) {
        check_analog_values(a->values, object);
    } else {
        // The reset must lie below the level that detects a spike (hh has no reset).
        static constexpr std::array<std::pair<const char*, const char*>, 3> reset_below{
            {{"v_reset_mv", "v_thresh_mv"}, {"c_mv", "v_peak_mv"}, {"v_reset_mv", "v_peak_mv"}}};
        auto& mutable_m = const_cast<neuron_model&>(m);
        for (const auto& [reset_name, thresh_name] : reset_below) {
            const double* reset = find_member(mutable_m, reset_name);
            const double* thresh = find_member(mutable_m, thresh_name);
            if (!reset || !thresh) continue;
            if (!(*reset < *thresh))
                throw invalid_parameter(object, reset_name, format_number(*reset),
                                        std::string("must be below ") + thresh_name + " (" + format_number(*thresh) + ")");
        }
    }
    if (const auto* p = std::get_if<poisson_source>(&m); p && p->p.stop_ms < p->p.start_ms)
        throw invalid_parameter(object, "stop_ms", format_number(p->p.stop_ms),
                                "must not be before start_ms (" + format_number(p->p.start_ms) + ")");
    if (const auto* s = std::get_if<spike_source>(&m)) {
        for (std::size_t i = 0; i < s->spike_times_ms.size(); ++i) {
            const auto& train = s->spike_times_ms[i];
            for (std::size_t k = 0; k < train.size(); ++k) {
                const double t = train[k];
                if (!std::isfinite(t) || t <= 0)
                    throw invalid_parameter(object, "spike_times_ms[" + std::to_string(i) + "]",
                                            format_number(t), "spike times must be finite and > 0 ms");
                if (k > 0 && t < train[k - 1])
                    throw invalid_parameter(object, "spike_times_ms[" + std::to_string(i) + "]", format_number(t),
                                            "comes after " + format_number(train[k - 1]) +
                                                ": spike times must be in ascending order");
            }
        }
    }
}

}  // namespace volley::snn
