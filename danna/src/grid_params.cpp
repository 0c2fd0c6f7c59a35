#include <volley/danna/grid_params.hpp>

#include "model_params_json.hpp"

#include <volley/error.hpp>
#include <volley/json_integer.hpp>

namespace volley::danna {

std::array<cell, ports_per_element> default_port_offsets() {
    return {cell{-1, -1}, cell{0, -1}, cell{1, -1}, cell{-1, 0}, cell{1, 0},  cell{-1, 1},
            cell{0, 1},   cell{1, 1},  cell{-2, 0}, cell{2, 0},  cell{0, -2}, cell{0, 2},
            cell{-2, -2}, cell{2, -2}, cell{-2, 2}, cell{2, 2}};
}

namespace {

const char* const assumed_clock =
    "assumption: no element clock is published for this preset; DANNA.md fixes only the VLSI "
    "clock at about 10x the FPGA clock (Dean & Daffron, ISVLSI 2016)";
const char* const assumed_energy =
    "assumption: no per-event energy is published for DANNA; order-of-magnitude placeholder";

std::map<std::string, hw::cost_constant> grid_energies(double scale) {
    return {{"neuron_fires", {2.0e-12 * scale, assumed_energy}},
            {"synapse_deliveries", {1.0e-12 * scale, assumed_energy}},
            {"fanout_relays", {0.5e-12 * scale, assumed_energy}},
            {"inputs", {1.0e-12 * scale, assumed_energy}}};
}

}  // namespace

grid_params grid_preset(const std::string& name) {
    grid_params p;
    p.preset = name;
    if (name == "tiny") {
        p.width = p.height = 16;
        p.element_clock_hz = {100.0e6, assumed_clock};
        p.energy_per_event_j = grid_energies(10.0);
    } else if (name == "fpga2014") {
        p.width = p.height = 65;  // about 4,225 elements (Daffron 2015)
        p.element_clock_hz = {100.0e6, assumed_clock};
        p.energy_per_event_j = grid_energies(10.0);
    } else if (name == "vlsi2016") {
        p.width = p.height = 75;  // 5,625 elements (Dean & Daffron, ISVLSI 2016)
        p.element_clock_hz = {1.0e9,
                              "10x the fpga2014 clock (published ratio, Dean & Daffron, ISVLSI "
                              "2016); the fpga2014 base clock is an assumption"};
        p.energy_per_event_j = grid_energies(1.0);
    } else {
        throw invalid_parameter("danna grid", "preset", name, "must be tiny, fpga2014 or vlsi2016");
    }
    return p;
}

void grid_params::validate() const {
    const auto check = [&](bool ok, const char* parameter, long long value, const char* reason) {
        if (!ok)
            throw invalid_parameter("danna grid '" + preset + "'", parameter, std::to_string(value),
                                    reason);
    };
    check(width >= 3 && width <= 4096, "width", width, "must be in [3, 4096]");
    check(height >= 3 && height <= 4096, "height", height, "must be in [3, 4096]");
    check(limits.max_delay >= 1 && limits.max_delay <= 65535, "max_delay", limits.max_delay,
          "must be in [1, 65535]");
    check(rules.fifo_depth >= 1, "fifo_depth", rules.fifo_depth, "must be >= 1");
    check(rules.leak_shift >= 0 && rules.leak_shift <= 30, "leak_shift", rules.leak_shift,
          "must be in [0, 30]");
    check(rules.ltp_window >= 0, "ltp_window", rules.ltp_window, "must be >= 0");
    check(rules.charge_min <= 0 && rules.charge_max > 0, "charge_max", rules.charge_max,
          "the charge range must contain 0 and 1");
    check(clocks_per_cycle >= 1, "clocks_per_cycle", clocks_per_cycle, "must be >= 1");
    check(neuron_spacing >= 2, "neuron_spacing", neuron_spacing, "must be >= 2");
    for (const auto& o : port_offsets)
        check(o.x != 0 || o.y != 0, "port_offsets", 0, "an element cannot listen to itself");
}

nlohmann::json grid_params::to_json() const {
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& o : port_offsets) ports.push_back({o.x, o.y});
    nlohmann::json energy = nlohmann::json::object();
    for (const auto& [k, c] : energy_per_event_j)
        energy[k] = {{"value", c.value}, {"source", c.source}};
    auto j = detail::shared_params_json(limits, rules, default_refractory, spike_value_factor);
    j["preset"] = preset;
    j["width"] = width;
    j["height"] = height;
    j["port_offsets"] = ports;
    j["clocks_per_cycle"] = clocks_per_cycle;
    j["element_clock_hz"] = {{"value", element_clock_hz.value}, {"source", element_clock_hz.source}};
    j["energy_per_event_j"] = energy;
    j["neuron_spacing"] = neuron_spacing;
    return j;
}

grid_params grid_params::from_json(const nlohmann::json& j) {
    grid_params p = grid_preset(j.value("preset", std::string("tiny")));
    const auto get = [&](const char* key, auto& field) {
        detail::read_param(j, key, field, "danna grid");
    };
    get("width", p.width);
    get("height", p.height);
    if (j.contains("port_offsets")) {
        const auto& ports = j.at("port_offsets");
        if (!ports.is_array() || ports.size() != ports_per_element)
            throw invalid_parameter("danna grid", "port_offsets", ports.dump(),
                                    "must list 16 [dx, dy] pairs");
        for (std::size_t i = 0; i < ports.size(); ++i) {
            const auto offset = [&](std::size_t axis) {
                const auto d = json_integer<int>(ports[i].at(axis));
                if (!d)
                    throw invalid_parameter("danna grid", "port_offsets", ports[i].dump(),
                                            "offsets must be integers");
                return *d;
            };
            p.port_offsets[i] = {offset(0), offset(1)};
        }
    }
    get("min_threshold", p.limits.min_threshold);
    get("max_threshold", p.limits.max_threshold);
    get("min_weight", p.limits.min_weight);
    get("max_weight", p.limits.max_weight);
    get("max_delay", p.limits.max_delay);
    get("max_refractory", p.limits.max_refractory);
    get("threshold_inclusive", p.rules.threshold_inclusive);
    get("leak_shift", p.rules.leak_shift);
    get("charge_min", p.rules.charge_min);
    get("charge_max", p.rules.charge_max);
    get("fifo_depth", p.rules.fifo_depth);
    get("ltp_window", p.rules.ltp_window);
    get("ltp_step", p.rules.ltp_step);
    get("ltd_step", p.rules.ltd_step);
    get("default_refractory", p.default_refractory);
    get("spike_value_factor", p.spike_value_factor);
    get("clocks_per_cycle", p.clocks_per_cycle);
    get("neuron_spacing", p.neuron_spacing);
    if (j.contains("element_clock_hz"))
        p.element_clock_hz = {j["element_clock_hz"].at("value").get<double>(),
                              j["element_clock_hz"].value("source", std::string())};
    if (j.contains("energy_per_event_j")) {
        p.energy_per_event_j.clear();
        for (const auto& [k, v] : j["energy_per_event_j"].items())
            p.energy_per_event_j[k] = {v.at("value").get<double>(),
                                       v.value("source", std::string())};
    }
    p.rules.weight_min = p.limits.min_weight;
    p.rules.weight_max = p.limits.max_weight;
    p.validate();
    return p;
}

}  // namespace volley::danna
