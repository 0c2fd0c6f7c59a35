#pragma once
// The cost of a neuroprocessor run (DANNA.md, "Costs"): what was used, how many cycles and
// events, and the time and energy those take at a preset's clock and per-event energies.
// One format for RISP and both DANNA models, so that one table compares them.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace volley::hw {

/// A constant of a cost model, with where it comes from.
struct cost_constant {
    double value = 0;    ///< the value, in the unit its name states
    std::string source;  ///< a citation, or "assumption: <why>" when nothing is published
};

/// Resources, cycles, events, time and energy of one run.
struct cost_report {
    std::string processor;                                    ///< "risp", "danna", "danna2"
    std::string preset;                                       ///< preset name ("" when none)
    std::int64_t neurons = 0;                                 ///< neurons of the loaded network
    std::int64_t synapses = 0;                                ///< synapses of the loaded network
    std::map<std::string, std::int64_t> elements;             ///< hardware elements used, by kind
    std::int64_t cycles = 0;                                  ///< network cycles simulated
    std::int64_t clocks_per_cycle = 1;                        ///< hardware clocks per network cycle
    std::map<std::string, std::int64_t> events;               ///< events by kind
    cost_constant clock_hz;                                   ///< [Hz] hardware clock
    std::map<std::string, cost_constant> energy_per_event_j;  ///< [J] per event of each kind

    /// [s] cycles × clocks_per_cycle / clock_hz.
    double time_s() const;
    /// [J] sum over kinds of events × energy per event (kinds without a constant cost 0).
    double energy_j() const;

    /// The report as JSON (all fields, the derived time and energy, and every source).
    nlohmann::json to_json() const;
    /// A short human-readable table.
    std::string to_text() const;
};

}  // namespace volley::hw
