#pragma once
// Temporal motifs for hand-built TENNLab networks (docs/temporal.md, "Motifs"), written for
// integrate-and-fire neurons without leak that reset to 0 on firing and never fire without an
// incoming event (RISP, and DANNA with refractory 0 and thresholds >= 1).
//
// With no leak, charge that does not make a neuron fire stays. Every motif therefore leaves
// its targets' charge exactly as it was unless they fire: a transient contribution is cancelled
// one cycle later through a relay, and a firing neuron cancels its own pending cancellation
// with a self-synapse. Charges stay >= -W, so RISP's min_potential (<= -W) never acts and RISP,
// danna2 and the DANNA grid give identical fires.
//
// Time unit u (network_builder): every step the motifs take "one cycle later" is u cycles later
// (relays, latches, pulses and the cancellations all use delay u), so the whole motif runs u
// times slower while the delays counted in frames (C) stay C. u = 1 is the fastest; the DANNA
// grid needs u > 1, because a synapse behind h fan-out hops needs a delay of at least h + 1.
// The descriptions below are for u = 1: read t + 1 as t + u and t + 2 as t + 2u.

#include <volley/hw/property_pack.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace volley::temporal {

/// Builds a TENNLab network: inputs are nodes 0..inputs-1, outputs the next ids, then hidden
/// nodes in the order they are added (the layout eons::network_template expects).
class network_builder {
  public:
    /// `proc_params` is stored in Associated_Data with proc_name "risp". The pack must have
    /// node Threshold and edge Weight and Delay (invalid_parameter otherwise); W is Weight's
    /// max_value. Inputs get threshold 1 (an input spike delivers W), outputs threshold 1
    /// until set. `time_unit` (u >= 1, at most the pack's largest delay) is the delay of every
    /// motif step.
    network_builder(hw::property_pack pack, nlohmann::json proc_params, int inputs, int outputs, int time_unit = 1);

    /// W, the largest weight.
    int max_weight() const noexcept { return w_; }
    /// The largest delay.
    int max_delay() const noexcept { return max_delay_; }
    /// u, the delay of one motif step.
    int time_unit() const noexcept { return unit_; }
    /// Node id of input `i` / output `o`.
    hw::node_id input(int i) const;
    hw::node_id output(int o) const;

    /// Adds a hidden neuron; returns its id. invalid_parameter if the threshold is outside the pack.
    hw::node_id add_neuron(int threshold, const std::string& name = "");
    /// Sets the threshold of a node.
    void set_threshold(hw::node_id id, int threshold);
    /// Adds a synapse; invalid_parameter for a weight or delay outside the pack, an unknown node
    /// or a second synapse between the same pair.
    void add_edge(hw::node_id from, hw::node_id to, int weight, int delay);

    /// The network built so far.
    const hw::tennlab_network& network() const noexcept { return net_; }

  private:
    hw::tennlab_node& node(hw::node_id id);
    hw::tennlab_network net_;
    int threshold_slot_ = 0, weight_slot_ = 0, delay_slot_ = 0;
    int min_threshold_ = 0, max_threshold_ = 0, w_ = 0, min_weight_ = 0, max_delay_ = 1;
    int inputs_ = 0, outputs_ = 0, unit_ = 1;
};

/// Relay: a neuron (threshold W) that fires `delay` cycles after `from` fires. Returns it.
hw::node_id add_relay(network_builder& b, hw::node_id from, int delay, const std::string& name = "");

/// Delay line: a neuron that fires `delay` cycles after `from` (delay >= 1), as a chain of
/// relays when delay exceeds the largest synapse delay.
hw::node_id add_delay_line(network_builder& b, hw::node_id from, int delay, const std::string& name = "");

/// Latch: a self-exciting neuron that fires at every cycle from t + 1 on, once `trigger` has
/// fired at t (later trigger fires change nothing). Returns it.
hw::node_id add_latch(network_builder& b, hw::node_id trigger, const std::string& name = "");

/// Level: turns a latch firing every cycle from t into a constant charge +level on `target` from
/// cycle t + delay on (latch -> target +level at `delay`, cancelled every later cycle by a relay
/// -> target -level). Uses one relay.
void add_level(network_builder& b, hw::node_id latch, hw::node_id target, int level, int delay);

/// Pulse: a fire of `source` at t adds `weight` to `target` at t + 1 and takes it away at
/// t + 2 (through a relay), so it can make `target` fire at t + 1 but leaves no charge. Uses one relay.
void add_pulse(network_builder& b, hw::node_id source, hw::node_id target, int weight);

/// Coincidence detector: `target` (threshold W + level) fires at t + 1 when `pulse_source`
/// fires at t while `latch`'s level (set `delay` cycles after the latch starts) is on.
/// Returns target.
hw::node_id add_coincidence(network_builder& b, hw::node_id latch, hw::node_id pulse_source, hw::node_id target,
                            int level_delay);

/// Counter to two: `target` fires at t + 1 when `source` fires at t, at least `frame_cycles`
/// cycles after its first fire (the first fire starts a latch whose level reaches target after
/// frame_cycles + 1 cycles; fires within one frame count once). Returns target.
hw::node_id add_counter(network_builder& b, hw::node_id source, hw::node_id target, int frame_cycles);

/// Change detector of one class: a neuron D that fires at t + 1 when `input` fires at t (a frame
/// start) and did not fire at t - frame_cycles. The previous frame's fire is delayed by
/// frame_cycles (inhibition -W at t + 1, compensation +W at t + 2); the current fire's own
/// +W at t + 1 is followed by -W at t + 2, which a fire of D cancels through its self-synapse.
/// For one input spike per frame, at the frame's first cycle. Uses three relays; returns D.
hw::node_id add_change_detector(network_builder& b, hw::node_id input, int frame_cycles, const std::string& name = "");

}  // namespace volley::temporal
