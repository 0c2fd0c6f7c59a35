#include <volley/danna/grid_programme.hpp>

#include <volley/error.hpp>

#include <set>

namespace volley::danna {

const char* kind_name(element_kind k) {
    switch (k) {
        case element_kind::empty:
            return "empty";
        case element_kind::neuron:
            return "neuron";
        case element_kind::synapse:
            return "synapse";
        case element_kind::fanout:
            return "fanout";
    }
    return "?";
}

grid_programme::grid_programme(grid_params p) : params(std::move(p)) {
    const auto n = static_cast<std::size_t>(params.cells());
    kind.assign(n, element_kind::empty);
    ports.assign(n, 0);
    threshold.assign(n, 0);
    refractory.assign(n, 0);
    weight.assign(n, 0);
    delay.assign(n, 1);
    learning.assign(n, 0);
}

int grid_programme::port_source(int c, int p) const {
    const cell at = position(c);
    const cell o = params.port_offsets[static_cast<std::size_t>(p)];
    const int x = at.x + o.x, y = at.y + o.y;
    if (x < 0 || y < 0 || x >= params.width || y >= params.height) return -1;
    return index(x, y);
}

int grid_programme::port_towards(int listener, int source) const {
    for (int p = 0; p < ports_per_element; ++p)
        if (port_source(listener, p) == source) return p;
    return -1;
}

namespace {

std::string where(const grid_programme& g, int c) {
    const cell at = g.position(c);
    return "danna programme: " + std::string(kind_name(g.kind[static_cast<std::size_t>(c)])) +
           " at (" + std::to_string(at.x) + ", " + std::to_string(at.y) + ")";
}

}  // namespace

void grid_programme::validate() const {
    params.validate();
    const int n = params.cells();
    std::vector<int> readers(static_cast<std::size_t>(n), 0);
    for (int c = 0; c < n; ++c) {
        const auto k = kind[static_cast<std::size_t>(c)];
        const auto mask = ports[static_cast<std::size_t>(c)];
        const auto fail = [&](const char* parameter, long long value, const std::string& why) {
            throw invalid_parameter(where(*this, c), parameter, std::to_string(value), why);
        };
        if (k == element_kind::empty) {
            if (mask != 0) fail("ports", mask, "an empty cell has no enabled ports");
            continue;
        }
        int enabled = 0;
        for (int p = 0; p < ports_per_element; ++p) {
            if ((mask >> p & 1) == 0) continue;
            ++enabled;
            const int s = port_source(c, p);
            if (s < 0) fail("port", p, "reads outside the grid");
            const auto sk = kind[static_cast<std::size_t>(s)];
            if (k == element_kind::neuron) {
                if (sk != element_kind::synapse) fail("port", p, "a neuron reads only synapses");
                ++readers[static_cast<std::size_t>(s)];
            } else if (sk != element_kind::neuron && sk != element_kind::fanout) {
                fail("port", p, "must read a neuron or a fan-out element");
            }
        }
        if (k == element_kind::neuron) {
            const auto t = threshold[static_cast<std::size_t>(c)];
            if (t < params.limits.min_threshold || t > params.limits.max_threshold)
                fail("threshold", t, "out of the grid's threshold range");
            const auto r = refractory[static_cast<std::size_t>(c)];
            if (r < 0 || r > params.limits.max_refractory) fail("refractory", r, "out of range");
        } else if (enabled != 1) {
            fail("enabled ports", enabled, "a synapse or fan-out reads exactly one port");
        }
        if (k == element_kind::synapse) {
            const auto w = weight[static_cast<std::size_t>(c)];
            if (w < params.limits.min_weight || w > params.limits.max_weight)
                fail("weight", w, "out of the grid's weight range");
            const auto d = delay[static_cast<std::size_t>(c)];
            if (d < 1 || d > params.limits.max_delay) fail("delay", d, "out of range");
        }
    }
    for (int c = 0; c < n; ++c)
        if (kind[static_cast<std::size_t>(c)] == element_kind::synapse &&
            readers[static_cast<std::size_t>(c)] != 1)
            throw invalid_parameter(where(*this, c), "target neurons",
                                    std::to_string(readers[static_cast<std::size_t>(c)]),
                                    "a synapse must be read by exactly one neuron");
    std::set<int> sites;
    for (const auto& s : nodes) {
        if (s.cell < 0 || s.cell >= n ||
            kind[static_cast<std::size_t>(s.cell)] != element_kind::neuron)
            throw invalid_parameter("danna programme: node " + std::to_string(s.id), "cell",
                                    std::to_string(s.cell), "is not a neuron element");
        if (!sites.insert(s.cell).second)
            throw invalid_parameter("danna programme: node " + std::to_string(s.id), "cell",
                                    std::to_string(s.cell), "is used by two nodes");
    }
    for (int c : synapse_cells)
        if (c < 0 || c >= n || kind[static_cast<std::size_t>(c)] != element_kind::synapse)
            throw invalid_parameter("danna programme", "synapse cell", std::to_string(c),
                                    "is not a synapse element");
}

hardware_network grid_programme::network() const {
    hardware_network net;
    std::vector<int> node_of(static_cast<std::size_t>(params.cells()), -1);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto c = static_cast<std::size_t>(nodes[i].cell);
        node_of[c] = static_cast<int>(i);
        net.neurons.push_back(
            {nodes[i].id, threshold[c], refractory[c], nodes[i].name, position(nodes[i].cell)});
    }
    // A synapse's source is found by following fan-outs back to a neuron.
    for (int sc : synapse_cells) {
        const auto s = static_cast<std::size_t>(sc);
        int src = sc, hops = -1;
        do {
            ++hops;
            int next = -1;
            for (int p = 0; p < ports_per_element; ++p)
                if (ports[static_cast<std::size_t>(src)] >> p & 1) next = port_source(src, p);
            src = next;
        } while (src >= 0 && kind[static_cast<std::size_t>(src)] == element_kind::fanout);
        int target = -1;
        for (int p = 0; p < ports_per_element && target < 0; ++p) {
            const int t = port_source(sc, p);
            if (t >= 0 && kind[static_cast<std::size_t>(t)] == element_kind::neuron &&
                port_towards(t, sc) >= 0 &&
                (ports[static_cast<std::size_t>(t)] >> port_towards(t, sc) & 1))
                target = t;
        }
        if (src < 0 || target < 0 || node_of[static_cast<std::size_t>(src)] < 0 ||
            node_of[static_cast<std::size_t>(target)] < 0)
            throw invalid_parameter("danna programme", "synapse cell", std::to_string(sc),
                                    "does not connect two network neurons");
        net.synapses.push_back(
            {nodes[static_cast<std::size_t>(node_of[static_cast<std::size_t>(src)])].id,
             nodes[static_cast<std::size_t>(node_of[static_cast<std::size_t>(target)])].id,
             weight[s], delay[s] + hops, learning[s] != 0});
    }
    net.inputs = inputs;
    net.outputs = outputs;
    return net;
}

}  // namespace volley::danna
