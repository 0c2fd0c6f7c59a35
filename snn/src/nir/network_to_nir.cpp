// Writing an engine network of analog sources and discrete_neuron populations as a NIR graph
// (see nir_network.hpp): the inverse of nir_to_network. Each projection becomes a Linear node
// (Affine when it carries its target's bias), a convolution projection a Conv2d node (its
// populations then have the maps' (C, H, W) shapes, and a Flatten node goes before a Linear
// that reads such a map); a delay longer than the layer alignment of nir_to_network gives
// (depth(T) − depth(S), plus one per recurrent edge) becomes a Delay node.

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

std::string detail_shape(const std::vector<std::size_t>& s) {
    std::string out = "(";
    for (std::size_t k = 0; k < s.size(); ++k) out += (k ? ", " : "") + std::to_string(s[k]);
    return out + ")";
}

bool all_of(const std::vector<double>& v, auto pred) { return std::all_of(v.begin(), v.end(), pred); }

nir_array vec(std::vector<double> v) {
    return nir_array::vector(std::move(v));
}

nir_array ints(const std::vector<double>& v) { return nir_array::vector(v, nir_dtype::int64); }

/// A convolution projection as a Conv2d node's parameters (without bias). PyTorch pads both
/// sides alike, or 'same'; other paddings have no NIR form.
std::map<std::string, nir_array> conv_params(const convolution& c, const population& t) {
    nir_array w = vec(c.kernel);
    w.shape = {c.out_channels, c.in_channels / c.groups, c.kernel_height, c.kernel_width};
    std::map<std::string, nir_array> out{
        {"weight", std::move(w)},
        {"stride", ints({double(c.stride_h), double(c.stride_w)})},
        {"dilation", ints({double(c.dilation_h), double(c.dilation_w)})},
        {"groups", nir_array::scalar(double(c.groups), nir_dtype::int64)},
        {"input_shape", ints({double(c.in_height), double(c.in_width)})}};
    if (c.pad_top == c.pad_bottom && c.pad_left == c.pad_right) {
        out["padding"] = ints({double(c.pad_top), double(c.pad_left)});
    } else {
        const std::uint32_t th = c.dilation_h * (c.kernel_height - 1), tw = c.dilation_w * (c.kernel_width - 1);
        if (c.stride_h != 1 || c.stride_w != 1 || c.pad_top + c.pad_bottom != th || c.pad_left + c.pad_right != tw ||
            c.pad_top != th / 2 || c.pad_left != tw / 2)
            unsupported(t, "its convolution pads unevenly (top " + std::to_string(c.pad_top) + ", bottom " +
                               std::to_string(c.pad_bottom) + ", left " + std::to_string(c.pad_left) + ", right " +
                               std::to_string(c.pad_right) + "), which is neither PyTorch's symmetric nor 'same' padding");
        out["padding"] = nir_array::string("same");
    }
    return out;
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
    } else if (std::holds_alternative<max_pool_gate>(q.rule)) {
        unsupported(t, "projection " + std::to_string(index) +
                           " is a max_pool_gate, which NIR cannot express (convert with --max-pool avg)");
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
    // Each population's NIR shape: flat, or a convolution's (C, H, W) map.
    std::vector<std::vector<std::size_t>> shape(net.populations().size());
    for (std::size_t k = 0; k < shape.size(); ++k) shape[k] = {net.populations()[k].size};
    auto set_shape = [&](population_index pop, std::vector<std::size_t> s) {
        auto& at = shape[pop.value];
        if (at.size() > 1 && at != s)
            unsupported(net.at(pop), "convolutions see it as maps of shapes " + detail_shape(at) + " and " + detail_shape(s));
        at = std::move(s);
    };
    for (const auto& q : net.projections())
        if (const auto* c = std::get_if<convolution>(&q.rule)) {
            set_shape(q.source, {c->in_channels, c->in_height, c->in_width});
            set_shape(q.target, {c->out_channels, c->out_height(), c->out_width()});
        }
    for (std::size_t k = 0; k < net.populations().size(); ++k) {
        const auto& p = net.populations()[k];
        if (std::holds_alternative<analog_source>(p.model)) {
            std::vector<double> dims(shape[k].begin(), shape[k].end());
            g.nodes.emplace_back(p.name, "Input", std::map<std::string, nir_array>{{"shape", ints(dims)}});
        } else if (std::holds_alternative<discrete_neuron>(p.model)) {
            if (!p.initial_values.empty()) unsupported(p, "initial values have no NIR form");
            g.nodes.push_back(neuron_node(p));
            for (auto& [key, a] : g.nodes.back().params)
                if (a.values.size() == p.size) a.shape = shape[k];
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
        auto unique = [&](std::string base) {
            std::string name = base;
            for (int k = 2; names.count(name); ++k) name = base + "_" + std::to_string(k);
            names.insert(name);
            return name;
        };
        const std::string name = unique(s.name + "_to_" + t.name);
        const auto bias = column(t, "i_bias");
        const bool add_bias = !biased.count(proj.target.value) && !all_of(bias, [](double x) { return x == 0; });
        std::map<std::string, nir_array> params;
        std::string type = "Linear", from = s.name;
        if (const auto* c = std::get_if<convolution>(&proj.rule)) {
            const auto* one = std::get_if<double>(&proj.synapse.weight);
            if (!one || *one != 1) unsupported(t, "projection " + std::to_string(q) + " is a convolution whose weight is not 1");
            params = conv_params(*c, t);
            type = "Conv2d";
            // One bias per output channel; zeros when the target has none here (NIR wants one).
            const std::size_t per_channel = std::size_t{c->out_height()} * c->out_width();
            std::vector<double> b(c->out_channels, 0.0);
            if (add_bias)
                for (std::size_t i = 0; i < bias.size(); ++i) {
                    if (bias[i] != bias[i / per_channel * per_channel])
                        unsupported(t, "its i_bias differs within channel " + std::to_string(i / per_channel) +
                                           ", so no Conv2d bias carries it");
                    b[i / per_channel] = bias[i];
                }
            params["bias"] = vec(std::move(b));
        } else {
            if (shape[proj.target.value].size() > 1)
                unsupported(t, "projection " + std::to_string(q) + " is dense into a convolution's map; NIR has no such node");
            nir_array w = vec(dense_weights(net, proj, q));
            w.shape = {t.size, s.size};
            params["weight"] = std::move(w);
            if (add_bias) {
                params["bias"] = vec(bias);
                type = "Affine";
            }
            if (shape[proj.source.value].size() > 1) {  // read a map: flatten it first
                const std::string flat = s.name + "_flatten";
                if (!names.count(flat)) {
                    names.insert(flat);
                    const auto& sh = shape[proj.source.value];
                    g.nodes.emplace_back(flat, "Flatten",
                                         std::map<std::string, nir_array>{
                                             {"start_dim", nir_array::scalar(0, nir_dtype::int64)},
                                             {"end_dim", nir_array::scalar(-1, nir_dtype::int64)},
                                             {"input_type", ints(std::vector<double>(sh.begin(), sh.end()))}});
                    g.edges.emplace_back(s.name, flat);
                }
                from = flat;
            }
        }
        if (add_bias) biased.insert(proj.target.value);
        g.nodes.emplace_back(name, type, std::move(params));
        links.push_back({proj.source.value, proj.target.value, g.nodes.size() - 1,
                         std::llround(delay_of(t, proj, q) / dt_ms)});
        g.edges.emplace_back(from, name);
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
        std::string name = outs.size() == 1 ? "output" : "output_" + o;
        while (names.count(name)) name += "_";
        names.insert(name);
        const auto& sh = shape[net.find(o).value];
        g.nodes.emplace_back(name, "Output",
                             std::map<std::string, nir_array>{{"shape", ints(std::vector<double>(sh.begin(), sh.end()))}});
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
        if (l.steps == 0) continue;  // same-step delivery: NIR's own (instantaneous) semantics
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
