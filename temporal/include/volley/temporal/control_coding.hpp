#pragma once
// Observations to input spikes and output spikes to actions, as TENNLab's control applications
// code them (docs/control.md, "Encoders and decoder"): each observed value v with range R feeds
// a group of input neurons; a neuron's spike count n goes in at timesteps 0, s, 2s, …, (n−1)s
// (s = spike_interval) of the observation's run; the output with the most spikes in that run
// names the action.

#include <volley/hw/neuroprocessor.hpp>

#include <string>
#include <vector>

namespace volley::temporal {

/// How one value becomes spike counts.
enum class value_encoder {
    /// Two inputs: input 0 for v ≤ 0, input 1 for v > 0, with n = min(M, ⌈M·|v|/R⌉) spikes.
    flip_flop,
    /// Four inputs with triangular receptive fields on u = clamp(v/R, −1, 1), centred at −1,
    /// −1/3, 1/3 and 1, each 2/3 wide on either side: n_k = max(0, ⌈M·(1 − |u − c_k|·3/2)⌉).
    /// Two neighbouring inputs spike for most values, the nearer one more.
    argyle,
};

/// "flip_flop" or "argyle".
std::string to_string(value_encoder e);
/// Parses a name of to_string; unknown_name otherwise.
value_encoder parse_value_encoder(const std::string& name);
/// Inputs per value: 2 (flip_flop) or 4 (argyle).
int encoder_inputs(value_encoder e);

/// The spike coding of a control task's observations.
struct observation_coding {
    value_encoder encoder = value_encoder::flip_flop;
    std::vector<double> ranges;       ///< R of each observed value (> 0)
    int max_spikes = 8;               ///< M: most spikes per input and observation
    int spike_interval = 3;           ///< s: timesteps between an input's spikes
    int timesteps_per_observation = 24;  ///< processor steps run per observation

    /// Inputs of the network: ranges.size() · encoder_inputs(encoder).
    int inputs() const;
    /// invalid_parameter (naming `object`) for an empty or non-positive range, M < 1, s < 1, or
    /// spikes that do not fit the run ((M − 1)·s ≥ timesteps_per_observation).
    void validate(const std::string& object) const;
};

/// Spike counts per input for one observation (values in the order of coding.ranges).
/// invalid_parameter when the number of values differs from the ranges, or a value is not finite.
std::vector<int> encode_observation(const std::vector<double>& values, const observation_coding& coding);

/// The spikes of `counts` for inputs `input_ids` (node ids by input index): input i's spikes
/// at 0, s, …, (counts[i] − 1)·s, value 1 (normalised), in input order.
std::vector<hw::spike> observation_spikes(const std::vector<int>& counts, const std::vector<hw::node_id>& input_ids,
                                          int spike_interval);

/// Winner takes all: the index of the largest count, ties (all silent included) to the lowest
/// index. invalid_parameter for an empty list.
int winner_takes_all(const std::vector<int>& output_counts);

}  // namespace volley::temporal
