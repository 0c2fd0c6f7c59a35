#pragma once
// Class evidence -> input spikes of a hardware network with one input neuron per class (input
// index = class), frame after frame (docs/temporal.md, "Encoding"). Frame k occupies cycles
// [k·C, (k+1)·C), C = cycles_per_frame; its spikes fall in the first C - gap_cycles cycles
// (the "active window" A), the last gap_cycles are silent. Every spike carries the normalised
// value 1 (the processor's spike_value_factor): the information is in which inputs fire, when
// and how often.

#include <volley/temporal/frame_features.hpp>
#include <volley/temporal/question.hpp>
#include <volley/temporal/sequence_generator.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace volley::temporal {

/// How a frame's evidence becomes spikes.
enum class encoding_mode : std::uint8_t {
    /// v = evidence / (the frame's largest evidence), n = round(v · max_spikes) spikes (none
    /// when v < threshold or the largest evidence is <= 0), at cycles floor(j · A / n), j < n.
    rate,
    /// Time to first spike: one spike at cycle round((1 - v) · (A - 1)) when v >= threshold
    /// (the strongest class fires at cycle 0), none otherwise.
    first_spike,
    /// One spike, to the frame's predicted class, at cycle 0. On oracle features all three
    /// modes put a spike on the true class at cycle 0; winner and first_spike give exactly one.
    winner,
};

/// "rate", "first_spike", "winner", and back (unknown_name, kind "encoding", otherwise).
std::string to_string(encoding_mode m);
encoding_mode parse_encoding_mode(const std::string& name);

/// The encoding settings.
struct encoding_options {
    encoding_mode mode = encoding_mode::winner;
    int cycles_per_frame = 10;  ///< C [cycles] (>= 1)
    int gap_cycles = 2;         ///< silent cycles at the end of each frame (0 <= gap < C)
    int max_spikes = 4;         ///< rate: spikes of the strongest class (1 <= max_spikes <= A)
    double threshold = 0.1;     ///< rate, first_spike: smallest normalised evidence that spikes, in [0, 1]

    /// invalid_parameter naming the field and value for a setting outside its range.
    void validate() const;
    /// A = cycles_per_frame - gap_cycles.
    int active_cycles() const noexcept { return cycles_per_frame - gap_cycles; }
};

/// One input spike: input index (= class) and cycle, relative to the start of the frame or the
/// sequence (as the function says).
struct input_event {
    int input = 0;
    int cycle = 0;
    friend bool operator==(const input_event&, const input_event&) = default;
};

/// The spikes of one frame (cycles relative to the frame's start), by ascending cycle and then
/// input. `predicted` is the frame's predicted class (used by winner).
std::vector<input_event> encode_frame(std::span<const float> evidence, std::int32_t predicted,
                                      const encoding_options& options);

/// A sequence as spikes (cycles relative to the sequence's start) with its true answers.
struct encoded_sequence {
    std::vector<input_event> events;
    std::vector<std::uint8_t> answers;
};

/// Encodes every frame of `s` from `features` (rows by image index).
encoded_sequence encode_sequence(const sequence& s, const feature_table& features, const encoding_options& options);

/// encode_sequence for each sequence.
std::vector<encoded_sequence> encode_sequences(const std::vector<sequence>& sequences, const feature_table& features,
                                               const encoding_options& options);

}  // namespace volley::temporal
