// Mapping a NIR graph onto the engine (see nir_network.hpp and docs/nir.md).
//
// Populations: Input -> analog_source, neuron nodes and Threshold -> discrete_neuron.
// Projections: from each population node, every basis vector e_j of its output is pushed along
// the edges through the linear nodes until it reaches population nodes; what arrives at target
// T is column j of the composed matrix (one from_list projection per source, target, delay).
// Biases of Affine and Conv nodes are pushed the same way from the node that adds them and end
// in the target's i_bias.
//
// Step alignment. The reference frameworks pass a step's input through every layer within the
// step; the engine's synapses take at least one step. Each population gets a depth (the longest
// chain of neuron layers from an Input, Input = 0, over forward edges) and the engine handles
// NIR step t of a node in engine step t + depth, so a forward projection gets a delay of
// depth(T) − depth(S) (>= 1), plus one step per recurrent edge on the path and the Delay nodes'
// steps. The result is the reference frameworks' step rule, shifted per layer.

#include <volley/error.hpp>
#include <volley/snn/nir_network.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "nir/nir_linear_ops.hpp"
#include "nir/nir_primitives.hpp"

namespace volley::snn {

namespace {

using detail::nir_element_count;

bool is_neuron(const std::string& t) {
    return t == "LIF" || t == "CubaLIF" || t == "IF" || t == "LI" || t == "I" || t == "CubaLI";
}
bool spikes(const std::string& t) { return t == "LIF" || t == "CubaLIF" || t == "IF" || t == "Threshold"; }

std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

[[noreturn]] void unsupported(const nir_node& node, const std::string& why) {
    throw unsupported_model(node.type, "NIR node '" + node.name + "': " + why);
}

/// A parameter as one value or one per neuron.
struct per_neuron {
    double first = 0;
    std::vector<double> values;  ///< empty when every neuron has `first`
};

per_neuron read_param(const nir_node& node, const std::string& key, std::size_t n, double scale, double fallback) {
    const nir_array* a = node.param(key);
    if (a == nullptr) return {fallback, {}};
    if (a->size() != 1 && a->size() != n)
        throw file_format_error("<graph>", "", node.type + " node '" + node.name + "': parameter '" + key + "' has " +
                                                   std::to_string(a->size()) + " values for " + std::to_string(n) +
                                                   " neurons");
    per_neuron out{a->values[0] * scale, {}};
    for (double v : a->values)
        if (v * scale != out.first) {
            for (std::size_t i = 0; i < n; ++i) out.values.push_back(a->values[a->size() == 1 ? 0 : i] * scale);
            break;
        }
    return out;
}

/// A time constant [ms] for the engine's Euler step, which keeps 1 − dt/τ of v (or of the
/// current) each step. A writer that stores τ in float32 from a float32 decay β (snnTorch: τ =
/// dt/(1 − β)) gives β back only within a float32 rounding: 1 − dt/τ is 0.4999999874 for β =
/// 0.5, and a membrane that the writer's own step puts exactly on the threshold lands beside it.
/// As the input gain is taken as 1 within a few roundings (discrete_population.cpp, "Threshold
/// ties"), the decay of a float32 τ is taken as the float32 number nearest 1 − dt/τ, and τ is
/// set to give it: a change within the file's own precision (docs/nir.md, "Threshold ties"). A
/// float64 τ is kept, unless its decay already is a float32 number up to double roundings
/// (2^-40): Volley's own export of such a network then reads back as the same network.
per_neuron read_euler_tau(const nir_node& node, const std::string& key, std::size_t n, double dt_s, double fallback) {
    auto tau = read_param(node, key, n, 1000, fallback);
    const nir_array* a = node.param(key);
    if (a == nullptr) return tau;
    const bool float32 = a->dtype == nir_dtype::float32;
    const auto snapped = [dt_s, float32](double tau_ms) {
        const double keep = 1 - dt_s * 1000 / tau_ms;
        const double keep32 = static_cast<double>(static_cast<float>(keep));
        const bool snap = float32 || std::abs(keep - keep32) <= 0x1p-40;
        return snap && std::isfinite(tau_ms) && keep32 > 0 && keep32 < 1 ? dt_s * 1000 / (1 - keep32) : tau_ms;
    };
    tau.first = snapped(tau.first);
    for (auto& v : tau.values) v = snapped(v);
    return tau;
}

struct edge_to {
    std::size_t node;
    bool recurrent;
};

/// A Conv2d node as the engine's convolution connector, or nothing when its shapes do not fit
/// one (the sparse path then maps it). PyTorch padding: 'same' pads dilation·(k − 1) in all,
/// the smaller half before (top, left); 'valid' none; an int or a pair pads both sides alike.
std::optional<convolution> as_convolution(const nir_node& c) {
    const detail::nir_location nowhere{"<graph>", ""};
    const auto& wt = c.params.at("weight");
    const auto& in = c.input_shape;
    const auto& out = c.output_shape;
    if (wt.shape.size() != 4 || in.size() != 3 || out.size() != 3) return std::nullopt;
    const auto stride = detail::nir_int_tuple(c, "stride", 2, 1, nowhere);
    const auto dilation = detail::nir_int_tuple(c, "dilation", 2, 1, nowhere);
    const auto groups = detail::nir_int_tuple(c, "groups", 1, 1, nowhere)[0];
    std::vector<long long> before(2, 0), after(2, 0);
    const nir_array* pad = c.param("padding");
    for (std::size_t d = 0; d < 2; ++d) {
        const auto k = static_cast<long long>(wt.shape[2 + d]);
        if (pad && pad->is_text()) {
            const long long total = pad->text == "same" ? dilation[d] * (k - 1) : 0;
            before[d] = total / 2;
            after[d] = total - before[d];
        } else {
            before[d] = after[d] = detail::nir_int_tuple(c, "padding", 2, 0, nowhere)[d];
        }
    }
    for (const auto v : {stride[0], stride[1], dilation[0], dilation[1], groups})
        if (v < 1 || v > UINT32_MAX) return std::nullopt;
    for (const auto v : {before[0], before[1], after[0], after[1]})
        if (v < 0 || v > UINT32_MAX) return std::nullopt;
    auto u32 = [](auto v) { return static_cast<std::uint32_t>(v); };
    convolution cv{.in_channels = u32(in[0]), .in_height = u32(in[1]), .in_width = u32(in[2]),
                   .out_channels = u32(wt.shape[0]), .kernel_height = u32(wt.shape[2]), .kernel_width = u32(wt.shape[3]),
                   .stride_h = u32(stride[0]), .stride_w = u32(stride[1]),
                   .pad_top = u32(before[0]), .pad_bottom = u32(after[0]), .pad_left = u32(before[1]), .pad_right = u32(after[1]),
                   .dilation_h = u32(dilation[0]), .dilation_w = u32(dilation[1]), .groups = u32(groups),
                   .kernel = wt.values};
    if (cv.out_channels != out[0] || cv.out_height() != out[1] || cv.out_width() != out[2] ||
        std::uint64_t{wt.shape[1]} * cv.groups != cv.in_channels || cv.out_channels % cv.groups != 0)
        return std::nullopt;
    return cv;
}

/// Where a pushed vector arrives: target population node, path delay [steps], recurrent edges.
using arrival_key = std::tuple<std::size_t, std::int64_t, int>;

class mapper {
public:
    mapper(const nir_graph& g, const nir_import_options& o) : g_(g), o_(o), out_(g.nodes.size()) {
        dt_ms_ = o.dt_s * 1000;
        std::vector<std::vector<edge_to>> in(g.nodes.size());
        for (std::size_t e = 0; e < g.edges.size(); ++e) {
            const auto a = index_of(g.edges[e].first), b = index_of(g.edges[e].second);
            out_[a].push_back({b, g.is_recurrent(e)});
            in[b].push_back({a, g.is_recurrent(e)});
            if (g.nodes[b].type == "Output" && detail::is_nir_linear(g.nodes[a].type)) readouts_.insert(b);
        }
        if (o.convolutions) find_convolutions(in);
    }

    nir_network run() {
        for (const auto& [name, mode] : o_.node_reset) {
            const nir_node* n = g_.find(name);
            if (n == nullptr || !spikes(n->type) || n->type == "Threshold")
                throw invalid_parameter("NIR import", "reset of node '" + name + "'", nir_reset_name(mode),
                                        n ? "node '" + name + "' is a " + n->type + ", which does not reset"
                                          : "the graph has no node '" + name + "'");
        }
        nir_network m;
        m.options = o_;
        make_populations(m);
        connect(m);
        return m;
    }

private:
    std::size_t index_of(const std::string& endpoint) const {
        const auto chain = resolve_nir_endpoint(g_, endpoint);
        for (std::size_t i = 0; i < g_.nodes.size(); ++i)
            if (g_.nodes[i].name == chain.front()) return i;
        throw internal_error("unresolved NIR endpoint " + endpoint);
    }

    bool is_population(std::size_t i) const {
        const auto& t = g_.nodes[i].type;
        return t == "Input" || t == "Threshold" || is_neuron(t) || readouts_.count(i) > 0;
    }

    /// The Conv2d nodes that alone join two population nodes (one forward edge in from a
    /// population, one forward edge out to a population) and fit the convolution connector.
    void find_convolutions(const std::vector<std::vector<edge_to>>& in) {
        for (std::size_t c = 0; c < g_.nodes.size(); ++c) {
            if (g_.nodes[c].type != "Conv2d" || in[c].size() != 1 || out_[c].size() != 1) continue;
            const auto from = in[c][0], to = out_[c][0];
            if (from.recurrent || to.recurrent || !is_population(from.node) || !is_population(to.node) ||
                g_.nodes[to.node].type == "Output")
                continue;
            if (auto cv = as_convolution(g_.nodes[c])) convs_.emplace(c, conv_link{from.node, to.node, std::move(*cv)});
        }
    }

    void make_populations(nir_network& m) {
        for (std::size_t i : g_.order) {
            const auto& node = g_.nodes[i];
            if (!is_population(i)) {
                if (node.type != "Output" && !detail::is_nir_linear(node.type))
                    unsupported(node, "this primitive does not map onto the engine");
                continue;
            }
            const std::size_t n = nir_element_count(node.output_shape);
            if (node.output_shape.empty() || n == 0 || n > UINT32_MAX)
                unsupported(node, "its shape is unknown (no path from an Input gives it)");
            const auto size = static_cast<std::uint32_t>(n);
            nir_population p{node.name, node.type, {}, node.output_shape, 0, {}, spikes(node.type)};
            if (node.type == "Input") {
                p.pop = m.net.add_population(node.name, size, analog_source{});
                m.inputs.push_back(node.name);
            } else {
                p.pop = add_neuron(m, node, size);
            }
            pop_of_[i] = m.populations.size();
            m.populations.push_back(std::move(p));
        }
    }

    population_index add_neuron(nir_network& m, const nir_node& node, std::uint32_t n) {
        const auto& t = node.type;
        discrete_neuron model;
        const auto own = o_.node_reset.find(node.name);
        model.reset = own != o_.node_reset.end() ? own->second : o_.reset;
        model.method = o_.discretisation;
        std::vector<std::pair<std::string, per_neuron>> ps;
        const double inf = std::numeric_limits<double>::infinity();
        if (t == "Output") {
            // A readout of a linear node: v = the weighted input of this step, without memory
            // (Euler with tau = dt forgets v every step, whatever the discretisation asked).
            model.method = discrete_neuron::integration::euler;
            ps = {{"tau_mem_ms", {dt_ms_, {}}}, {"v_threshold", {inf, {}}}};
            notes_.push_back("Output node '" + node.name +
                             "' reads a linear node: it runs as a memoryless readout population whose v is the value");
        } else if (t == "Threshold") {
            // y = 1 if x > threshold, without memory: Euler with tau = dt forgets v every step.
            model.method = discrete_neuron::integration::euler;
            ps = {{"tau_mem_ms", {dt_ms_, {}}}, {"v_threshold", read_param(node, "threshold", n, 1, 0)}};
            model.p.v_reset = -inf;
            notes_.push_back("Threshold node '" + node.name + "' runs as a memoryless neuron (Euler, tau = dt)");
        } else {
            const bool cuba = t == "CubaLIF" || t == "CubaLI", leaky = t != "IF" && t != "I";
            const bool euler = model.method == discrete_neuron::integration::euler;
            const auto tau = [&](const std::string& key, double fallback) {
                return euler ? read_euler_tau(node, key, n, o_.dt_s, fallback) : read_param(node, key, n, 1000, fallback);
            };
            if (cuba) {
                ps.emplace_back("tau_mem_ms", tau("tau_mem", inf));
                ps.emplace_back("tau_syn_ms", tau("tau_syn", 0));
                ps.emplace_back("w_in", read_param(node, "w_in", n, 1, 1));
            } else if (leaky) {
                ps.emplace_back("tau_mem_ms", tau("tau", inf));
            }
            ps.emplace_back("r", read_param(node, "r", n, 1, 1));
            if (leaky) ps.emplace_back("v_leak", read_param(node, "v_leak", n, 1, 0));
            if (spikes(t)) {
                ps.emplace_back("v_threshold", read_param(node, "v_threshold", n, 1, 1));
                ps.emplace_back("v_reset", read_param(node, "v_reset", n, 1, 0));
            } else {
                ps.emplace_back("v_threshold", per_neuron{inf, {}});
            }
        }
        neuron_model as_variant = model;
        for (const auto& [name, v] : ps) set_parameter(as_variant, name, v.first);
        model = std::get<discrete_neuron>(as_variant);
        if (model.p.v_reset == -inf) model.p.v_reset = std::min(0.0, model.p.v_threshold - 1);
        // The population has the node's name, so a bad value's error names the node.
        const auto pop = m.net.add_population(node.name, n, model);
        for (const auto& [name, v] : ps)
            if (!v.values.empty()) m.net.set_parameter(pop, name, v.values);
        return pop;
    }

    /// Pushes `x`, the output of node `at`, along its out-edges; arrivals at population nodes
    /// are added into `arrive`. `stack` guards against loops made only of linear nodes.
    void push(std::size_t at, const std::vector<double>& x, std::int64_t delay, int rec,
              std::map<arrival_key, std::vector<double>>& arrive, std::vector<std::size_t>& stack,
              std::size_t origin) {
        for (const auto& e : out_[at]) {
            const auto& t = g_.nodes[e.node];
            const int r = rec + (e.recurrent ? 1 : 0);
            if (origin != SIZE_MAX && convs_.count(e.node)) continue;  // a convolution projection
            if (is_population(e.node)) {
                auto& acc = arrive[{e.node, delay, r}];
                if (acc.empty()) acc.assign(x.size(), 0.0);
                if (acc.size() != x.size())
                    unsupported(t, "receives " + std::to_string(x.size()) + " values where it has " +
                                       std::to_string(acc.size()));
                for (std::size_t k = 0; k < x.size(); ++k) acc[k] += x[k];
            } else if (t.type == "Output") {
                // Fed by a population node (an Output fed by a linear node is a readout population).
                if (origin != SIZE_MAX) outputs_.insert({e.node, at});
            } else {
                if (std::find(stack.begin(), stack.end(), e.node) != stack.end())
                    unsupported(t, "lies on a loop made only of linear nodes");
                std::vector<double> y(nir_element_count(t.output_shape), 0.0);
                detail::apply_nir_linear(t, x, y);
                std::int64_t d = delay;
                if (t.type == "Delay") d += delay_steps(t);
                stack.push_back(e.node);
                push(e.node, y, d, r, arrive, stack, origin);
                stack.pop_back();
            }
        }
    }

    std::int64_t delay_steps(const nir_node& node) const {
        const auto& v = node.params.at("delay").values;
        for (double x : v)
            if (x != v[0]) unsupported(node, "per-element delays differ; only one delay per Delay node maps");
        return std::llround(v[0] / o_.dt_s);
    }

    struct pending {
        std::size_t source, target;
        std::int64_t delay;
        int rec;
        from_list list;
        std::vector<double> weights;
        std::optional<convolution> conv;  ///< instead of list and weights

        bool empty() const { return list.sources.empty() && !conv; }
    };

    void connect(nir_network& m) {
        std::vector<pending> projs;
        std::map<std::tuple<std::size_t, std::size_t, std::int64_t, int>, std::size_t> index;
        for (std::size_t i : g_.order) {
            if (!is_population(i)) continue;
            const auto& node = g_.nodes[i];
            const std::size_t n = nir_element_count(node.output_shape);
            std::vector<double> basis(n, 0.0);
            std::vector<std::size_t> stack;
            for (std::size_t j = 0; j < n; ++j) {
                basis[j] = 1;
                std::map<arrival_key, std::vector<double>> arrive;
                push(i, basis, 0, 0, arrive, stack, i);
                basis[j] = 0;
                for (const auto& [key, w] : arrive) {
                    const auto [t, d, r] = key;
                    if (node.type != "Input" && node.type != "Threshold" && !spikes(node.type))
                        unsupported(node, "does not spike (it has no threshold), so it cannot feed node '" +
                                              g_.nodes[t].name + "'; read it at an Output instead");
                    auto [it, fresh] = index.try_emplace({i, t, d, r}, projs.size());
                    if (fresh) projs.push_back({i, t, d, r, {}, {}, {}});
                    auto& p = projs[it->second];
                    for (std::size_t k = 0; k < w.size(); ++k)
                        if (w[k] != 0) {
                            p.list.sources.push_back(static_cast<std::uint32_t>(j));
                            p.list.targets.push_back(static_cast<std::uint32_t>(k));
                            p.weights.push_back(w[k]);
                        }
                }
            }
        }
        // The convolutions after the matrices, in topological order of (source, target), so
        // that the projection order does not depend on node names.
        std::vector<std::size_t> rank(g_.nodes.size());
        for (std::size_t k = 0; k < g_.order.size(); ++k) rank[g_.order[k]] = k;
        std::vector<const conv_link*> links;
        for (const auto& [c, link] : convs_) links.push_back(&link);
        std::sort(links.begin(), links.end(), [&](const conv_link* a, const conv_link* b) {
            return std::pair(rank[a->source], rank[a->target]) < std::pair(rank[b->source], rank[b->target]);
        });
        for (const conv_link* l : links) {
            const auto& link = *l;
            const auto& node = g_.nodes[link.source];
            if (node.type != "Input" && node.type != "Threshold" && !spikes(node.type))
                unsupported(node, "does not spike (it has no threshold), so it cannot feed node '" +
                                      g_.nodes[link.target].name + "'; read it at an Output instead");
            projs.push_back({link.source, link.target, 0, 0, {}, {}, link.conv});
        }
        // Biases, pushed from the node that adds them.
        for (std::size_t i : g_.order) {
            const auto b = detail::nir_linear_bias(g_.nodes[i]);
            if (b.empty()) continue;
            std::map<arrival_key, std::vector<double>> arrive;
            std::vector<std::size_t> stack{i};
            push(i, b, 0, 0, arrive, stack, SIZE_MAX);
            for (const auto& [key, w] : arrive) {
                auto& p = m.populations[pop_of_.at(std::get<0>(key))];
                if (p.bias.empty()) p.bias.assign(w.size(), 0.0);
                for (std::size_t k = 0; k < w.size(); ++k) p.bias[k] += w[k];
            }
        }
        set_depths(m, projs);
        for (auto& p : projs) {
            if (p.empty()) continue;
            const auto& s = m.populations[pop_of_.at(p.source)];
            const auto& t = m.populations[pop_of_.at(p.target)];
            const std::int64_t steps = t.depth - s.depth + p.rec + p.delay;
            if (steps < 1)
                unsupported(g_.nodes[p.target], "its recurrent input from '" + s.node + "' skips back over " +
                                                    std::to_string(s.depth - t.depth) +
                                                    " layers, which the engine's one-step-per-layer alignment cannot express");
            const double delay_ms = static_cast<double>(steps) * dt_ms_;
            if (p.conv)
                m.net.connect(s.pop, t.pop, std::move(*p.conv), {.weight = 1.0, .delay_ms = delay_ms});
            else
                m.net.connect(s.pop, t.pop, std::move(p.list), {.weight = std::move(p.weights), .delay_ms = delay_ms});
        }
        for (auto& p : m.populations)
            if (!p.bias.empty()) m.net.set_parameter(p.pop, "i_bias", p.bias);
        for (const auto& [out, src] : outputs_)
            m.outputs.push_back({g_.nodes[out].name, g_.nodes[src].name, m.populations[pop_of_.at(src)].pop});
        for (const std::size_t out : readouts_) {
            std::string feeder;
            for (const auto& [a, b] : g_.edges)
                if (index_of(b) == out && feeder.empty()) feeder = resolve_nir_endpoint(g_, a).front();
            m.outputs.push_back({g_.nodes[out].name, feeder, m.populations[pop_of_.at(out)].pop});
        }
        m.notes = g_.notes;
        m.notes.insert(m.notes.end(), notes_.begin(), notes_.end());
    }

    /// Longest chain of neuron layers from an Input over forward paths (Input 0, neurons >= 1).
    void set_depths(nir_network& m, const std::vector<pending>& projs) {
        for (auto& p : m.populations) p.depth = p.type == "Input" ? 0 : 1;
        for (std::size_t pass = 0; pass <= m.populations.size(); ++pass) {
            bool changed = false;
            for (const auto& q : projs) {
                if (q.rec > 0 || q.empty()) continue;
                auto& t = m.populations[pop_of_.at(q.target)];
                const auto d = m.populations[pop_of_.at(q.source)].depth + 1;
                if (d > t.depth) {
                    t.depth = d;
                    changed = true;
                }
            }
            if (!changed) return;
        }
        throw internal_error("NIR layer depths do not settle (a forward cycle)");
    }

    const nir_graph& g_;
    nir_import_options o_;
    double dt_ms_ = 0;
    std::vector<std::vector<edge_to>> out_;
    std::map<std::size_t, std::size_t> pop_of_;  ///< node index -> index into populations
    std::set<std::pair<std::size_t, std::size_t>> outputs_;  ///< (Output node, source node)
    std::set<std::size_t> readouts_;  ///< Output nodes fed by a linear node: readout populations
    struct conv_link {
        std::size_t source, target;
        convolution conv;
    };
    std::map<std::size_t, conv_link> convs_;  ///< Conv2d node -> the convolution projection it becomes
    std::vector<std::string> notes_;
};

/// Copies `g` into `out` with every nested graph's nodes lifted to the top as "graph.node". A
/// nested graph's Input and Output ports become identity nodes (Scale 1) that the outer edges
/// into and out of the graph attach to.
void lift_nested(const nir_graph& g, const std::string& prefix, nir_graph& out) {
    auto flat = [&](const std::string& endpoint, bool as_target) {
        const auto chain = resolve_nir_endpoint(g, endpoint);
        std::string name = prefix;
        const nir_graph* at = &g;
        for (std::size_t k = 0; k < chain.size(); ++k) {
            name += (k ? "." : "") + chain[k];
            const nir_node* n = at->find(chain[k]);
            if (n && n->subgraph && k + 1 == chain.size()) {
                // The graph itself: its Input port as a target, its Output port as a source.
                const char* port = as_target ? "Input" : "Output";
                std::string found;
                for (const auto& inner : n->subgraph->nodes)
                    if (inner.type == port) {
                        if (!found.empty())
                            unsupported(*n, std::string("has more than one ") + port + " port; name the port in the edge");
                        found = inner.name;
                    }
                if (found.empty()) unsupported(*n, std::string("has no ") + port + " port");
                name += "." + found;
            }
            if (n && n->subgraph) at = n->subgraph.get();
        }
        return name;
    };
    for (const auto& n : g.nodes) {
        if (n.subgraph) {
            lift_nested(*n.subgraph, prefix + n.name + ".", out);
            continue;
        }
        nir_node copy = n;
        copy.name = prefix + n.name;
        if (!prefix.empty() && (n.type == "Input" || n.type == "Output")) {
            copy.type = "Scale";
            copy.params = {{"scale", nir_array::vector({1.0})}};
        }
        if (out.find(copy.name)) unsupported(n, "its lifted name '" + copy.name + "' is taken by another node");
        out.nodes.push_back(std::move(copy));
    }
    for (const auto& [a, b] : g.edges) out.edges.emplace_back(flat(a, false), flat(b, true));
}

}  // namespace

nir_graph flatten_nir_graph(const nir_graph& graph) {
    nir_graph out;
    out.version = graph.version;
    out.metadata = graph.metadata;
    lift_nested(graph, "", out);
    analyse_nir_graph(out, "<flattened graph>");
    out.notes.insert(out.notes.begin(), graph.notes.begin(), graph.notes.end());
    return out;
}

std::string describe(const nir_import_options& o) {
    std::string out = "dt = " + fmt(o.dt_s) + " s, discretisation " + integration_name(o.discretisation) + ", reset " +
                      nir_reset_name(o.reset);
    for (const auto& [node, mode] : o.node_reset) out += " (" + node + ": " + nir_reset_name(mode) + ")";
    return out;
}

const nir_population& nir_network::population(const std::string& name) const {
    for (const auto& p : populations)
        if (p.node == name) return p;
    throw unknown_name("NIR node", name, "the mapped network");
}

std::int64_t nir_network::max_depth() const {
    std::int64_t d = 0;
    for (const auto& p : populations) d = std::max(d, p.depth);
    return d;
}

nir_network nir_to_network(const nir_graph& graph, const nir_import_options& options) {
    if (!(options.dt_s > 0) || !std::isfinite(options.dt_s))
        throw invalid_parameter("NIR import", "dt_s", fmt(options.dt_s), "must be finite and > 0");
    auto m = [&] {
        for (const auto& n : graph.nodes)
            if (n.subgraph) {
                auto flat = mapper(flatten_nir_graph(graph), options).run();
                flat.notes.push_back("nested graphs were flattened: their nodes are named \"graph.node\"");
                return flat;
            }
        return mapper(graph, options).run();
    }();
    m.warnings = check_nir_step(graph, options);
    return m;
}

}  // namespace volley::snn
