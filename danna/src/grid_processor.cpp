#include <volley/danna/grid_processor.hpp>

#include <volley/error.hpp>

#include "cost_model.hpp"

namespace volley::danna {

grid_processor::grid_processor(grid_params params, place_and_route_options options)
    : params_(std::move(params)), options_(options) {
    params_.validate();
}

hw::property_pack grid_processor::network_properties() const {
    using hw::property_type;
    hw::property_pack pack;
    const auto& l = params_.limits;
    pack.node = {{property_names::threshold, property_type::integer, 0, 1,
                  static_cast<double>(l.min_threshold), static_cast<double>(l.max_threshold)},
                 {property_names::refractory, property_type::integer, 1, 1, 0,
                  static_cast<double>(l.max_refractory)}};
    pack.edge = {
        {property_names::weight, property_type::integer, 0, 1, static_cast<double>(l.min_weight),
         static_cast<double>(l.max_weight)},
        {property_names::delay, property_type::integer, 1, 1, 1, static_cast<double>(l.max_delay)}};
    return pack;
}

std::unique_ptr<cycle_engine> grid_processor::make_engine(const hardware_network& net,
                                                          int network_id) {
    std::unique_ptr<grid_engine> engine;
    if (preset_programme_ != nullptr) {
        engine = std::make_unique<grid_engine>(*preset_programme_);
        reports_[network_id] = {};
    } else {
        placed_network placed = place_and_route(net, params_, options_);
        engine = std::make_unique<grid_engine>(placed.programme);
        reports_[network_id] = placed.report;
    }
    auto& counts = elements_[network_id];
    counts.clear();
    for (const auto k : engine->learnt_programme().kind)
        if (k != element_kind::empty) ++counts[kind_name(k)];
    engines_[network_id] = engine.get();
    return engine;
}

void grid_processor::load_programme(const grid_programme& prog, int network_id) {
    preset_programme_ = &prog;
    try {
        load_hardware_network(prog.network(), network_id);
    } catch (...) {
        preset_programme_ = nullptr;
        throw;
    }
    preset_programme_ = nullptr;
}

void grid_processor::on_clear(int network_id) {
    reports_.erase(network_id);
    engines_.erase(network_id);
    elements_.erase(network_id);
}

const route_report& grid_processor::report(int network_id) const {
    const auto it = reports_.find(network_id);
    if (it == reports_.end())
        throw invalid_parameter("danna processor", "network_id", std::to_string(network_id),
                                "no network loaded with this id");
    return it->second;
}

grid_engine& grid_processor::engine_of(int network_id) {
    const auto it = engines_.find(network_id);
    if (it == engines_.end() || !has_network(network_id))
        throw invalid_parameter("danna processor", "network_id", std::to_string(network_id),
                                "no network loaded with this id");
    return *it->second;
}

hw::cost_report grid_processor::costs(int network_id) const {
    const auto& e = engine(network_id);
    hw::cost_report r = detail::report_from_counts("danna", params_.preset, e.counts(), e.now());
    const auto& elements = elements_.at(network_id);
    const auto get = [&](const char* k) {
        const auto it = elements.find(k);
        return it == elements.end() ? std::int64_t{0} : it->second;
    };
    r.neurons = get("neuron");
    r.synapses = get("synapse");
    r.elements = elements;
    r.clocks_per_cycle = params_.clocks_per_cycle;
    r.clock_hz = params_.element_clock_hz;
    r.energy_per_event_j = params_.energy_per_event_j;
    return r;
}

}  // namespace volley::danna
