// Reading and writing the Volley network JSON format (docs/network-format.md).

#include <volley/error.hpp>
#include <volley/json_text.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/text_file.hpp>

#include <nlohmann/json.hpp>

#include "io/json_node.hpp"

#include <cmath>
#include <array>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace volley::snn {

namespace detail {

value_spec read_value(const node& n) {
    if (n.raw().is_number()) return n.number();
    if (n.raw().is_array()) return n.numbers();
    if (n.raw().is_object() && n.has("uniform")) {
        n.only_keys({"uniform"});
        const auto u = n.at("uniform");
        u.only_keys({"low", "high"});
        return uniform{u.at("low").number(), u.at("high").number()};
    }
    if (n.raw().is_object() && n.has("normal")) {
        n.only_keys({"normal"});
        const auto m = n.at("normal");
        m.only_keys({"mean", "stddev", "low", "high"});
        normal d{m.at("mean").number(), m.at("stddev").number()};
        if (m.has("low")) d.low = m.at("low").number();
        if (m.has("high")) d.high = m.at("high").number();
        return d;
    }
    n.fail("expected a number, a list of numbers, {\"uniform\": {...}} or {\"normal\": {...}}, got " + n.show());
}

nlohmann::ordered_json write_value(const value_spec& v) {
    if (const auto* c = std::get_if<double>(&v)) return *c;
    if (const auto* l = std::get_if<std::vector<double>>(&v)) return *l;
    if (const auto* u = std::get_if<uniform>(&v)) return {{"uniform", {{"low", u->low}, {"high", u->high}}}};
    const auto& n = std::get<normal>(v);
    nlohmann::ordered_json d = {{"mean", n.mean}, {"stddev", n.stddev}};
    if (std::isfinite(n.low)) d["low"] = n.low;
    if (std::isfinite(n.high)) d["high"] = n.high;
    return {{"normal", d}};
}

}  // namespace detail

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using detail::at_node;
using detail::node;
using detail::read_plasticity;
using detail::write_plasticity;
using detail::read_value;
using detail::write_value;


population_index population_ref(const network& net, const node& n) {
    const auto name = n.string();
    return at_node(n, [&] { return net.find(name); });
}

/// "integrator": "rk4", or {"scheme": "adaptive", "abs_tol": 1e-10, "rel_tol": 1e-10}.
void read_integrator(neuron_model& model, const node& x, const std::string& name) {
    ode_integrator* in = model_integrator(model);
    if (!in) x.fail("only an ODE model (lif_cond_exp, lif_cond_alpha, izhikevich, adex, hh) has an integrator");
    const std::string object = "population '" + name + "'";
    if (x.raw().is_string()) {
        in->scheme = at_node(x, [&] { return scheme_from_name(x.string(), object); });
    } else {
        if (!x.raw().is_object()) x.fail("expected a scheme name or an object, got " + x.show());
        x.only_keys({"scheme", "abs_tol", "rel_tol"});
        const auto scheme = x.at("scheme");
        in->scheme = at_node(scheme, [&] { return scheme_from_name(scheme.string(), object); });
        if (x.has("abs_tol")) in->abs_tol = x.at("abs_tol").number();
        if (x.has("rel_tol")) in->rel_tol = x.at("rel_tol").number();
    }
    at_node(x, [&] { check_integrator(model, object); return 0; });
}

void read_population(network& net, const node& p) {
    p.only_keys({"name", "size", "model", "preset", "params", "per_neuron", "initial", "spike_times_ms", "reset",
                 "integration", "integrator", "values"});
    const auto name = p.at("name").string();
    const auto size = static_cast<std::uint32_t>(p.at("size").unsigned_int(std::numeric_limits<std::uint32_t>::max()));
    const auto model_node = p.at("model");
    auto model = at_node(model_node, [&] { return model_from_name(model_node.string()); });
    if (p.has("preset")) {  // a named parameter set; "params" then override single values
        const auto preset = p.at("preset");
        const auto preset_name = preset.string();
        at_node(preset, [&] {
            if (std::holds_alternative<izhikevich>(model)) model = izhikevich::preset(preset_name);
            else if (std::holds_alternative<adex>(model)) model = adex::preset(preset_name);
            else throw unsupported_model(model_name(model), "has no presets (izhikevich and adex have)");
            return 0;
        });
    }
    if (p.has("params")) {
        const auto params = p.at("params");
        if (!params.raw().is_object()) params.fail("expected an object, got " + params.show());
        for (const auto& item : params.raw().items()) {
            const auto& key = item.key();
            const auto x = params.at(key);
            // JSON has no infinity: "inf" stands for it (a discrete_neuron that never fires).
            const double value = x.raw().is_string() && x.raw().get<std::string>() == "inf"
                                     ? std::numeric_limits<double>::infinity()
                                     : x.number();
            at_node(x, [&] { set_parameter(model, key, value); return 0; });
        }
    }
    if (p.has("spike_times_ms")) {
        auto* src = std::get_if<spike_source>(&model);
        const auto st = p.at("spike_times_ms");
        if (!src) st.fail("only a spike_source population has spike_times_ms");
        for (std::size_t i = 0; i < st.array().size(); ++i) src->spike_times_ms.push_back(st.at(i).numbers());
    }
    auto* discrete = std::get_if<discrete_neuron>(&model);
    for (const char* key : {"reset", "integration"}) {
        if (!p.has(key)) continue;
        const auto x = p.at(key);
        if (!discrete) x.fail(std::string("only a discrete_neuron population has '") + key + "'");
        at_node(x, [&] {
            if (std::string_view(key) == "reset") discrete->reset = reset_mode_from_name(x.string(), "population '" + name + "'");
            else discrete->method = integration_from_name(x.string(), "population '" + name + "'");
            return 0;
        });
    }
    if (p.has("integrator")) read_integrator(model, p.at("integrator"), name);
    if (p.has("values")) {
        auto* src = std::get_if<analog_source>(&model);
        const auto vals = p.at("values");
        if (!src) vals.fail("only an analog_source population has values");
        for (std::size_t i = 0; i < vals.array().size(); ++i) src->values.push_back(vals.at(i).numbers());
    }
    const auto pop = at_node(p, [&] { return net.add_population(name, size, std::move(model)); });
    for (const char* section : {"per_neuron", "initial"}) {
        if (!p.has(section)) continue;
        const auto sec = p.at(section);
        if (!sec.raw().is_object()) sec.fail("expected an object, got " + sec.show());
        for (const auto& [key, value] : sec.raw().items()) {
            const auto x = sec.at(key);
            auto spec = read_value(x);
            at_node(x, [&, &key = key] {  // clang 14 captures no structured binding implicitly
                if (std::string_view(section) == "initial") net.initialise(pop, key, std::move(spec));
                else net.set_parameter(pop, key, std::move(spec));
                return 0;
            });
        }
    }
}

/// The integer fields of a convolution connector by their names in files.
template <class Conv>
auto convolution_fields(Conv& c) {
    using field = std::conditional_t<std::is_const_v<Conv>, const std::uint32_t*, std::uint32_t*>;
    return std::array<std::pair<const char*, field>, 15>{{{"in_channels", &c.in_channels},
                                                          {"in_height", &c.in_height},
                                                          {"in_width", &c.in_width},
                                                          {"out_channels", &c.out_channels},
                                                          {"kernel_height", &c.kernel_height},
                                                          {"kernel_width", &c.kernel_width},
                                                          {"stride_h", &c.stride_h},
                                                          {"stride_w", &c.stride_w},
                                                          {"pad_top", &c.pad_top},
                                                          {"pad_bottom", &c.pad_bottom},
                                                          {"pad_left", &c.pad_left},
                                                          {"pad_right", &c.pad_right},
                                                          {"dilation_h", &c.dilation_h},
                                                          {"dilation_w", &c.dilation_w},
                                                          {"groups", &c.groups}}};
}

/// The fields of a max_pool_gate connector by their names in files.
template <class Gate>
auto max_pool_gate_fields(Gate& g) {
    using field = std::conditional_t<std::is_const_v<Gate>, const std::uint32_t*, std::uint32_t*>;
    return std::array<std::pair<const char*, field>, 11>{{{"channels", &g.channels},
                                                          {"in_height", &g.in_height},
                                                          {"in_width", &g.in_width},
                                                          {"pool_h", &g.pool_h},
                                                          {"pool_w", &g.pool_w},
                                                          {"stride_h", &g.stride_h},
                                                          {"stride_w", &g.stride_w},
                                                          {"pad_top", &g.pad_top},
                                                          {"pad_bottom", &g.pad_bottom},
                                                          {"pad_left", &g.pad_left},
                                                          {"pad_right", &g.pad_right}}};
}

connector read_connector(const node& c) {
    const auto type = c.at("type").string();
    if (type == "all_to_all") {
        c.only_keys({"type", "allow_autapses"});
        return all_to_all{c.has("allow_autapses") ? c.at("allow_autapses").boolean() : true};
    }
    if (type == "one_to_one") {
        c.only_keys({"type"});
        return one_to_one{};
    }
    if (type == "fixed_probability") {
        c.only_keys({"type", "p", "allow_autapses"});
        return fixed_probability{c.at("p").number(), c.has("allow_autapses") ? c.at("allow_autapses").boolean() : true};
    }
    if (type == "fixed_in_degree") {
        c.only_keys({"type", "k", "allow_autapses", "allow_multapses"});
        return fixed_in_degree{static_cast<std::uint32_t>(c.at("k").unsigned_int(std::numeric_limits<std::uint32_t>::max())),
                               c.has("allow_autapses") ? c.at("allow_autapses").boolean() : true,
                               c.has("allow_multapses") && c.at("allow_multapses").boolean()};
    }
    if (type == "fixed_total_number") {
        c.only_keys({"type", "n", "allow_autapses"});
        return fixed_total_number{c.at("n").unsigned_int(std::numeric_limits<std::uint64_t>::max()),
                                  c.has("allow_autapses") ? c.at("allow_autapses").boolean() : true};
    }
    if (type == "from_list") {
        c.only_keys({"type", "sources", "targets"});
        return from_list{c.at("sources").indices(), c.at("targets").indices()};
    }
    if (type == "convolution") {
        c.only_keys({"type", "in_channels", "in_height", "in_width", "out_channels", "kernel_height", "kernel_width",
                     "stride_h", "stride_w", "pad_top", "pad_bottom", "pad_left", "pad_right", "dilation_h",
                     "dilation_w", "groups", "kernel"});
        convolution cv;
        for (auto [key, field] : convolution_fields(cv))
            if (c.has(key)) *field = static_cast<std::uint32_t>(c.at(key).unsigned_int(std::numeric_limits<std::uint32_t>::max()));
        cv.kernel = c.at("kernel").numbers();
        return cv;
    }
    if (type == "max_pool_gate") {
        c.only_keys({"type", "channels", "in_height", "in_width", "pool_h", "pool_w", "stride_h", "stride_w", "pad_top",
                     "pad_bottom", "pad_left", "pad_right"});
        max_pool_gate g;
        for (auto [key, field] : max_pool_gate_fields(g))
            if (c.has(key)) *field = static_cast<std::uint32_t>(c.at(key).unsigned_int(std::numeric_limits<std::uint32_t>::max()));
        return g;
    }
    c.at("type").fail("unknown connector type \"" + type +
                      "\" (known: all_to_all, one_to_one, fixed_probability, fixed_in_degree, fixed_total_number, "
                      "from_list, convolution, max_pool_gate)");
}

void read_projection(network& net, const node& p) {
    p.only_keys({"source", "target", "connector", "weight", "delay_ms", "receptor", "plasticity"});
    const auto src = population_ref(net, p.at("source"));
    const auto tgt = population_ref(net, p.at("target"));
    auto rule = read_connector(p.at("connector"));
    synapse_spec syn;
    if (p.has("weight")) syn.weight = read_value(p.at("weight"));
    if (p.has("delay_ms")) syn.delay_ms = read_value(p.at("delay_ms"));
    if (p.has("receptor")) {
        const auto r = p.at("receptor").string();
        if (r == "excitatory") syn.receptor = excitatory;
        else if (r == "inhibitory") syn.receptor = inhibitory;
        else p.at("receptor").fail("unknown receptor \"" + r + "\" (known: excitatory, inhibitory)");
    }
    if (p.has("plasticity")) syn.plasticity = read_plasticity(p.at("plasticity"));
    at_node(p, [&] { return net.connect(src, tgt, std::move(rule), std::move(syn)); });
}

void read_current(network& net, const node& c) {
    const auto type = c.at("type").string();
    const auto tgt = population_ref(net, c.at("target"));
    std::vector<std::uint32_t> neurons;
    if (c.has("neurons")) neurons = c.at("neurons").indices();
    current_waveform wave;
    if (type == "dc") {
        c.only_keys({"type", "target", "neurons", "amplitude_mv", "start_ms", "stop_ms"});
        dc_current dc{c.at("amplitude_mv").number()};
        if (c.has("start_ms")) dc.start_ms = c.at("start_ms").number();
        if (c.has("stop_ms")) dc.stop_ms = c.at("stop_ms").number();
        wave = dc;
    } else if (type == "step") {
        c.only_keys({"type", "target", "neurons", "times_ms", "amplitudes_mv"});
        wave = step_current{c.at("times_ms").numbers(), c.at("amplitudes_mv").numbers()};
    } else if (type == "ac") {
        c.only_keys({"type", "target", "neurons", "amplitude_mv", "offset_mv", "frequency_hz", "phase_deg", "start_ms",
                     "stop_ms"});
        ac_current ac{c.at("amplitude_mv").number()};
        if (c.has("offset_mv")) ac.offset_mv = c.at("offset_mv").number();
        ac.frequency_hz = c.at("frequency_hz").number();
        if (c.has("phase_deg")) ac.phase_deg = c.at("phase_deg").number();
        if (c.has("start_ms")) ac.start_ms = c.at("start_ms").number();
        if (c.has("stop_ms")) ac.stop_ms = c.at("stop_ms").number();
        wave = ac;
    } else if (type == "noise") {
        c.only_keys({"type", "target", "neurons", "mean_mv", "stdev_mv", "interval_ms", "start_ms", "stop_ms"});
        noise_current nz{c.at("mean_mv").number(), c.at("stdev_mv").number()};
        if (c.has("interval_ms")) nz.interval_ms = c.at("interval_ms").number();
        if (c.has("start_ms")) nz.start_ms = c.at("start_ms").number();
        if (c.has("stop_ms")) nz.stop_ms = c.at("stop_ms").number();
        wave = nz;
    } else {
        c.at("type").fail("unknown current type \"" + type + "\" (known: dc, step, ac, noise)");
    }
    at_node(c, [&] { net.inject(tgt, std::move(wave), std::move(neurons)); return 0; });
}

}  // namespace

network_file parse_network_json(const std::string& text, const std::string& source_name) {
    const json j = parse_json_text(text, source_name);
    const node root(j, "", source_name);
    root.only_keys({"format", "version", "run", "populations", "projections", "currents"});
    if (root.at("format").string() != "volley-network")
        root.at("format").fail("expected \"volley-network\", got " + root.at("format").show());
    const auto version = root.at("version").unsigned_int();
    if (version < 1 || version > static_cast<std::uint64_t>(network_format_version))
        root.at("version").fail("unsupported version " + std::to_string(version) + " (this build reads 1 to " +
                                std::to_string(network_format_version) + ")");
    network_file out;
    if (root.has("run")) {
        const auto run = root.at("run");
        run.only_keys({"dt_ms", "duration_ms", "seed"});
        if (run.has("dt_ms")) out.run.dt_ms = run.at("dt_ms").number();
        if (run.has("duration_ms")) out.run.duration_ms = run.at("duration_ms").number();
        if (run.has("seed")) out.run.seed = run.at("seed").unsigned_int();
        if (!(out.run.dt_ms > 0)) run.at("dt_ms").fail("dt_ms must be > 0, got " + run.at("dt_ms").show());
        if (run.has("duration_ms") && !(out.run.duration_ms >= 0))
            run.at("duration_ms").fail("duration_ms must be >= 0, got " + run.at("duration_ms").show());
    }
    const auto pops = root.at("populations");
    for (std::size_t i = 0; i < pops.array().size(); ++i) read_population(out.net, pops.at(i));
    if (root.has("projections")) {
        const auto projs = root.at("projections");
        for (std::size_t i = 0; i < projs.array().size(); ++i) read_projection(out.net, projs.at(i));
    }
    if (root.has("currents")) {
        const auto cur = root.at("currents");
        for (std::size_t i = 0; i < cur.array().size(); ++i) read_current(out.net, cur.at(i));
    }
    return out;
}

network_file load_network_json(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw io_error(file.string(), "cannot open network file for reading");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_network_json(ss.str(), file.string());
}

std::string to_network_json(const network& net, const run_settings& run) {
    ojson j = {{"format", "volley-network"}, {"version", network_format_version}};
    j["run"] = {{"dt_ms", run.dt_ms}, {"duration_ms", run.duration_ms}, {"seed", run.seed}};
    ojson pops = ojson::array();
    for (const auto& p : net.populations()) {
        ojson jp = {{"name", p.name}, {"size", p.size}, {"model", model_name(p.model)}};
        ojson params = ojson::object();
        for (const auto& info : model_parameters(p.model)) {
            const double v = get_parameter(p.model, info.name);
            if (std::isfinite(v)) params[info.name] = v;
            else if (v != get_parameter(model_from_name(model_name(p.model)), info.name)) params[info.name] = "inf";
        }
        if (!params.empty()) jp["params"] = params;
        if (const auto* s = std::get_if<spike_source>(&p.model)) jp["spike_times_ms"] = s->spike_times_ms;
        if (const auto* d = std::get_if<discrete_neuron>(&p.model)) {
            jp["reset"] = reset_mode_name(d->reset);
            jp["integration"] = integration_name(d->method);
        }
        if (const auto* a = std::get_if<analog_source>(&p.model)) jp["values"] = a->values;
        if (const auto* in = model_integrator(p.model)) {
            const neuron_model defaults = model_from_name(model_name(p.model));
            const auto* fresh = model_integrator(defaults);
            if (in->abs_tol == fresh->abs_tol && in->rel_tol == fresh->rel_tol) jp["integrator"] = scheme_name(in->scheme);
            else jp["integrator"] = {{"scheme", scheme_name(in->scheme)}, {"abs_tol", in->abs_tol}, {"rel_tol", in->rel_tol}};
        }
        for (const auto& [section, list] : {std::pair{"per_neuron", &p.parameters}, std::pair{"initial", &p.initial_values}}) {
            if (list->empty()) continue;
            ojson sec = ojson::object();
            for (const auto& [k, v] : *list) sec[k] = write_value(v);
            jp[section] = sec;
        }
        pops.push_back(jp);
    }
    j["populations"] = pops;
    ojson projs = ojson::array();
    for (const auto& q : net.projections()) {
        ojson c = {{"type", connector_name(q.rule)}};
        std::visit(
            [&](const auto& r) {
                using R = std::decay_t<decltype(r)>;
                if constexpr (std::is_same_v<R, all_to_all>) c["allow_autapses"] = r.allow_autapses;
                if constexpr (std::is_same_v<R, fixed_probability>) {
                    c["p"] = r.p;
                    c["allow_autapses"] = r.allow_autapses;
                }
                if constexpr (std::is_same_v<R, fixed_in_degree>) {
                    c["k"] = r.k;
                    c["allow_autapses"] = r.allow_autapses;
                    if (r.allow_multapses) c["allow_multapses"] = true;
                }
                if constexpr (std::is_same_v<R, fixed_total_number>) {
                    c["n"] = r.n;
                    c["allow_autapses"] = r.allow_autapses;
                }
                if constexpr (std::is_same_v<R, from_list>) {
                    c["sources"] = r.sources;
                    c["targets"] = r.targets;
                }
                if constexpr (std::is_same_v<R, convolution>) {
                    for (auto [key, field] : convolution_fields(r)) c[key] = *field;
                    c["kernel"] = r.kernel;
                }
                if constexpr (std::is_same_v<R, max_pool_gate>)
                    for (auto [key, field] : max_pool_gate_fields(r)) c[key] = *field;
            },
            q.rule);
        projs.push_back({{"source", net.at(q.source).name},
                         {"target", net.at(q.target).name},
                         {"connector", c},
                         {"weight", write_value(q.synapse.weight)},
                         {"delay_ms", write_value(q.synapse.delay_ms)},
                         {"receptor", q.synapse.receptor == excitatory ? "excitatory" : "inhibitory"}});
        if (is_plastic(q.synapse.plasticity)) projs.back()["plasticity"] = write_plasticity(q.synapse.plasticity);
    }
    j["projections"] = projs;
    ojson cur = ojson::array();
    for (const auto& s : net.stimuli()) {
        ojson c = {{"target", net.at(s.target).name}};
        if (!s.neurons.empty()) c["neurons"] = s.neurons;
        if (const auto* dc = std::get_if<dc_current>(&s.waveform)) {
            c["type"] = "dc";
            c["amplitude_mv"] = dc->amplitude_mv;
            c["start_ms"] = dc->start_ms;
            if (std::isfinite(dc->stop_ms)) c["stop_ms"] = dc->stop_ms;
        } else if (const auto* st = std::get_if<step_current>(&s.waveform)) {
            c["type"] = "step";
            c["times_ms"] = st->times_ms;
            c["amplitudes_mv"] = st->amplitudes_mv;
        } else if (const auto* ac = std::get_if<ac_current>(&s.waveform)) {
            c["type"] = "ac";
            c["amplitude_mv"] = ac->amplitude_mv;
            c["offset_mv"] = ac->offset_mv;
            c["frequency_hz"] = ac->frequency_hz;
            c["phase_deg"] = ac->phase_deg;
            c["start_ms"] = ac->start_ms;
            if (std::isfinite(ac->stop_ms)) c["stop_ms"] = ac->stop_ms;
        } else {
            const auto& nz = std::get<noise_current>(s.waveform);
            c["type"] = "noise";
            c["mean_mv"] = nz.mean_mv;
            c["stdev_mv"] = nz.stdev_mv;
            c["interval_ms"] = nz.interval_ms;
            c["start_ms"] = nz.start_ms;
            if (std::isfinite(nz.stop_ms)) c["stop_ms"] = nz.stop_ms;
        }
        cur.push_back(c);
    }
    if (!cur.empty()) j["currents"] = cur;
    return j.dump(2) + "\n";
}

void save_network_json(const network& net, const std::filesystem::path& file, const run_settings& run) {
    write_text_file(file, to_network_json(net, run), "network file");
}

}  // namespace volley::snn
