#pragma once
// Small builders shared by the DANNA tests.

#include <volley/danna/hardware_network.hpp>

#include <initializer_list>

namespace danna_test {

using volley::danna::hardware_network;
using volley::danna::hw_neuron;
using volley::danna::hw_synapse;

/// Neurons 0..n-1 with the given thresholds and refractory periods.
inline hardware_network neurons(std::initializer_list<std::pair<int, int>> threshold_refractory) {
    hardware_network net;
    volley::hw::node_id id = 0;
    for (const auto& [t, r] : threshold_refractory) net.neurons.push_back({id++, t, r, "", {}});
    return net;
}

}  // namespace danna_test
