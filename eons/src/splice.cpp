#include "splice.hpp"

#include "network_edit.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace volley::eons::detail {

std::vector<const hw::tennlab_node*> hidden_nodes(const hw::tennlab_network& net,
                                                  const network_template& shape) {
    std::vector<const hw::tennlab_node*> out;
    for (const auto& n : net.nodes)
        if (n.id >= io_count(shape)) out.push_back(&n);
    return out;
}

hw::tennlab_network splice(const hw::tennlab_network& a, const hw::tennlab_network& b,
                           const splice_plan& plan, const network_template& shape,
                           const eons_config& config) {
    hw::tennlab_network child = empty_network(shape);
    const hw::node_id io = io_count(shape);
    for (hw::node_id id = 0; id < io; ++id) {
        const bool from_b = id < plan.io_from_b.size() && plan.io_from_b[id];
        const hw::tennlab_network& parent = from_b ? b : a;
        child.nodes.push_back(parent.nodes[*parent.find_node(id)]);
    }

    // Nodes taken from a keep their ids; those from b keep theirs unless taken.
    std::map<hw::node_id, hw::node_id> a_ids, b_ids;  // parent id -> child id
    std::set<hw::node_id> used;
    for (hw::node_id id = 0; id < io; ++id) a_ids[id] = b_ids[id] = id, used.insert(id);
    const auto ha = hidden_nodes(a, shape), hb = hidden_nodes(b, shape);
    for (std::size_t i = 0; i < std::min(plan.a_hidden, ha.size()); ++i) {
        child.nodes.push_back(*ha[i]);
        a_ids[ha[i]->id] = ha[i]->id;
        used.insert(ha[i]->id);
    }
    const std::size_t room = static_cast<std::size_t>(config.max_nodes) - child.nodes.size();
    const std::size_t b_end = std::min(hb.size(), plan.b_from + room);
    for (std::size_t i = plan.b_from; i < b_end; ++i) {
        hw::tennlab_node n = *hb[i];
        if (used.count(n.id) != 0) n.id = *used.rbegin() + 1;
        b_ids[hb[i]->id] = n.id;
        used.insert(n.id);
        child.nodes.push_back(std::move(n));
    }

    std::set<edge_pair> pairs;
    const auto take_edges = [&](const hw::tennlab_network& parent,
                                const std::map<hw::node_id, hw::node_id>& ids) {
        for (const auto& e : parent.edges) {
            const auto f = ids.find(e.from), t = ids.find(e.to);
            if (f == ids.end() || t == ids.end()) continue;
            if (!pairs.insert({f->second, t->second}).second) continue;
            hw::tennlab_edge copy = e;
            copy.from = f->second;
            copy.to = t->second;
            child.edges.push_back(std::move(copy));
        }
    };
    take_edges(a, a_ids);
    take_edges(b, b_ids);
    return child;
}

}  // namespace volley::eons::detail
