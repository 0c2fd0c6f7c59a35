// The network description and the validation of everything added to it.

#include <volley/error.hpp>
#include <volley/snn/network.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/check_convolution.hpp"
#include "model/max_pool_gate.hpp"
#include "model/format_number.hpp"

namespace volley::snn {

namespace {

using detail::format_number;

std::string pop_object(const population& p) { return "population '" + p.name + "'"; }

void check_list_size(const value_spec& v, std::size_t expected, const std::string& object,
                     const std::string& parameter, const char* per_what) {
    if (const auto* l = std::get_if<std::vector<double>>(&v); l && l->size() != expected)
        throw invalid_parameter(object, parameter, "a list of " + std::to_string(l->size()) + " values",
                                "expected one value per " + std::string(per_what) + " (" +
                                    std::to_string(expected) + ")");
}

/// Checks a delay spec [ms]: every value that can be checked now must be > 0, except a constant
/// 0, which makes the projection deliver in the same step (see docs/network-format.md).
void check_delay(const value_spec& v, const std::string& object) {
    check_finite(v, object, "delay_ms");
    auto positive = [&](double d, const std::string& name) {
        if (!(d > 0))
            throw invalid_parameter(object, name, format_number(d),
                                    "delays must be > 0 ms (only a constant delay_ms may be 0: same-step delivery)");
    };
    if (const auto* c = std::get_if<double>(&v); c && !(*c == 0)) positive(*c, "delay_ms");
    if (const auto* u = std::get_if<uniform>(&v)) positive(u->low, "delay_ms (uniform low bound)");
    if (const auto* l = std::get_if<std::vector<double>>(&v))
        for (std::size_t i = 0; i < l->size(); ++i) positive((*l)[i], "delay_ms[" + std::to_string(i) + "]");
}

/// The largest |weight| a projection may have: the engines sum a step's input as 64-bit integers
/// in a fixed point scaled to the largest weight onto the target (up to 2^33 times it), and that
/// sum must stay a finite double. Far beyond any physical or converted network.
constexpr double max_abs_weight = 1e288;

/// Throws invalid_parameter naming the projection and the value if any weight `v` can give is
/// larger in magnitude than max_abs_weight (a constant, a list element, a uniform bound, a
/// normal's mean, or 40 of its standard deviations). `name`: "weight", or "convolution kernel"
/// for a convolution's kernel (its weights).
void check_weight_magnitude(const value_spec& v, const std::string& object, const std::string& name = "weight") {
    const std::string bound = "must be within +-" + format_number(max_abs_weight) +
                              ": the engines' summed input, in fixed point scaled to the largest weight, "
                              "must stay finite";
    if (const auto* c = std::get_if<double>(&v)) {
        if (std::abs(*c) > max_abs_weight) throw invalid_parameter(object, name, format_number(*c), bound);
    } else if (const auto* l = std::get_if<std::vector<double>>(&v)) {
        for (std::size_t i = 0; i < l->size(); ++i)
            if (std::abs((*l)[i]) > max_abs_weight)
                throw invalid_parameter(object, name + "[" + std::to_string(i) + "]", format_number((*l)[i]), bound);
    } else if (const auto* u = std::get_if<uniform>(&v)) {
        if (std::abs(u->low) > max_abs_weight || std::abs(u->high) > max_abs_weight)
            throw invalid_parameter(object, name, describe(v), bound);
    } else if (const auto* n = std::get_if<normal>(&v)) {
        if (std::abs(n->mean) > max_abs_weight || n->stddev > max_abs_weight / 40)
            throw invalid_parameter(object, name, describe(v), bound);
    }
}

/// Checks a plastic projection's rule and that its initial weights lie within the rule's bounds.
void check_plastic_weights(const synapse_spec& syn, const std::string& object) {
    if (!is_plastic(syn.plasticity)) return;
    validate_plasticity(syn.plasticity, object);
    if (!changes_weights(syn.plasticity)) return;  // short-term plasticity keeps its weights
    const auto [lo, hi] = weight_bounds(syn.plasticity);
    const std::string bounds = "initial weights must lie within [w_min, w_max] = [" + format_number(lo) + ", " +
                               format_number(hi) + "]";
    auto inside = [&, lo = lo, hi = hi](double w, const std::string& name) {  // clang 14: no implicit
        if (w < lo || w > hi) throw invalid_parameter(object, name, format_number(w), bounds);
    };
    if (const auto* c = std::get_if<double>(&syn.weight)) inside(*c, "weight");
    if (const auto* l = std::get_if<std::vector<double>>(&syn.weight))
        for (std::size_t i = 0; i < l->size(); ++i) inside((*l)[i], "weight[" + std::to_string(i) + "]");
    if (const auto* u = std::get_if<uniform>(&syn.weight)) {
        inside(u->low, "weight (uniform low bound)");
        inside(u->high, "weight (uniform high bound)");
    }
    if (const auto* n = std::get_if<normal>(&syn.weight); n && (n->low < lo || n->high > hi))
        throw invalid_parameter(object, "weight", describe(syn.weight),
                                "a normal distribution must be redrawn within the bounds; " + bounds +
                                    " (give it low and high, or use uniform or a list)");
}

}  // namespace

std::string connector_name(const connector& c) {
    static constexpr const char* names[] = {"all_to_all", "one_to_one", "fixed_probability",
                                            "fixed_in_degree", "from_list", "convolution",
                                            "max_pool_gate", "fixed_total_number"};
    return names[c.index()];
}

population& network::checked(population_index pop, const char* what) {
    if (pop.value >= populations_.size())
        throw invalid_parameter(what, "population index", std::to_string(pop.value),
                                "no such population (the network has " +
                                    std::to_string(populations_.size()) + ")");
    return populations_[pop.value];
}

population_index network::add_population(std::string name, std::uint32_t size, neuron_model model) {
    const std::string object = "population '" + name + "'";
    if (name.empty()) throw invalid_parameter("population", "name", "\"\"", "must not be empty");
    for (const auto& p : populations_)
        if (p.name == name) throw invalid_parameter(object, "name", name, "a population of that name already exists");
    if (size == 0) throw invalid_parameter(object, "size", "0", "must be >= 1");
    validate_model(model, object);
    if (auto* s = std::get_if<spike_source>(&model)) {
        if (s->spike_times_ms.empty()) s->spike_times_ms.resize(size);
        if (s->spike_times_ms.size() != size)
            throw invalid_parameter(object, "spike_times_ms",
                                    "a list of " + std::to_string(s->spike_times_ms.size()) + " trains",
                                    "expected one spike train per neuron (" + std::to_string(size) + ")");
    }
    if (const auto* a = std::get_if<analog_source>(&model))
        for (std::size_t s = 0; s < a->values.size(); ++s)
            if (a->values[s].size() != size)
                throw invalid_parameter(object, "values[" + std::to_string(s) + "]",
                                        "a row of " + std::to_string(a->values[s].size()) + " values",
                                        "expected one value per neuron (" + std::to_string(size) + ")");
    populations_.push_back({std::move(name), size, std::move(model), {}, {}});
    return {static_cast<std::uint32_t>(populations_.size() - 1)};
}

void network::set_integrator(population_index pop, const ode_integrator& integrator) {
    auto& p = checked(pop, "set_integrator");
    neuron_model m = p.model;
    ode_integrator* in = model_integrator(m);
    if (!in)
        throw unsupported_model(model_name(m), pop_object(p) + ": has no integrator (only the ODE models have: "
                                                               "lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh)");
    *in = integrator;
    check_integrator(m, pop_object(p));
    p.model = std::move(m);
}

void network::set_parameter(population_index pop, const std::string& name, value_spec value) {
    auto& p = checked(pop, "set_parameter");
    const auto object = pop_object(p);
    const auto params = model_parameters(p.model);
    const auto info = std::find_if(params.begin(), params.end(), [&](const parameter_info& i) { return name == i.name; });
    if (info == params.end())
        throw unknown_name("parameter", name, object + " (model '" + model_name(p.model) + "')", parameter_names(p.model));
    check_finite(value, object, name);
    check_list_size(value, p.size, object, name, "neuron");
    if (const auto* c = std::get_if<double>(&value)) check_parameter(*info, *c, object);
    if (const auto* l = std::get_if<std::vector<double>>(&value))
        for (double x : *l) check_parameter(*info, x, object);
    if (const auto* u = std::get_if<uniform>(&value)) {
        check_parameter(*info, u->low, object);
        check_parameter(*info, u->high, object);
    }
    auto it = std::find_if(p.parameters.begin(), p.parameters.end(), [&](auto& kv) { return kv.first == name; });
    if (it != p.parameters.end()) it->second = std::move(value);
    else p.parameters.emplace_back(name, std::move(value));
}

void network::initialise(population_index pop, const std::string& variable, value_spec value) {
    auto& p = checked(pop, "initialise");
    const auto object = pop_object(p);
    const auto vars = model_state_variables(p.model);
    if (std::find_if(vars.begin(), vars.end(), [&](const char* v) { return variable == v; }) == vars.end())
        throw unknown_name("state variable", variable, object + " (model '" + model_name(p.model) + "')");
    check_finite(value, object, variable);
    check_list_size(value, p.size, object, variable, "neuron");
    auto it = std::find_if(p.initial_values.begin(), p.initial_values.end(), [&](auto& kv) { return kv.first == variable; });
    if (it != p.initial_values.end()) it->second = std::move(value);
    else p.initial_values.emplace_back(variable, std::move(value));
}

std::size_t network::connect(population_index source, population_index target, connector rule,
                             synapse_spec synapse) {
    const auto& src = checked(source, "connect (source)");
    const auto& tgt = checked(target, "connect (target)");
    const std::string object = "projection " + std::to_string(projections_.size()) + " ('" +
                               src.name + "' -> '" + tgt.name + "')";
    if (is_source_model(tgt.model))
        throw invalid_parameter(object, "target", tgt.name,
                                "a " + model_name(tgt.model) + " population cannot receive synapses");
    const bool same = source == target;
    std::size_t synapse_count = 0;  // 0 when only known after drawing
    if (const auto* fp = std::get_if<fixed_probability>(&rule)) {
        if (!std::isfinite(fp->p) || fp->p < 0 || fp->p > 1)
            throw invalid_parameter(object, "p", format_number(fp->p), "connection probability must be in [0, 1]");
    } else if (const auto* fi = std::get_if<fixed_in_degree>(&rule)) {
        const std::uint64_t eligible = src.size - (same && !fi->allow_autapses ? 1 : 0);
        if (fi->allow_multapses && fi->k > 0 && eligible == 0)
            throw invalid_parameter(object, "k", std::to_string(fi->k),
                                    "no eligible source neuron in '" + src.name + "' (autapses excluded)");
        if (!fi->allow_multapses && fi->k > eligible)
            throw invalid_parameter(object, "k", std::to_string(fi->k),
                                    "in-degree larger than the " + std::to_string(eligible) +
                                        " eligible source neurons of '" + src.name + "'");
    } else if (const auto* ft = std::get_if<fixed_total_number>(&rule)) {
        const std::uint64_t eligible = src.size - (same && !ft->allow_autapses ? 1 : 0);
        if (ft->n > 0 && (eligible == 0 || tgt.size == 0))
            throw invalid_parameter(object, "n", std::to_string(ft->n),
                                    "no eligible (source, target) pair between '" + src.name + "' and '" + tgt.name + "'");
        if (ft->n > std::uint64_t{tgt.size} * std::numeric_limits<std::uint32_t>::max())
            throw invalid_parameter(object, "n", std::to_string(ft->n), "more synapses than the targets can hold");
    } else if (std::holds_alternative<one_to_one>(rule)) {
        if (src.size != tgt.size)
            throw invalid_parameter(object, "connector", "one_to_one",
                                    "source size " + std::to_string(src.size) + " differs from target size " +
                                        std::to_string(tgt.size));
        synapse_count = src.size;
    } else if (std::holds_alternative<all_to_all>(rule)) {
        synapse_count = std::size_t{src.size} * tgt.size;
    } else if (const auto* fl = std::get_if<from_list>(&rule)) {
        if (fl->sources.size() != fl->targets.size())
            throw invalid_parameter(object, "targets", "a list of " + std::to_string(fl->targets.size()),
                                    "must be as long as sources (" + std::to_string(fl->sources.size()) + ")");
        for (std::size_t i = 0; i < fl->sources.size(); ++i) {
            if (fl->sources[i] >= src.size)
                throw invalid_parameter(object, "sources[" + std::to_string(i) + "]", std::to_string(fl->sources[i]),
                                        "out of range for '" + src.name + "' of size " + std::to_string(src.size));
            if (fl->targets[i] >= tgt.size)
                throw invalid_parameter(object, "targets[" + std::to_string(i) + "]", std::to_string(fl->targets[i]),
                                        "out of range for '" + tgt.name + "' of size " + std::to_string(tgt.size));
        }
        synapse_count = fl->sources.size();
    } else if (const auto* cv = std::get_if<convolution>(&rule)) {
        detail::check_convolution(*cv, src, tgt, synapse, object);
        check_weight_magnitude(cv->kernel, object, "convolution kernel");
    } else if (const auto* gate = std::get_if<max_pool_gate>(&rule)) {
        detail::check_max_pool_gate(*gate, src, tgt, synapse, object);
    }
    check_finite(synapse.weight, object, "weight");
    check_weight_magnitude(synapse.weight, object);
    check_plastic_weights(synapse, object);
    if (is_plastic(synapse.plasticity) && std::holds_alternative<analog_source>(src.model))
        throw invalid_parameter(object, "plasticity", plasticity_name(synapse.plasticity),
                                "an analog_source sends values, not spikes, and cannot drive plastic synapses");
    if (is_plastic(synapse.plasticity) && std::holds_alternative<max_pool_gate>(rule))
        throw invalid_parameter(object, "plasticity", plasticity_name(synapse.plasticity),
                                "a max_pool_gate passes spikes through fixed gates and cannot be plastic");
    if (is_plastic(synapse.plasticity) && std::holds_alternative<convolution>(rule))
        throw invalid_parameter(object, "plasticity", plasticity_name(synapse.plasticity),
                                "a convolution shares one kernel among all its synapses and cannot be plastic");
    check_delay(synapse.delay_ms, object);
    if (is_plastic(synapse.plasticity) && is_zero_delay(synapse))
        throw invalid_parameter(object, "delay_ms", "0",
                                "plastic synapses need a delay of at least one step (same-step delivery is for static ones)");
    std::vector<std::pair<const value_spec*, const char*>> specs{{&synapse.weight, "weight"}, {&synapse.delay_ms, "delay_ms"}};
    if (const auto* m = std::get_if<tsodyks_markram>(&synapse.plasticity))
        specs.insert(specs.end(), {{&m->u, "u"}, {&m->tau_rec_ms, "tau_rec_ms"}, {&m->tau_facil_ms, "tau_facil_ms"},
                                   {&m->tau_psc_ms, "tau_psc_ms"}});
    if (const auto* b = std::get_if<stochastic_release>(&synapse.plasticity)) specs.emplace_back(&b->p_transmit, "p_transmit");
    if (const auto* q = std::get_if<quantal_release>(&synapse.plasticity)) {
        specs.insert(specs.end(), {{&q->u, "u"}, {&q->tau_rec_ms, "tau_rec_ms"}, {&q->tau_facil_ms, "tau_facil_ms"},
                                   {&q->sites, "sites"}});
        if (q->initial_u) specs.emplace_back(&*q->initial_u, "initial_u");
        if (q->initial_available) specs.emplace_back(&*q->initial_available, "initial_available");
    }
    for (const auto& [v, name] : specs) {
        if (std::holds_alternative<std::vector<double>>(*v)) {
            if (synapse_count == 0 && !std::holds_alternative<from_list>(rule))
                throw invalid_parameter(object, name, describe(*v),
                                        "a per-synapse list needs an all_to_all, one_to_one or "
                                        "from_list connector, not " + connector_name(rule));
            check_list_size(*v, synapse_count, object, name, "synapse");
        }
    }
    projections_.push_back({source, target, std::move(rule), std::move(synapse)});
    return projections_.size() - 1;
}

namespace {

/// Throws invalid_parameter naming `object` when a waveform's parameter is out of range.
void check_waveform(const std::string& object, const current_waveform& waveform) {
    auto finite = [&](const char* name, double v) {
        if (!std::isfinite(v)) throw invalid_parameter(object, name, format_number(v), "must be finite");
    };
    auto window = [&](double start_ms, double stop_ms) {
        if (!std::isfinite(start_ms) || start_ms < 0) throw invalid_parameter(object, "start_ms", format_number(start_ms), "must be finite and >= 0");
        if (std::isnan(stop_ms) || stop_ms < start_ms)
            throw invalid_parameter(object, "stop_ms", format_number(stop_ms), "must not be before start_ms");
    };
    if (const auto* dc = std::get_if<dc_current>(&waveform)) {
        finite("amplitude_mv", dc->amplitude_mv);
        window(dc->start_ms, dc->stop_ms);
    } else if (const auto* ac = std::get_if<ac_current>(&waveform)) {
        finite("amplitude_mv", ac->amplitude_mv), finite("offset_mv", ac->offset_mv), finite("phase_deg", ac->phase_deg);
        if (!std::isfinite(ac->frequency_hz) || ac->frequency_hz < 0)
            throw invalid_parameter(object, "frequency_hz", format_number(ac->frequency_hz), "must be finite and >= 0");
        window(ac->start_ms, ac->stop_ms);
    } else if (const auto* nz = std::get_if<noise_current>(&waveform)) {
        finite("mean_mv", nz->mean_mv);
        if (!std::isfinite(nz->stdev_mv) || nz->stdev_mv < 0)
            throw invalid_parameter(object, "stdev_mv", format_number(nz->stdev_mv), "must be finite and >= 0");
        if (!std::isfinite(nz->interval_ms) || nz->interval_ms < 0)
            throw invalid_parameter(object, "interval_ms", format_number(nz->interval_ms), "must be finite and >= 0 (0: every step)");
        window(nz->start_ms, nz->stop_ms);
    } else {
        const auto& st = std::get<step_current>(waveform);
        if (st.times_ms.size() != st.amplitudes_mv.size())
            throw invalid_parameter(object, "amplitudes_mv", "a list of " + std::to_string(st.amplitudes_mv.size()),
                                    "must be as long as times_ms (" + std::to_string(st.times_ms.size()) + ")");
        for (std::size_t i = 0; i < st.times_ms.size(); ++i) {
            const std::string idx = std::string(1, '[').append(std::to_string(i)).append(1, ']');
            if (!std::isfinite(st.times_ms[i]) || st.times_ms[i] < 0 || (i > 0 && st.times_ms[i] <= st.times_ms[i - 1]))
                throw invalid_parameter(object, "times_ms" + idx, format_number(st.times_ms[i]),
                                        "times must be finite, >= 0 and strictly increasing");
            if (!std::isfinite(st.amplitudes_mv[i]))
                throw invalid_parameter(object, "amplitudes_mv" + idx, format_number(st.amplitudes_mv[i]), "must be finite");
        }
    }
}

}  // namespace

void network::inject(population_index target, current_waveform waveform, std::vector<std::uint32_t> neurons) {
    const auto& tgt = checked(target, "inject");
    const std::string object = "current stimulus " + std::to_string(stimuli_.size()) + " into '" + tgt.name + "'";
    if (is_source_model(tgt.model))
        throw invalid_parameter(object, "target", tgt.name, "a source population cannot receive currents");
    for (std::size_t i = 0; i < neurons.size(); ++i)
        if (neurons[i] >= tgt.size)
            throw invalid_parameter(object, "neurons[" + std::to_string(i) + "]", std::to_string(neurons[i]),
                                    "out of range for size " + std::to_string(tgt.size));
    check_waveform(object, waveform);
    stimuli_.push_back({target, std::move(waveform), std::move(neurons)});
}

void network::set_spike_times(population_index pop, std::vector<std::vector<double>> spike_times_ms) {
    auto& p = checked(pop, "set_spike_times");
    auto* src = std::get_if<spike_source>(&p.model);
    if (!src)
        throw invalid_parameter(pop_object(p), "spike_times_ms", model_name(p.model), "only a spike_source population has spike times");
    if (spike_times_ms.size() != p.size)
        throw invalid_parameter(pop_object(p), "spike_times_ms", "a list of " + std::to_string(spike_times_ms.size()) + " trains",
                                "expected one spike train per neuron (" + std::to_string(p.size) + ")");
    spike_source changed{std::move(spike_times_ms)};
    validate_model(changed, pop_object(p));
    *src = std::move(changed);
}

void network::set_current(std::size_t stimulus, current_waveform waveform) {
    if (stimulus >= stimuli_.size())
        throw invalid_parameter("network", "stimulus", std::to_string(stimulus),
                                "no such current stimulus (the network has " + std::to_string(stimuli_.size()) + ")");
    auto& st = stimuli_[stimulus];
    check_waveform("current stimulus " + std::to_string(stimulus) + " into '" + populations_[st.target.value].name + "'",
                   waveform);
    st.waveform = std::move(waveform);
}

population_index network::find(std::string_view name) const {
    for (std::size_t i = 0; i < populations_.size(); ++i)
        if (populations_[i].name == name) return {static_cast<std::uint32_t>(i)};
    throw unknown_name("population", std::string(name), "network");
}

const population& network::at(population_index pop) const {
    return const_cast<network*>(this)->checked(pop, "network::at");
}

std::uint64_t network::neuron_count() const noexcept {
    std::uint64_t n = 0;
    for (const auto& p : populations_) n += p.size;
    return n;
}

}  // namespace volley::snn
