#pragma once
// The bridge between RISP networks and the engine: a RISP network becomes an snn::network of
// integer LIF neurons (lif_delta with no leak, or a complete leak, no refractory period, reset
// to 0), and such an snn::network converts back.
//
// Time: the engine runs at dt = 1 ms, one step per RISP timestep. A RISP input spike at time t
// is a spike_source spike stamped t + 1 with a one-step synapse onto the input node, so a fire
// at RISP time t is an engine spike stamped t + 2 (`engine_step_offset`).
//
// Parameters for which the two cannot agree are refused (risp_to_snn throws
// invalid_parameter) or listed in risp_engine_network::notes; docs/risp.md lists them all.

#include <volley/hw/neuroprocessor.hpp>
#include <volley/hw/risp_params.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/snn/network.hpp>

#include <string>
#include <vector>

namespace volley::hw {

/// Engine spike step = RISP fire time + this offset.
inline constexpr std::int64_t engine_step_offset = 2;

/// A RISP network on the engine.
struct risp_engine_network {
    snn::network net;                     ///< populations "neurons" (lif_delta) and, if any inputs, "inputs"
    std::vector<node_id> node_of_neuron;  ///< RISP node id of each neuron of "neurons"
    std::vector<std::string> notes;       ///< where the engine only approximates RISP
};

/// Converts a RISP network and the input spikes of one run (raw values, as apply_spike with
/// normalized = false, or normalised values scaled by the processor's spike_value_factor).
/// Throws invalid_parameter for what the engine cannot express: noise, an effective threshold
/// <= 0 (a RISP neuron then fires on any event; an engine neuron at rest would fire at once).
risp_engine_network risp_to_snn(const tennlab_network& net, const risp_params& params,
                                const std::vector<spike>& inputs = {}, bool normalized = false);

/// Converts back an snn::network of the kind risp_to_snn makes: lif_delta populations with
/// v_rest = v_reset = 0, t_ref = 0, i_e = 0 and tau_m >= 1e300 (no leak) or <= 1e-300 ms
/// (complete leak), joined by from_list projections with constant or per-synapse weights and
/// delays of whole milliseconds. Node ids are the neurons' global indices; spike_source
/// populations are dropped. Throws invalid_parameter naming what does not fit.
tennlab_network snn_to_risp(const snn::network& net, const risp_params& params);

}  // namespace volley::hw
