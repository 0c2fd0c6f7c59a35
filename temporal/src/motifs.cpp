// Temporal motifs (see motifs.hpp).

#include <volley/temporal/motifs.hpp>

#include <volley/error.hpp>

#include <cmath>

namespace volley::temporal {

namespace {

const hw::property& need(const hw::property* p, const char* category, const char* name) {
    if (p == nullptr)
        throw invalid_parameter("network builder", std::string(category) + " property", name, "missing from the pack");
    return *p;
}

void in_range(const std::string& object, const char* what, int v, int lo, int hi) {
    if (v < lo || v > hi)
        throw invalid_parameter(object, what, std::to_string(v),
                                "outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

}  // namespace

network_builder::network_builder(hw::property_pack pack, nlohmann::json proc_params, int inputs, int outputs,
                                 int time_unit)
    : inputs_(inputs), outputs_(outputs), unit_(time_unit) {
    const auto& t = need(pack.find_node("Threshold"), "node", "Threshold");
    const auto& w = need(pack.find_edge("Weight"), "edge", "Weight");
    const auto& d = need(pack.find_edge("Delay"), "edge", "Delay");
    threshold_slot_ = t.index;
    weight_slot_ = w.index;
    delay_slot_ = d.index;
    min_threshold_ = static_cast<int>(std::ceil(t.min_value));
    max_threshold_ = static_cast<int>(std::floor(t.max_value));
    min_weight_ = static_cast<int>(std::ceil(w.min_value));
    w_ = static_cast<int>(std::floor(w.max_value));
    max_delay_ = static_cast<int>(std::floor(d.max_value));
    if (inputs < 1) throw invalid_parameter("network builder", "inputs", std::to_string(inputs), "must be >= 1");
    if (outputs < 1) throw invalid_parameter("network builder", "outputs", std::to_string(outputs), "must be >= 1");
    in_range("network builder", "time_unit", time_unit, 1, max_delay_);
    net_.properties = std::move(pack);
    net_.network_values.assign(static_cast<std::size_t>(net_.properties.network_slots()), 0.0);
    net_.associated_data = {{"proc_params", std::move(proc_params)}, {"other", {{"proc_name", "risp"}}}};
    for (int i = 0; i < inputs + outputs; ++i) {
        const auto id = add_neuron(1, i < inputs ? "in" + std::to_string(i) : "out" + std::to_string(i - inputs));
        (i < inputs ? net_.inputs : net_.outputs).push_back(id);
    }
}

hw::node_id network_builder::input(int i) const {
    in_range("network builder", "input", i, 0, inputs_ - 1);
    return net_.inputs[static_cast<std::size_t>(i)];
}

hw::node_id network_builder::output(int o) const {
    in_range("network builder", "output", o, 0, outputs_ - 1);
    return net_.outputs[static_cast<std::size_t>(o)];
}

hw::tennlab_node& network_builder::node(hw::node_id id) {
    const auto i = net_.find_node(id);
    if (!i) throw invalid_parameter("network builder", "node", std::to_string(id), "no such node");
    return net_.nodes[*i];
}

hw::node_id network_builder::add_neuron(int threshold, const std::string& name) {
    const auto id = static_cast<hw::node_id>(net_.nodes.size());
    hw::tennlab_node n;
    n.id = id;
    n.name = name;
    n.values.assign(static_cast<std::size_t>(net_.properties.node_slots()), 0.0);
    for (const auto& p : net_.properties.node) n.values[static_cast<std::size_t>(p.index)] = p.min_value;
    net_.nodes.push_back(std::move(n));
    set_threshold(id, threshold);
    return id;
}

void network_builder::set_threshold(hw::node_id id, int threshold) {
    in_range("network builder: node " + std::to_string(id), "Threshold", threshold, min_threshold_, max_threshold_);
    node(id).values[static_cast<std::size_t>(threshold_slot_)] = threshold;
}

void network_builder::add_edge(hw::node_id from, hw::node_id to, int weight, int delay) {
    const std::string object = "network builder: edge " + std::to_string(from) + " -> " + std::to_string(to);
    node(from);
    node(to);
    in_range(object, "Weight", weight, min_weight_, w_);
    in_range(object, "Delay", delay, 1, max_delay_);
    for (const auto& e : net_.edges)
        if (e.from == from && e.to == to)
            throw invalid_parameter(object, "edge", "duplicate", "one synapse per pair of nodes");
    hw::tennlab_edge e;
    e.from = from;
    e.to = to;
    e.values.assign(static_cast<std::size_t>(net_.properties.edge_slots()), 0.0);
    for (const auto& p : net_.properties.edge) e.values[static_cast<std::size_t>(p.index)] = p.min_value;
    e.values[static_cast<std::size_t>(weight_slot_)] = weight;
    e.values[static_cast<std::size_t>(delay_slot_)] = delay;
    net_.edges.push_back(std::move(e));
}

hw::node_id add_relay(network_builder& b, hw::node_id from, int delay, const std::string& name) {
    const auto r = b.add_neuron(b.max_weight(), name);
    b.add_edge(from, r, b.max_weight(), delay);
    return r;
}

hw::node_id add_delay_line(network_builder& b, hw::node_id from, int delay, const std::string& name) {
    if (delay < 1) throw invalid_parameter("delay line", "delay", std::to_string(delay), "must be >= 1");
    hw::node_id at = from;
    for (int left = delay; left > 0;) {
        const int step = left > b.max_delay() ? b.max_delay() : left;
        left -= step;
        at = add_relay(b, at, step, left == 0 ? name : name + ".hop");
    }
    return at;
}

hw::node_id add_latch(network_builder& b, hw::node_id trigger, const std::string& name) {
    // Trigger +W at t + u fires L; L -> L (+W, u) refires it every u cycles. A later trigger
    // adds W to the self-synapse's W: 2W also fires, and the fire resets the charge to 0.
    const int u = b.time_unit();
    const auto l = add_relay(b, trigger, u, name);
    b.add_edge(l, l, b.max_weight(), u);
    return l;
}

void add_level(network_builder& b, hw::node_id latch, hw::node_id target, int level, int delay) {
    // Latch fires at s = t, t + u, ...: target gets +level at s + delay; the relay fires at
    // s + u and delivers -level at s + u + delay. From t + delay + u on, the two cancel, so
    // target holds exactly +level from cycle t + delay (until it fires).
    const auto h = add_relay(b, latch, b.time_unit());
    b.add_edge(latch, target, level, delay);
    b.add_edge(h, target, -level, delay);
}

void add_pulse(network_builder& b, hw::node_id source, hw::node_id target, int weight) {
    const int u = b.time_unit();
    const auto p = add_relay(b, source, u);
    b.add_edge(source, target, weight, u);
    b.add_edge(p, target, -weight, u);
}

hw::node_id add_coincidence(network_builder& b, hw::node_id latch, hw::node_id pulse_source, hw::node_id target,
                            int level_delay) {
    // Threshold W + 1: the pulse (W) alone or the level (1) alone stay below it.
    b.set_threshold(target, b.max_weight() + 1);
    add_level(b, latch, target, 1, level_delay);
    add_pulse(b, pulse_source, target, b.max_weight());
    return target;
}

hw::node_id add_counter(network_builder& b, hw::node_id source, hw::node_id target, int frame_cycles) {
    // First fire at t: latch from t + u, level on target from t + u + frame_cycles; a fire at
    // s >= t + frame_cycles pulses target at s + u >= the level's start: W + 1 fires it.
    const auto l = add_latch(b, source, "count.latch");
    return add_coincidence(b, l, source, target, frame_cycles);
}

hw::node_id add_change_detector(network_builder& b, hw::node_id input, int frame_cycles, const std::string& name) {
    // Input fires at t (frame k) and maybe at t - C (frame k - 1). On D (threshold W):
    //   t + u:  +W (now)  - W (previous, through R with delay C)
    //   t + 2u: -W (now, through S) + W (previous, through Q with delay C) + W (D's own fire at t + u)
    // now & not before: fires at t + u, then -W + W = 0;  now & before: 0, then -W + W = 0;
    // before only: -W, then +W = 0. D's charge is 0 after every frame (2u <= C).
    const int w = b.max_weight(), u = b.time_unit();
    if (2 * u > frame_cycles)
        throw invalid_parameter("change detector " + name, "time_unit", std::to_string(u),
                                "must be <= cycles_per_frame / 2 (" + std::to_string(frame_cycles / 2) + ")");
    const auto d = b.add_neuron(w, name);
    const auto r = add_relay(b, input, u, name + ".prev");
    const auto q = add_relay(b, r, u, name + ".prev_comp");
    const auto s = add_relay(b, input, u, name + ".now_comp");
    b.add_edge(input, d, w, u);
    b.add_edge(r, d, -w, frame_cycles);
    b.add_edge(q, d, w, frame_cycles);
    b.add_edge(s, d, -w, u);
    b.add_edge(d, d, w, u);
    return d;
}

}  // namespace volley::temporal
