#include <volley/hw/cost_report.hpp>

#include <cstdio>
#include <sstream>

namespace volley::hw {

double cost_report::time_s() const {
    if (clock_hz.value <= 0) return 0;
    return static_cast<double>(cycles) * static_cast<double>(clocks_per_cycle) / clock_hz.value;
}

double cost_report::energy_j() const {
    double total = 0;
    for (const auto& [kind, count] : events) {
        const auto it = energy_per_event_j.find(kind);
        if (it != energy_per_event_j.end()) total += static_cast<double>(count) * it->second.value;
    }
    return total;
}

nlohmann::json cost_report::to_json() const {
    nlohmann::json energies = nlohmann::json::object();
    for (const auto& [kind, c] : energy_per_event_j)
        energies[kind] = {{"value", c.value}, {"source", c.source}};
    return {{"processor", processor},
            {"preset", preset},
            {"neurons", neurons},
            {"synapses", synapses},
            {"elements", elements},
            {"cycles", cycles},
            {"clocks_per_cycle", clocks_per_cycle},
            {"events", events},
            {"clock_hz", {{"value", clock_hz.value}, {"source", clock_hz.source}}},
            {"energy_per_event_j", energies},
            {"time_s", time_s()},
            {"energy_j", energy_j()}};
}

std::string cost_report::to_text() const {
    std::ostringstream s;
    char line[160];
    s << "cost report: " << processor << (preset.empty() ? "" : " (" + preset + ")") << '\n';
    s << "  neurons " << neurons << ", synapses " << synapses << '\n';
    if (!elements.empty()) {
        s << "  elements:";
        for (const auto& [kind, n] : elements) s << ' ' << kind << ' ' << n;
        s << '\n';
    }
    s << "  cycles " << cycles << " x " << clocks_per_cycle << " clocks\n";
    s << "  events:";
    for (const auto& [kind, n] : events) s << ' ' << kind << ' ' << n;
    s << '\n';
    std::snprintf(line, sizeof line, "  time %.6g s at %.6g Hz", time_s(), clock_hz.value);
    s << line << " (" << clock_hz.source << ")\n";
    std::snprintf(line, sizeof line, "  energy %.6g J\n", energy_j());
    s << line;
    for (const auto& [kind, c] : energy_per_event_j) {
        std::snprintf(line, sizeof line, "    %s: %.3g J/event", kind.c_str(), c.value);
        s << line << " (" << c.source << ")\n";
    }
    return s.str();
}

}  // namespace volley::hw
