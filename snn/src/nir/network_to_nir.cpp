// Writing an engine network of analog sources and discrete_neuron populations as a NIR graph
// (see nir_network.hpp): the inverse of nir_to_network. Each projection becomes a Linear node
// (Affine when it carries its target's bias); a delay longer than the layer alignment of
// nir_to_network gives (depth(T) − depth(S), plus one per recurrent edge) becomes a Delay node.

#include <volley/error.hpp>
#include <volley/snn/nir_network.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "nir/nir_linear_ops.hpp"

namespace volley::snn {

namespace {

[[noreturn]] void unsupported(const population& p, const std::string& why) {
    throw unsupported_model(model_name(p.model), "population '" + p.name + "': " + why);
}

/// The per-neuron values of a discrete_neuron parameter (constants and lists only).
std::vector<double> column(const population& p, const std::string& name) {
    std::vector<double> out(p.size, get_parameter(p.model, name));
    for (const auto& [k, v] : p.parameters) {
        if (k != name) continue;
        if (const auto* c = std::get_if<double>(&v)) out.assign(p.size, *c);
        else if (const auto* l = std::get_if<std::vector<double>>(&v)) out = *l;
        else unsupported(p, "parameter '" + name + "' is a distribution; draw it first");
    }
    return out;
}

bool all_of(const std::vector<double>& v, auto pred) { return std::all_of(v.begin(), v.end(), pred); }

nir_array vec(std::vector<double> v) {
    return nir_array::vector(std::move(v));
}

std::vector<double> scaled(std::vector<double> v, double s) {
    for (auto& x : v) x *= s;
    return v;
}

nir_node neuron_node(const population& p) {
    const auto tau_mem = column(p, "tau_mem_ms"), tau_syn = column(p, "tau_syn_ms");
    const auto th = column(p, "v_threshold"), w_in = column(p, "w_in"), v_leak = column(p, "v_leak");
    auto is_inf = [](double x) { return std::isinf(x); };
    auto same_kind = [&](const std::vector<double>& v, auto pred, const char* what) {
        const bool first = pred(v[0]);
        if (!all_of(v, [&](double x) { return pred(x) == first; }))
            unsupported(p, std::string("neurons differ in ") + what + ", so no single NIR type fits");
        return first;
    };
    const bool cuba = same_kind(tau_syn, [](double x) { return x > 0; }, "whether tau_syn_ms > 0");
    const bool leaky = !same_kind(tau_mem, is_inf, "whether tau_mem_ms is infinite");
    const bool spiking = !same_kind(th, is_inf, "whether v_threshold is infinite");
    if (cuba && !leaky) unsupported(p, "a synaptic stage without leak has no NIR type");
    if (!cuba && !all_of(w_in, [](double x) { return x == 1; })) unsupported(p, "w_in != 1 needs tau_syn_ms > 0 (CubaLIF)");
    if (!leaky && !all_of(v_leak, [](double x) { return x == 0; })) unsupported(p, "v_leak != 0 without a leak has no NIR type");
    std::string type = cuba ? (spiking ? "CubaLIF" : "CubaLI") : leaky ? (spiking ? "LIF" : "LI") : (spiking ? "IF" : "I");
    std::map<std::string, nir_array> params;
    params["r"] = vec(column(p, "r"));
    if (cuba) {
        params["tau_mem"] = vec(scaled(tau_mem, 1e-3));
        params["tau_syn"] = vec(scaled(tau_syn, 1e-3));
        params["w_in"] = vec(w_in);
    } else if (leaky) {
        params["tau"] = vec(scaled(tau_mem, 1e-3));
    }
    if (leaky) params["v_leak"] = vec(v_leak);
    if (spiking) {
        params["v_threshold"] = vec(th);
        params["v_reset"] = vec(column(p, "v_reset"));
    }
    return nir_node(p.name, type, std::move(params));
}

/// The projection's dense (target x source) matrix.
std::vector<double> dense_weights(const network& net, const projection& q, std::size_t index) {
    const auto& s = net.at(q.source);
    const auto& t = net.at(q.target);
    const std::size_t ns = s.size, nt = t.size;
    std::vector<double> w(ns * nt, 0.0);
    const auto* constant = std::get_if<double>(&q.synapse.weight);
    const auto* list = std::get_if<std::vector<double>>(&q.synapse.weight);
    if (!constant && !list)
        unsupported(t, "projection " + std::to_string(index) + " has drawn weights; NIR needs fixed ones");
    auto weight = [&](std::size_t k) { return constant ? *constant : (*list)[k]; };
    if (const auto* fl = std::get_if<from_list>(&q.rule)) {
        for (std::size_t k = 0; k < fl->sources.size(); ++k) w[fl->targets[k] * ns + fl->sources[k]] += weight(k);
    } else if (const auto* a = std::get_if<all_to_all>(&q.rule)) {
        for (std::size_t i = 0; i < ns; ++i)
            for (std::size_t j = 0; j < nt; ++j)
                if (a->allow_autapses || q.source != q.target || i != j) w[j * ns + i] += weight(i * nt + j);
    } else if (std::holds_alternative<one_to_one>(q.rule)) {
        for (std::size_t i = 0; i < ns; ++i) w[i * ns + i] += weight(i);
    } else {
        unsupported(t, "projection " + std::to_string(index) + " uses a random connector (" + connector_name(q.rule) +
                           "); NIR needs explicit weights");
    }
    return w;
}

double delay_of(const population& t, const projection& q, std::size_t index) {
    if (const auto* c = std::get_if<double>(&q.synapse.delay_ms)) return *c;
    if (const auto* l = std::get_if<std::vector<double>>(&q.synapse.delay_ms);
        l && !l->empty() && std::all_of(l->begin(), l->end(), [&](double d) { return d == l->front(); }))
        return l->front();
    unsupported(t, "projection " + std::to_string(index) + " has per-synapse delays; NIR Delay nodes need one per edge");
}

}  // namespace

nir_graph network_to_nir(const network& net, const nir_import_options& options, const std::vector<std::string>& outputs) {
    nir_graph g;
    std::vector<std::uint8_t> has_out(net.populations().size(), 0);
    for (const auto& q : net.projections()) has_out[q.source.value] = 1;
    for (std::size_t k = 0; k < net.populations().size(); ++k) {
        const auto& p = net.populations()[k];
        if (std::holds_alternative<analog_source>(p.model)) {
            g.nodes.emplace_back(p.name, "Input",
                                 std::map<std::string, nir_array>{{"shape", nir_array::vector({double(p.size)}, nir_dtype::int64)}});
        } else if (std::holds_alternative<discrete_neuron>(p.model)) {
            if (!p.initial_values.empty()) unsupported(p, "initial values have no NIR form");
            g.nodes.push_back(neuron_node(p));
        } else {
            unsupported(p, "only analog_source and discrete_neuron populations map to NIR");
        }
    }
    // The Linear nodes and their delays (extra Delay nodes are added once the alignment is known).
    struct link {
        std::size_t source, target, linear;
        std::int64_t steps;
    };
    std::vector<link> links;
    std::set<std::uint32_t> biased;
    std::set<std::string> names;
    for (const auto& n : g.nodes) names.insert(n.name);
    const double dt_ms = options.dt_s * 1000;
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        const auto& proj = net.projections()[q];
        const auto& s = net.at(proj.source);
        const auto& t = net.at(proj.target);
        std::string name = s.name + "_to_" + t.name;
        for (int k = 2; names.count(name); ++k) name = s.name + "_to_" + t.name + "_" + std::to_string(k);
        names.insert(name);
        nir_array w = vec(dense_weights(net, proj, q));
        w.shape = {t.size, s.size};
        std::map<std::string, nir_array> params{{"weight", std::move(w)}};
        std::string type = "Linear";
        const auto bias = column(t, "i_bias");
        if (!biased.count(proj.target.value) && !all_of(bias, [](double x) { return x == 0; })) {
            params["bias"] = vec(bias);
            type = "Affine";
            biased.insert(proj.target.value);
        }
        g.nodes.emplace_back(name, type, std::move(params));
        links.push_back({proj.source.value, proj.target.value, g.nodes.size() - 1,
                         std::llround(delay_of(t, proj, q) / dt_ms)});
        g.edges.emplace_back(s.name, name);
        g.edges.emplace_back(name, t.name);
    }
    for (std::size_t k = 0; k < net.populations().size(); ++k) {
        const auto& p = net.populations()[k];
        if (std::holds_alternative<discrete_neuron>(p.model) && !biased.count(static_cast<std::uint32_t>(k)) &&
            !all_of(column(p, "i_bias"), [](double x) { return x == 0; }))
            unsupported(p, "a bias without an incoming projection has no NIR form");
    }
    std::vector<std::string> outs = outputs;
    if (outs.empty())
        for (std::size_t k = 0; k < net.populations().size(); ++k)
            if (!has_out[k]) outs.push_back(net.populations()[k].name);
    for (const auto& o : outs) {
        const auto& p = net.at(net.find(o));
        std::string name = outs.size() == 1 ? "output" : "output_" + o;
        while (names.count(name)) name += "_";
        names.insert(name);
        g.nodes.emplace_back(name, "Output",
                             std::map<std::string, nir_array>{{"shape", nir_array::vector({double(p.size)}, nir_dtype::int64)}});
        g.edges.emplace_back(o, name);
    }
    analyse_nir_graph(g, "<network>");

    // The alignment nir_to_network will compute: recurrent edges per link, then layer depths.
    std::vector<int> rec(links.size(), 0);
    for (std::size_t e : g.recurrent_edges)
        for (std::size_t k = 0; k < links.size(); ++k)
            if (g.edges[e].first == g.nodes[links[k].linear].name || g.edges[e].second == g.nodes[links[k].linear].name)
                ++rec[k];
    std::vector<std::int64_t> depth(net.populations().size());
    for (std::size_t k = 0; k < depth.size(); ++k) depth[k] = std::holds_alternative<analog_source>(net.populations()[k].model) ? 0 : 1;
    for (std::size_t pass = 0; pass <= depth.size(); ++pass)
        for (std::size_t k = 0; k < links.size(); ++k)
            if (rec[k] == 0) depth[links[k].target] = std::max(depth[links[k].target], depth[links[k].source] + 1);
    bool added = false;
    for (std::size_t k = 0; k < links.size(); ++k) {
        const auto& l = links[k];
        const std::int64_t extra = l.steps - (depth[l.target] - depth[l.source] + rec[k]);
        const auto& t = net.populations()[l.target];
        if (extra < 0)
            throw invalid_parameter("population '" + t.name + "'", "delay_ms", std::to_string(l.steps * dt_ms),
                                    "shorter than the " + std::to_string(l.steps - extra) +
                                        " steps the NIR layer alignment needs");
        if (extra == 0) continue;
        const std::string lin = g.nodes[l.linear].name, name = lin + "_delay";
        g.nodes.emplace_back(name, "Delay",
                             std::map<std::string, nir_array>{{"delay", vec(std::vector<double>(t.size, extra * options.dt_s))}});
        for (auto& e : g.edges)
            if (e.first == lin && e.second == t.name) e.second = name;
        g.edges.emplace_back(name, t.name);
        added = true;
    }
    if (added) analyse_nir_graph(g, "<network>");
    return g;
}

}  // namespace volley::snn
