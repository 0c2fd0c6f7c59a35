// The six EONS mutation operators (docs/eons.md, "Mutations").

#include <volley/eons/operators.hpp>

#include "network_edit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace volley::eons {

namespace {

constexpr mutation_kind all_kinds[] = {mutation_kind::add_node,   mutation_kind::delete_node,
                                       mutation_kind::add_edge,   mutation_kind::delete_edge,
                                       mutation_kind::node_param, mutation_kind::edge_param};

double rate_of(mutation_kind kind, const eons_config& c) {
    switch (kind) {
        case mutation_kind::add_node:
            return c.add_node_rate;
        case mutation_kind::delete_node:
            return c.delete_node_rate;
        case mutation_kind::add_edge:
            return c.add_edge_rate;
        case mutation_kind::delete_edge:
            return c.delete_edge_rate;
        case mutation_kind::node_param:
            return c.node_param_rate;
        case mutation_kind::edge_param:
            return c.edge_param_rate;
    }
    return 0;
}

std::vector<hw::node_id> hidden_ids(const hw::tennlab_network& net, const network_template& shape) {
    std::vector<hw::node_id> ids;
    for (const auto& n : net.nodes)
        if (n.id >= detail::io_count(shape)) ids.push_back(n.id);
    return ids;
}

/// The bounds a slot of `p` can take: [ceil(min), floor(max)] for integers, within {0, 1}
/// for booleans, [min, max] for reals.
std::pair<double, double> value_bounds(const hw::property& p) {
    if (p.type == hw::property_type::real) return {p.min_value, p.max_value};
    double lo = std::ceil(p.min_value), hi = std::floor(p.max_value);
    if (p.type == hw::property_type::boolean) lo = std::max(lo, 0.0), hi = std::min(hi, 1.0);
    return {lo, hi};
}

/// The slots of `list` whose property allows more than one value, with their property: a
/// parameter mutation of a fixed slot (RISP-1+'s weights and thresholds, say) changes nothing.
std::vector<std::pair<int, const hw::property*>> variable_slots(const std::vector<hw::property>& list) {
    std::vector<std::pair<int, const hw::property*>> slots;
    for (const auto& p : list) {
        const auto [lo, hi] = value_bounds(p);
        if (hi > lo)
            for (int s = 0; s < p.size; ++s) slots.emplace_back(p.index + s, &p);
    }
    return slots;
}

/// A value of `p` other than `v`: with probability config.perturb_rate a step from v of at most
/// perturb_span of the property's span (at least one integer), else a fresh draw.
double new_value(const hw::property& p, double v, const eons_config& c, random_stream& rng) {
    const auto [lo, hi] = value_bounds(p);
    const bool perturb = c.perturb_rate > 0 && rng.chance(c.perturb_rate);
    if (p.type == hw::property_type::real) {
        if (!perturb) return random_value(p, rng);
        const double span = c.perturb_span * (hi - lo);
        return std::clamp(v + rng.uniform(-span, span), lo, hi);
    }
    // Integers and booleans: uniform among the other values in [a, b] (v itself skipped).
    double a = lo, b = hi;
    if (perturb) {
        const double k = std::max(1.0, std::round(c.perturb_span * (hi - lo)));
        a = std::max(lo, v - k), b = std::min(hi, v + k);
    }
    const bool inside = v >= a && v <= b && std::trunc(v) == v;
    const auto count = static_cast<std::uint64_t>(b - a) + 1 - (inside ? 1 : 0);
    double x = a + static_cast<double>(rng.below(count));
    if (inside && x >= v) x += 1;
    return x;
}

/// Changes one random variable slot of `values` (the list must have one).
void change_slot(std::vector<double>& values, const std::vector<hw::property>& list, const eons_config& c,
                 random_stream& rng) {
    const auto slots = variable_slots(list);
    const auto& [slot, p] = slots[rng.below(slots.size())];
    auto& v = values[static_cast<std::size_t>(slot)];
    v = new_value(*p, v, c, rng);
}

void add_node(hw::tennlab_network& net, const network_template& shape, random_stream& rng) {
    const std::uint64_t old = net.nodes.size();
    hw::tennlab_node n;
    n.id = detail::fresh_id(net);
    n.values = random_values(shape.properties.node, rng);
    const hw::node_id source = net.nodes[rng.below(old)].id;
    const hw::node_id target = net.nodes[rng.below(old)].id;
    net.nodes.push_back(n);
    hw::tennlab_edge in, out;
    in.from = source;
    in.to = n.id;
    in.values = random_values(shape.properties.edge, rng);
    out.from = n.id;
    out.to = target;
    out.values = random_values(shape.properties.edge, rng);
    net.edges.push_back(std::move(in));
    net.edges.push_back(std::move(out));
}

}  // namespace

std::string to_string(mutation_kind kind) {
    switch (kind) {
        case mutation_kind::add_node:
            return "add_node";
        case mutation_kind::delete_node:
            return "delete_node";
        case mutation_kind::add_edge:
            return "add_edge";
        case mutation_kind::delete_edge:
            return "delete_edge";
        case mutation_kind::node_param:
            return "node_param";
        case mutation_kind::edge_param:
            return "edge_param";
    }
    return "?";
}

bool applicable(mutation_kind kind, const hw::tennlab_network& net, const network_template& shape,
                const eons_config& config) {
    switch (kind) {
        case mutation_kind::add_node:
            return !net.nodes.empty() &&
                   net.nodes.size() < static_cast<std::size_t>(config.max_nodes);
        case mutation_kind::delete_node:
            return !hidden_ids(net, shape).empty();
        case mutation_kind::add_edge:
            return detail::free_pair_count(net, config) > 0;
        case mutation_kind::delete_edge:
            return !net.edges.empty();
        case mutation_kind::node_param:
            return !net.nodes.empty() && !variable_slots(shape.properties.node).empty();
        case mutation_kind::edge_param:
            return !net.edges.empty() && !variable_slots(shape.properties.edge).empty();
    }
    return false;
}

bool mutate(hw::tennlab_network& net, mutation_kind kind, const network_template& shape,
            const eons_config& config, random_stream& rng) {
    if (!applicable(kind, net, shape, config)) return false;
    switch (kind) {
        case mutation_kind::add_node:
            add_node(net, shape, rng);
            break;
        case mutation_kind::delete_node: {
            const std::vector<hw::node_id> ids = hidden_ids(net, shape);
            detail::remove_node(net, ids[rng.below(ids.size())]);
            break;
        }
        case mutation_kind::add_edge:
            detail::add_random_edge(net, shape, config, rng);
            break;
        case mutation_kind::delete_edge:
            net.edges.erase(net.edges.begin() +
                            static_cast<std::ptrdiff_t>(rng.below(net.edges.size())));
            break;
        case mutation_kind::node_param:
            change_slot(net.nodes[rng.below(net.nodes.size())].values, shape.properties.node, config, rng);
            break;
        case mutation_kind::edge_param:
            change_slot(net.edges[rng.below(net.edges.size())].values, shape.properties.edge, config, rng);
            break;
    }
    return true;
}

bool mutate_random(hw::tennlab_network& net, const network_template& shape,
                   const eons_config& config, random_stream& rng) {
    double weights[std::size(all_kinds)];
    double total = 0;
    for (std::size_t k = 0; k < std::size(all_kinds); ++k) {
        weights[k] =
            applicable(all_kinds[k], net, shape, config) ? rate_of(all_kinds[k], config) : 0;
        total += weights[k];
    }
    if (total <= 0) return false;
    double r = rng.unit() * total;
    std::size_t pick = 0;
    while (pick + 1 < std::size(all_kinds) && (weights[pick] == 0 || r >= weights[pick]))
        r -= weights[pick++];
    // Rounding can leave r past the last positive weight: fall back to it.
    while (weights[pick] == 0) --pick;
    return mutate(net, all_kinds[pick], shape, config, rng);
}

}  // namespace volley::eons
