#pragma once
// A converted network with images as a batch dimension: every population B times its size
// (image b's copy of neuron i is neuron b·n + i), every projection block-diagonal over the
// images, so one engine steps B images at once with the launches of one (the device backends'
// way to fill a GPU: docs/cuda.md). Each image's block has the weights, delays, parameters and
// connector geometry of the original, so its spikes are those of the network run alone.

#include <volley/snn/network.hpp>

#include <cstdint>

namespace volley::convert::detail {

/// The network `net` for `images` images at once:
/// - a convolution over C input and O output channels in G groups becomes one over B·C and B·O
///   channels in B·G groups, its kernel repeated B times (image b's channels are b·C + c);
/// - a gated max-pool over C channels one over B·C channels;
/// - one_to_one stays; all_to_all and from_list become from_list with B blocks;
/// - constants stay, per-neuron lists are repeated B times, per-synapse lists once per block;
/// - an analog source's rows are repeated B times (set_input replaces them per image).
/// Throws unsupported_model naming the population or projection for what a block copy cannot
/// keep: random parameters or initial values (drawn per neuron index), random connectors and
/// weights, current stimuli, plasticity. invalid_parameter for images = 0 or a network that
/// would exceed 2^32 neurons per population.
snn::network batched_network(const snn::network& net, std::uint32_t images);

}  // namespace volley::convert::detail
