#pragma once
// The per-cycle rules both DANNA models share (DANNA.md, "Neuron element", "Synapse element",
// "Learning"). Which values are published and which are Volley's assumptions is recorded in
// the presets (grid_params.hpp, danna2_params.hpp) and in docs/danna.md.

#include <cstdint>

namespace volley::danna {

/// How neurons, delay FIFOs and learning behave in every network cycle.
struct cycle_rules {
    bool threshold_inclusive = true;  ///< fire on charge >= threshold (false: charge > threshold)
    int leak_shift = 0;               ///< leak: charge -= charge >> leak_shift each cycle; 0 = none
    std::int32_t charge_min = -32768;  ///< saturation floor of the neuron charge
    std::int32_t charge_max = 32767;   ///< saturation ceiling of the neuron charge
    int fifo_depth = 16;    ///< fires a synapse can hold in flight; more are dropped and counted
    int ltp_window = 4;     ///< [network cycles] LTP when the target fires within this many
                            ///< cycles of a delivery, the delivery's own cycle included
    int ltp_step = 1;       ///< weight increment of LTP
    int ltd_step = 1;       ///< weight decrement of LTD (delivery while the target is refractory)
    int weight_min = -128;  ///< learning saturates weights at this value
    int weight_max = 127;   ///< learning saturates weights at this value
};

/// Clamps a wide sum into the charge range.
inline std::int32_t saturate_charge(std::int64_t v, const cycle_rules& r) {
    return v < r.charge_min   ? r.charge_min
           : v > r.charge_max ? r.charge_max
                              : static_cast<std::int32_t>(v);
}

}  // namespace volley::danna
