#include <volley/danna/danna2_processor.hpp>

#include "cost_model.hpp"
#include "danna2_engine.hpp"

namespace volley::danna {

danna2_processor::danna2_processor(danna2_params params) : params_(std::move(params)) {}

std::unique_ptr<cycle_engine> danna2_processor::make_engine(const hardware_network& net,
                                                            int network_id) {
    sizes_[network_id] = {static_cast<std::int64_t>(net.neurons.size()),
                          static_cast<std::int64_t>(net.synapses.size())};
    return std::make_unique<detail::danna2_engine>(net, params_.rules);
}

hw::cost_report danna2_processor::costs(int network_id) const {
    const auto& e = engine(network_id);
    hw::cost_report r = detail::report_from_counts("danna2", "", e.counts(), e.now());
    r.neurons = sizes_.at(network_id).first;
    r.synapses = sizes_.at(network_id).second;
    r.elements = {{"neuron", r.neurons}, {"synapse", r.synapses}};
    r.clocks_per_cycle = 1;
    r.clock_hz = params_.clock_hz;
    r.energy_per_event_j = params_.energy_per_event_j;
    return r;
}

}  // namespace volley::danna
