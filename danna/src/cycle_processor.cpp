#include <volley/danna/cycle_processor.hpp>

#include <volley/error.hpp>

#include <cmath>
#include <map>

namespace volley::danna {

struct cycle_processor::loaded {
    hardware_network net;
    std::unique_ptr<cycle_engine> engine;
    std::map<node_id, std::uint32_t> index;  // node id -> neuron index
    std::vector<std::uint32_t> by_id;        // neuron indices in ascending id order
    std::vector<int> output_of;              // neuron index -> output index or -1
    std::vector<char> is_input, tracked;
    std::vector<int> count;
    std::vector<double> last;
    std::vector<std::vector<double>> times;
    std::vector<fire_event> scratch;

    void clear_records() {
        count.assign(net.neurons.size(), 0);
        last.assign(net.neurons.size(), -1.0);
        times.assign(net.neurons.size(), {});
    }
};

cycle_processor::cycle_processor() = default;
cycle_processor::~cycle_processor() = default;

cycle_processor::loaded& cycle_processor::get(int network_id) {
    const auto it = networks_.find(network_id);
    if (it == networks_.end())
        throw invalid_parameter(name() + " processor", "network_id", std::to_string(network_id),
                                "no network loaded with this id");
    return *it->second;
}

const cycle_processor::loaded& cycle_processor::get(int network_id) const {
    return const_cast<cycle_processor*>(this)->get(network_id);
}

const cycle_engine& cycle_processor::engine(int network_id) const {
    return *get(network_id).engine;
}

void cycle_processor::load_network(const hw::tennlab_network& net, int network_id) {
    load_hardware_network(from_tennlab(net, default_refractory()), network_id);
}

void cycle_processor::load_hardware_network(const hardware_network& net, int network_id) {
    net.validate(limits(), name() + " network");
    auto l = std::make_unique<loaded>();
    l->net = net;
    const auto n = static_cast<std::uint32_t>(net.neurons.size());
    for (std::uint32_t i = 0; i < n; ++i) l->index[net.neurons[i].id] = i;
    for (const auto& [id, i] : l->index) l->by_id.push_back(i);
    l->output_of.assign(n, -1);
    l->is_input.assign(n, 0);
    l->tracked.assign(n, 0);
    for (std::size_t o = 0; o < net.outputs.size(); ++o) {
        const auto i = l->index.at(net.outputs[o]);
        l->output_of[i] = static_cast<int>(o);
        l->tracked[i] = 1;
    }
    for (node_id id : net.inputs) l->is_input[l->index.at(id)] = 1;
    l->clear_records();
    l->engine = make_engine(l->net, network_id);
    networks_[network_id] = std::move(l);
}

void cycle_processor::clear(int network_id) {
    networks_.erase(network_id);
    on_clear(network_id);
}

bool cycle_processor::has_network(int network_id) const {
    return networks_.count(network_id) != 0;
}

void cycle_processor::apply_spike(const hw::spike& s, bool normalized, int network_id) {
    auto& l = get(network_id);
    const auto it = l.index.find(s.id);
    if (it == l.index.end() || !l.is_input[it->second])
        throw invalid_parameter(name() + " processor", "input spike node", std::to_string(s.id),
                                "is not an input neuron");
    if (!(s.time >= 0) || !std::isfinite(s.time))
        throw invalid_parameter(name() + " processor", "input spike time", std::to_string(s.time),
                                "must be >= 0");
    double v = s.value;
    if (normalized) {
        if (!(v >= 0 && v <= 1))
            throw invalid_parameter(name() + " processor", "normalised spike value",
                                    std::to_string(v), "must be in [0, 1]");
        v = std::floor(v * spike_value_factor());
    }
    if (!std::isfinite(v) || std::fabs(v) > 1e9)
        throw invalid_parameter(name() + " processor", "spike value", std::to_string(v),
                                "out of range");
    l.engine->inject(it->second, l.engine->now() + static_cast<cycle_t>(std::trunc(s.time)),
                     static_cast<std::int32_t>(std::trunc(v)));
}

void cycle_processor::run(double duration, int network_id) {
    auto& l = get(network_id);
    l.clear_records();
    if (!(duration > 0)) return;
    const auto cycles = static_cast<cycle_t>(std::trunc(duration - 1)) + 1;
    const cycle_t start = l.engine->now();
    l.scratch.clear();
    l.engine->run_until(start + cycles, l.scratch);
    for (const auto& f : l.scratch) {
        const double t = static_cast<double>(f.cycle - start);
        ++l.count[f.neuron];
        l.last[f.neuron] = t;
        if (l.tracked[f.neuron]) l.times[f.neuron].push_back(t);
    }
}

std::int64_t cycle_processor::total_steps(int network_id) const {
    return get(network_id).engine->now();
}

void cycle_processor::clear_activity(int network_id) {
    auto& l = get(network_id);
    l.engine->clear_activity();
    l.clear_records();
}

void cycle_processor::track_output_events(int output_index, bool track, int network_id) {
    auto& l = get(network_id);
    if (output_index < 0 || static_cast<std::size_t>(output_index) >= l.net.outputs.size())
        throw invalid_parameter(name() + " processor", "output index", std::to_string(output_index),
                                "no such output");
    l.tracked[l.index.at(l.net.outputs[static_cast<std::size_t>(output_index)])] = track;
}

void cycle_processor::track_neuron_events(hw::node_id id, bool track, int network_id) {
    auto& l = get(network_id);
    const auto it = l.index.find(id);
    if (it == l.index.end())
        throw invalid_parameter(name() + " processor", "node", std::to_string(id), "no such node");
    l.tracked[it->second] = track;
}

int cycle_processor::num_outputs(int network_id) const {
    return static_cast<int>(get(network_id).net.outputs.size());
}

namespace {
std::uint32_t output_neuron(const std::vector<node_id>& outputs,
                            const std::map<node_id, std::uint32_t>& index, int o) {
    if (o < 0 || static_cast<std::size_t>(o) >= outputs.size())
        throw invalid_parameter("DANNA processor", "output index", std::to_string(o),
                                "no such output");
    return index.at(outputs[static_cast<std::size_t>(o)]);
}
}  // namespace

int cycle_processor::output_count(int output_index, int network_id) const {
    const auto& l = get(network_id);
    return l.count[output_neuron(l.net.outputs, l.index, output_index)];
}

double cycle_processor::output_last_fire(int output_index, int network_id) const {
    const auto& l = get(network_id);
    return l.last[output_neuron(l.net.outputs, l.index, output_index)];
}

std::vector<double> cycle_processor::output_vector(int output_index, int network_id) const {
    const auto& l = get(network_id);
    return l.times[output_neuron(l.net.outputs, l.index, output_index)];
}

std::vector<hw::node_id> cycle_processor::neuron_ids(int network_id) const {
    std::vector<hw::node_id> out;
    for (const auto& [id, i] : get(network_id).index) out.push_back(id);
    return out;
}

std::vector<double> cycle_processor::neuron_charges(int network_id) const {
    const auto& l = get(network_id);
    std::vector<double> out;
    for (auto i : l.by_id) out.push_back(l.engine->charge(i));
    return out;
}

std::vector<int> cycle_processor::neuron_counts(int network_id) const {
    const auto& l = get(network_id);
    std::vector<int> out;
    for (auto i : l.by_id) out.push_back(l.count[i]);
    return out;
}

std::vector<double> cycle_processor::neuron_last_fires(int network_id) const {
    const auto& l = get(network_id);
    std::vector<double> out;
    for (auto i : l.by_id) out.push_back(l.last[i]);
    return out;
}

std::vector<std::vector<double>> cycle_processor::neuron_vectors(int network_id) const {
    const auto& l = get(network_id);
    std::vector<std::vector<double>> out;
    for (auto i : l.by_id) out.push_back(l.times[i]);
    return out;
}

hardware_network cycle_processor::learnt_network(int network_id) const {
    const auto& l = get(network_id);
    hardware_network out = l.net;
    const auto w = l.engine->weights();
    for (std::size_t s = 0; s < out.synapses.size(); ++s) out.synapses[s].weight = w[s];
    return out;
}

event_counts cycle_processor::counts(int network_id) const {
    return get(network_id).engine->counts();
}

}  // namespace volley::danna
