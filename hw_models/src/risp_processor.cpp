#include <volley/hw/risp_processor.hpp>
#include <volley/hw/tennlab_error.hpp>

#include "risp_network.hpp"

namespace volley::hw {

void neuroprocessor::load_networks(const std::vector<tennlab_network>& nets) {
    for (std::size_t i = 0; i < nets.size(); ++i) load_network(nets[i], static_cast<int>(i));
}

void neuroprocessor::apply_spikes(const std::vector<spike>& spikes, bool normalized,
                                  int network_id) {
    for (const spike& s : spikes) apply_spike(s, normalized, network_id);
}

std::vector<int> neuroprocessor::output_counts(int network_id) const {
    std::vector<int> out;
    const int n = num_outputs(network_id);
    for (int i = 0; i < n; ++i) out.push_back(output_count(i, network_id));
    return out;
}

std::vector<double> neuroprocessor::output_last_fires(int network_id) const {
    std::vector<double> out;
    const int n = num_outputs(network_id);
    for (int i = 0; i < n; ++i) out.push_back(output_last_fire(i, network_id));
    return out;
}

std::vector<std::vector<double>> neuroprocessor::output_vectors(int network_id) const {
    std::vector<std::vector<double>> out;
    const int n = num_outputs(network_id);
    for (int i = 0; i < n; ++i) out.push_back(output_vector(i, network_id));
    return out;
}

risp_processor::risp_processor(risp_params params) : params_(std::move(params)) {}
risp_processor::risp_processor(const nlohmann::json& proc_params)
    : params_(risp_params::from_json(proc_params)) {}
risp_processor::~risp_processor() = default;
risp_processor::risp_processor(risp_processor&&) noexcept = default;
risp_processor& risp_processor::operator=(risp_processor&&) noexcept = default;

detail::risp_network& risp_processor::net(int network_id) {
    const auto it = networks_.find(network_id);
    if (it == networks_.end())
        throw tennlab_error("RISP processor", "risp::Processor::get_risp_network() network_id " +
                                                  std::to_string(network_id) + " does not exist");
    return *it->second;
}

const detail::risp_network& risp_processor::net(int network_id) const {
    return const_cast<risp_processor*>(this)->net(network_id);
}

void risp_processor::load_network(const tennlab_network& network, int network_id) {
    if (!network.properties.matches(params_.network_properties()))
        throw tennlab_error("RISP processor", "network and processor properties do not match.");
    networks_[network_id] =
        std::make_unique<detail::risp_network>(params_, network, strict_values_);
}

void risp_processor::clear(int network_id) {
    networks_.erase(network_id);
}

bool risp_processor::has_network(int network_id) const {
    return networks_.count(network_id) != 0;
}

int risp_processor::num_outputs(int network_id) const {
    return static_cast<int>(net(network_id).outputs().size());
}

void risp_processor::apply_spike(const spike& s, bool normalized, int network_id) {
    auto& n = net(network_id);
    const std::int64_t index = n.index_of(s.id);
    if (index < 0)
        throw tennlab_error("RISP processor", "Node " + std::to_string(s.id) + " does not exist.");
    if (!n.is_input(static_cast<std::uint32_t>(index)))
        throw tennlab_error("RISP processor",
                            "node " + std::to_string(s.id) + " is not an input node");
    n.apply(static_cast<std::uint32_t>(index), s.time, s.value, normalized);
}

void risp_processor::run(double duration, int network_id) {
    net(network_id).run(duration);
}

std::int64_t risp_processor::total_steps(int network_id) const {
    return net(network_id).total_steps();
}

void risp_processor::clear_activity(int network_id) {
    net(network_id).clear_activity();
}

namespace {

std::uint32_t output_neuron(const detail::risp_network& n, int output_index) {
    if (output_index < 0 || static_cast<std::size_t>(output_index) >= n.outputs().size())
        throw invalid_parameter("RISP processor", "output_index", std::to_string(output_index),
                                "no such output");
    return n.outputs()[static_cast<std::size_t>(output_index)];
}

}  // namespace

void risp_processor::track_output_events(int output_index, bool track, int network_id) {
    auto& n = net(network_id);
    n.set_tracked(output_neuron(n, output_index), track);
}

void risp_processor::track_neuron_events(node_id id, bool track, int network_id) {
    auto& n = net(network_id);
    const std::int64_t index = n.index_of(id);
    if (index < 0)
        throw unknown_name("node", std::to_string(id), "RISP processor track_neuron_events");
    n.set_tracked(static_cast<std::uint32_t>(index), track);
}

int risp_processor::output_count(int output_index, int network_id) const {
    const auto& n = net(network_id);
    return n.fire_count(output_neuron(n, output_index));
}

double risp_processor::output_last_fire(int output_index, int network_id) const {
    const auto& n = net(network_id);
    return n.last_fire(output_neuron(n, output_index));
}

std::vector<double> risp_processor::output_vector(int output_index, int network_id) const {
    const auto& n = net(network_id);
    return n.fire_times(output_neuron(n, output_index));
}

std::vector<node_id> risp_processor::neuron_ids(int network_id) const {
    return net(network_id).ids();
}

std::vector<double> risp_processor::neuron_charges(int network_id) const {
    const auto& n = net(network_id);
    std::vector<double> out(n.ids().size());
    for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = n.charge(i);
    return out;
}

std::vector<int> risp_processor::neuron_counts(int network_id) const {
    const auto& n = net(network_id);
    std::vector<int> out(n.ids().size());
    for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = n.fire_count(i);
    return out;
}

std::vector<double> risp_processor::neuron_last_fires(int network_id) const {
    const auto& n = net(network_id);
    std::vector<double> out(n.ids().size());
    for (std::uint32_t i = 0; i < out.size(); ++i) out[i] = n.last_fire(i);
    return out;
}

std::vector<std::vector<double>> risp_processor::neuron_vectors(int network_id) const {
    return net(network_id).fire_times();
}

cost_report risp_processor::costs(int network_id) const {
    const auto& n = net(network_id);
    const std::string clock_source =
        "assumption: RISP is a reference model; no hardware clock is published, one step per "
        "cycle at 100 MHz as for danna2";
    const std::string energy_source =
        "assumption: order-of-magnitude placeholder, as for danna2; no published RISP figure";
    cost_report r;
    r.processor = "risp";
    r.neurons = static_cast<std::int64_t>(n.ids().size());
    r.synapses = static_cast<std::int64_t>(n.synapse_list().size());
    r.elements = {{"neurons", r.neurons}, {"synapses", r.synapses}};
    r.cycles = n.total_steps();
    r.events = {{"neuron_fires", n.fires()}, {"integrated_events", n.integrated()}};
    r.clock_hz = {100.0e6, clock_source};
    r.energy_per_event_j = {{"neuron_fires", {5.0e-12, energy_source}},
                            {"integrated_events", {2.0e-12, energy_source}}};
    return r;
}

risp_counters risp_processor::take_counters(int network_id) {
    auto& n = net(network_id);
    return {n.take_fires(), n.take_integrated()};
}

std::vector<risp_processor::synapse_info> risp_processor::synapses(int network_id) const {
    const auto& n = net(network_id);
    std::vector<synapse_info> out;
    for (const auto& [from, to, w] : n.synapse_list())
        out.push_back({n.ids()[from], n.ids()[to], w});
    return out;
}

}  // namespace volley::hw
