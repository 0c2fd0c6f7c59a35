// discrete_neuron population state and step (see discrete_population.hpp).
//
// With u = w_in·(in + i_bias) the input of the step, one step is, per neuron:
//   synaptic stage:  i_new = u + (i - u)·syn_keep            (euler: 1 - dt/tau_syn; exact: e^{-dt/tau_syn})
//   membrane:        v_new = v_leak + (v - v_leak)·mem_keep + mem_gain·r·D + cross·r·(i - u)
// where D is i_new (Euler, or no leak) or u (exact with a synaptic stage, whose decaying part
// i - u enters through cross = exp_current_gain, Rotter & Diesmann 1999), and
//   euler, leaky:  mem_keep = 1 - dt/tau_mem, mem_gain = dt/tau_mem, cross = 0;
//   exact, leaky:  mem_keep = e^{-dt/tau_mem}, mem_gain = 1 - mem_keep;
//   no leak:       mem_keep = 1, mem_gain = 1, cross = 0 (I and IF count in steps).
// Then the threshold test (v > v_threshold) and the reset (reset_mode, neuron_models.hpp); the
// delayed modes read the v that the last step left, which they keep unreset.
//
// Threshold ties. A float32 writer that means the input gain mem_gain·r to be 1 cannot store it
// so: snnTorch writes tau = dt/(1 - beta) and r = tau/dt in float32, and dt/tau·r comes out as
// 1 + 1.6e-8 (beta 0.9). An input exactly at the threshold would then fire here and not in
// snnTorch, whose own step adds the input with gain 1. A gain within tie_ulps·2^-24 of 1 (a few
// float32 roundings) is therefore taken as 1. It moves v by at most 4.8e-7·|r·drive|, so it
// changes only a spike whose v lies that close to the threshold: one that the file's own
// precision cannot decide.

#include "backends/cpu/discrete_population.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

#include "backends/cpu/propagators.hpp"
#include "build/draw_values.hpp"
#include "model/format_number.hpp"

namespace volley::snn::detail {

namespace {

constexpr double tie_ulps = 8;

double snap_unit_gain(double g) { return std::abs(g - 1) <= tie_ulps * 0x1p-24 ? 1.0 : g; }

}  // namespace

discrete_population::discrete_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed) {
    const auto& p = net.at(pop);
    const auto& model = std::get<discrete_neuron>(p.model);
    n_ = p.size;
    name_ = p.name;
    reset_ = model.reset;
    const bool exact = model.method == discrete_neuron::integration::exact;
    const std::string object = "population '" + p.name + "'";

    const auto params = model_parameters(p.model);
    auto column = [&](const char* name) {
        const auto k = static_cast<std::size_t>(
            std::find_if(params.begin(), params.end(), [&](const auto& i) { return std::string_view(i.name) == name; }) -
            params.begin());
        std::vector<double> out(n_, get_parameter(p.model, name));
        const auto over = std::find_if(p.parameters.begin(), p.parameters.end(), [&](const auto& kv) { return kv.first == name; });
        if (over != p.parameters.end())
            for (std::uint32_t i = 0; i < n_; ++i) {
                out[i] = draw_neuron_value(over->second, seed, pop.value, static_cast<std::uint32_t>(k), i);
                check_parameter(p.model, name, out[i], object + " neuron " + std::to_string(i));
            }
        return out;
    };
    const auto tau_mem = column("tau_mem_ms"), tau_syn = column("tau_syn_ms");
    r_ = column("r");
    v_leak_ = column("v_leak");
    v_threshold_ = column("v_threshold");
    v_reset_ = column("v_reset");
    w_in_ = column("w_in");
    i_bias_ = column("i_bias");
    for (std::uint32_t i = 0; i < n_; ++i)
        if (!(v_reset_[i] < v_threshold_[i]))
            throw invalid_parameter(object + " neuron " + std::to_string(i), "v_reset", format_number(v_reset_[i]),
                                    "must be below v_threshold (" + format_number(v_threshold_[i]) + ")");
    has_syn_.resize(n_);
    drive_from_i_.resize(n_);
    syn_keep_.resize(n_);
    mem_keep_.resize(n_);
    mem_gain_.resize(n_);
    in_gain_.resize(n_);
    cross_.assign(n_, 0.0);
    for (std::uint32_t i = 0; i < n_; ++i) {
        const bool syn = tau_syn[i] > 0, leaky = std::isfinite(tau_mem[i]);
        has_syn_[i] = syn;
        drive_from_i_[i] = syn && (!exact || !leaky);
        syn_keep_[i] = !syn ? 0.0 : exact ? std::exp(-dt_ms / tau_syn[i]) : 1.0 - dt_ms / tau_syn[i];
        if (!leaky) {
            mem_keep_[i] = 1;
            mem_gain_[i] = 1;
        } else if (exact) {
            mem_keep_[i] = membrane_decay(dt_ms, tau_mem[i]);
            mem_gain_[i] = constant_input_gain(dt_ms, tau_mem[i]);
            if (syn) cross_[i] = exp_current_gain(dt_ms, tau_syn[i], tau_mem[i]);
        } else {
            mem_keep_[i] = 1.0 - dt_ms / tau_mem[i];
            mem_gain_[i] = dt_ms / tau_mem[i];
        }
        in_gain_[i] = snap_unit_gain(mem_gain_[i] * r_[i]);
        if (!leaky) r_[i] = in_gain_[i];  // the plain IF step reads r
    }
    // The plain IF step and its run-ahead know the two resets at the spike only.
    plain_if_ = reset_ == discrete_neuron::reset_mode::to_v_reset || reset_ == discrete_neuron::reset_mode::subtract;
    for (std::uint32_t i = 0; i < n_; ++i)
        plain_if_ = plain_if_ && !has_syn_[i] && mem_keep_[i] == 1 && mem_gain_[i] == 1 && cross_[i] == 0 && v_leak_[i] == 0;
    unit_if_ = plain_if_;
    for (std::uint32_t i = 0; i < n_; ++i)
        unit_if_ = unit_if_ && r_[i] == 1 && w_in_[i] == 1 && v_threshold_[i] == v_threshold_[0] && v_reset_[i] == v_reset_[0];
    v_ = v_leak_;
    i_syn_.assign(n_, 0.0);
    const auto vars = model_state_variables(p.model);
    for (const auto& [var, spec] : p.initial_values) {
        auto& target = var == "v" ? v_ : i_syn_;
        const auto slot = static_cast<std::uint32_t>(
            64 + (std::find_if(vars.begin(), vars.end(), [&var = var](const char* v) { return var == v; }) - vars.begin()));
        for (std::uint32_t i = 0; i < n_; ++i) target[i] = draw_neuron_value(spec, seed, pop.value, slot, i);
    }
    v_initial_ = v_;
    i_syn_initial_ = i_syn_;
}

namespace {

using reset_mode = discrete_neuron::reset_mode;

/// The threshold test and reset of one neuron under rule R (neuron_models.hpp): v is this
/// step's membrane after the leak and input, v_old the last step's. Chosen once per update
/// (update_general<R>), so the loop carries no test of the rule.
template <reset_mode R>
inline bool fire_and_reset(double v_old, double theta, double v_reset, double& v) {
    double test = v;
    if constexpr (R == reset_mode::subtract_delayed) {
        if (v_old > theta) test = v = v - theta;
    } else if constexpr (R == reset_mode::to_v_reset_delayed) {
        if (v_old > theta) test = v = v_reset;
    } else if constexpr (R == reset_mode::subtract_no_delay) {
        if (v_old > theta) test = v - theta;
    }
    if (!(test > theta)) return false;
    if constexpr (R == reset_mode::to_v_reset) v = v_reset;
    else if constexpr (R == reset_mode::subtract || R == reset_mode::subtract_no_delay) v -= theta;
    return true;
}

}  // namespace

void discrete_population::update(std::uint32_t begin, std::uint32_t end, const step_input& in,
                                 std::vector<std::uint32_t>& spikes) {
    if (plain_if_ && unit_if_ && !in.fed && !in.sums && begin == 0 && end == n_) return update_ahead(spikes);
    settle();
    if (plain_if_) return update_plain_if(begin, end, in, spikes);
    switch (reset_) {
        case reset_mode::to_v_reset: return update_general<reset_mode::to_v_reset>(begin, end, in, spikes);
        case reset_mode::subtract: return update_general<reset_mode::subtract>(begin, end, in, spikes);
        case reset_mode::subtract_delayed: return update_general<reset_mode::subtract_delayed>(begin, end, in, spikes);
        case reset_mode::subtract_no_delay: return update_general<reset_mode::subtract_no_delay>(begin, end, in, spikes);
        case reset_mode::to_v_reset_delayed: return update_general<reset_mode::to_v_reset_delayed>(begin, end, in, spikes);
        case reset_mode::none: return update_general<reset_mode::none>(begin, end, in, spikes);
    }
}

template <discrete_neuron::reset_mode R>
void discrete_population::update_general(std::uint32_t begin, std::uint32_t end, const step_input& in,
                                         std::vector<std::uint32_t>& spikes) {
    for (std::uint32_t i = begin; i < end; ++i) {
        std::int64_t* cell = in.cells + 2 * std::size_t{i};
        const double x = static_cast<double>(cell[0]) * in.scale_e + static_cast<double>(cell[1]) * in.scale_i;
        cell[0] = 0;
        cell[1] = 0;
        const double u = w_in_[i] * (x + i_bias_[i]);
        double drive = u, decaying = 0;
        if (has_syn_[i]) {
            const double i_old = i_syn_[i];
            i_syn_[i] = u + (i_old - u) * syn_keep_[i];
            if (drive_from_i_[i]) drive = i_syn_[i];
            decaying = i_old - u;
        }
        const double v_old = v_[i];
        double v = v_leak_[i] + (v_old - v_leak_[i]) * mem_keep_[i] + in_gain_[i] * drive + cross_[i] * r_[i] * decaying;
        if (fire_and_reset<R>(v_old, v_threshold_[i], v_reset_[i], v)) spikes.push_back(i);
        v_[i] = v;
    }
}

void discrete_population::check_bias(const std::string& population, std::uint32_t n, std::span<const double> per_neuron) {
    const std::string object = "population '" + population + "'";
    if (per_neuron.size() != n)
        throw invalid_parameter(object, "i_bias", "a list of " + std::to_string(per_neuron.size()) + " values",
                                "expected one value per neuron (" + std::to_string(n) + ")");
    for (std::size_t i = 0; i < per_neuron.size(); ++i)
        if (!std::isfinite(per_neuron[i]))
            throw invalid_parameter(object + " neuron " + std::to_string(i), "i_bias", format_number(per_neuron[i]),
                                    "must be finite");
}

void discrete_population::set_bias(std::span<const double> per_neuron) {
    check_bias(name_, n_, per_neuron);
    settle();
    i_bias_.assign(per_neuron.begin(), per_neuron.end());
}

const std::vector<double>& discrete_population::state(const std::string& variable) const {
    if (variable == "v" && ahead_given_ < ahead_end_.size()) {
        replay(ahead_given_, v_now_);
        return v_now_;
    }
    if (variable == "v") return ahead_end_.empty() ? v_ : ahead_v_;
    if (variable == "i_syn") return i_syn_;
    throw unknown_name("state variable", variable, "population '" + name_ + "'");
}

}  // namespace volley::snn::detail
