#pragma once
// The lowering's choice of direct input (docs/engine.md, "Delivery strategies"): which pairs of
// populations may skip the ring buffer and add their spikes straight into the LIF currents or
// the ODE models' conductances.
// That path adds doubles, not integers, so it is decided here from the network alone, never
// from what one thread's, rank's or GPU block's share of a table happens to look like: every
// partition then rounds alike.

#include <volley/snn/network.hpp>

#include <cstdint>
#include <vector>

namespace volley::snn::detail {

/// [source * P + target]: 1 when the projections from source onto target (those with a delay;
/// zero-delay ones never go direct) may be delivered directly: each has a table connector (not
/// a convolution or gate), no plasticity, the constant delay of one step and a constant weight,
/// all the same weight and receptor; the target is lif_exp, lif_alpha or an ODE model but
/// izhikevich, and the source not an analog_source. And every direct pair onto one (target, receptor) has the same weight, so
/// each neuron's input is the same value added once per synaptic event: a sum of doubles that
/// is the same in any order of the spikes.
std::vector<std::uint8_t> direct_pairs(const network& net, double dt_ms);

}  // namespace volley::snn::detail
