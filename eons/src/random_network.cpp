// Random values and random networks (docs/eons.md, "Random networks").

#include <volley/eons/operators.hpp>

#include "network_edit.hpp"

#include <algorithm>
#include <cmath>

namespace volley::eons {

double random_value(const hw::property& p, random_stream& rng) {
    if (p.type == hw::property_type::real) return rng.uniform(p.min_value, p.max_value);
    double lo = std::ceil(p.min_value), hi = std::floor(p.max_value);
    if (p.type == hw::property_type::boolean) lo = std::max(lo, 0.0), hi = std::min(hi, 1.0);
    // check_template guarantees lo <= hi, both within 2^53.
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<double>(rng.below(span));
}

std::vector<double> random_values(const std::vector<hw::property>& list, random_stream& rng) {
    int slots = 0;
    for (const auto& p : list) slots = std::max(slots, p.index + p.size);
    std::vector<double> values(static_cast<std::size_t>(slots), 0.0);
    for (const auto& p : list)
        for (int s = 0; s < p.size; ++s)
            values[static_cast<std::size_t>(p.index + s)] = random_value(p, rng);
    return values;
}

hw::tennlab_network random_network(const eons_config& config, const network_template& shape,
                                   random_stream& rng) {
    hw::tennlab_network net = detail::empty_network(shape);
    const hw::node_id io = detail::io_count(shape);
    const hw::node_id count = io + static_cast<hw::node_id>(config.starting_nodes);
    for (hw::node_id id = 0; id < count; ++id) {
        hw::tennlab_node n;
        n.id = id;
        n.values = random_values(shape.properties.node, rng);
        net.nodes.push_back(std::move(n));
    }
    const int edges = config.starting_edges > 0 ? config.starting_edges : static_cast<int>(io);
    for (int k = 0; k < edges; ++k)
        if (!detail::add_random_edge(net, shape, config, rng)) break;
    return net;
}

}  // namespace volley::eons
