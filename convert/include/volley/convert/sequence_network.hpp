#pragma once
// A GRU followed by a dense head with one sigmoid output, trained with binary cross-entropy:
// the forward and backward passes of sequence_classifier, in any precision (double for the
// gradient checks, float for training).

#include <volley/convert/dense.hpp>
#include <volley/convert/gru.hpp>
#include <volley/convert/tensor.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace volley::convert {

/// Where the binary answers are read.
enum class sequence_answer {
    per_sequence,  ///< one answer per sequence, from the last frame's state h_{K-1}
    per_frame,     ///< one answer per frame, from every state h_t, scored where the mask says
};

/// The shape of a sequence_network.
struct sequence_network_config {
    std::size_t input_features = 10;  ///< values per frame
    std::size_t steps = 8;            ///< frames per sequence (K)
    std::size_t hidden = 16;          ///< GRU units (H)
    sequence_answer answer = sequence_answer::per_sequence;
    /// per_frame only: one flag per frame, 1 = that frame's answer is scored, 0 = ignored (e.g.
    /// scored_frames_from(8, 1) for "did the class change since frame t−1"). Empty: every frame.
    /// Must be empty for per_sequence.
    std::vector<std::uint8_t> scored_frames;
    std::uint64_t init_seed = 1;  ///< weight initialisation
};

/// Flags for frames first..steps−1 scored and 0..first−1 ignored.
std::vector<std::uint8_t> scored_frames_from(std::size_t steps, std::size_t first);

/// One thread's buffers for sequence_network passes.
template <class T>
struct sequence_workspace {
    gru_scratch<T> recurrent;
    sequence_tensor<T> states, d_states;
    tensor<T> head_in, head_out, d_head_out, d_head_in;
    layer_scratch<T> head;
    std::vector<std::uint8_t> mask;
};

/// GRU(hidden) → dense(hidden → 1) → sigmoid. Parameters, in the order of parameters() and of
/// the gradient vectors: "kernel", "recurrent_kernel", "bias" of the GRU, then "kernel" (1,
/// hidden) and "bias" (1) of the head.
template <class T>
class sequence_network {
public:
    /// invalid_parameter naming the bad field of `config` (a size of 0, a mask of the wrong
    /// length, with no scored frame, or given in per_sequence mode).
    explicit sequence_network(const sequence_network_config& config);

    const sequence_network_config& config() const noexcept { return config_; }
    /// Logits (and targets) per sequence: 1 (per_sequence) or steps (per_frame).
    std::size_t answers_per_sequence() const noexcept;
    /// Scored answers per sequence: 1, or the number of scored frames.
    std::size_t scored_per_sequence() const noexcept;
    /// Trainable values: 3·H·(F + H + 1) + H + 1.
    std::size_t parameter_count() const noexcept;

    /// Checks `x` against the configuration (feature width, frames, value count) and, unless
    /// `targets` is null, that there is one target per answer, each scored one in [0, 1].
    /// invalid_parameter naming `who` and the bad value.
    void check_batch(const sequence_tensor<T>& x, const std::span<const T>* targets,
                     const std::string& who) const;

    /// The logits of `x`: n values (per_sequence) or n·steps, frame-major within a sequence
    /// (per_frame; unscored frames included).
    void logits(const sequence_tensor<T>& x, std::vector<T>& out, sequence_workspace<T>& ws) const;

    /// Returns the summed binary cross-entropy of `x` against `targets` (laid out like logits())
    /// over the scored answers; adds `scale`·dloss/dθ into `gradients` (5 vectors sized like
    /// parameters()) and writes `scale`·dloss/dx into `dx` unless it is null. `correct`, if not
    /// null, is incremented by the scored answers decided right.
    double loss_and_gradients(const sequence_tensor<T>& x, std::span<const T> targets, double scale,
                              std::span<std::vector<T>> gradients, sequence_workspace<T>& ws,
                              std::size_t* correct = nullptr,
                              sequence_tensor<T>* dx = nullptr) const;

    /// The five parameter arrays (GRU kernel, recurrent kernel, bias; head kernel, bias).
    std::vector<parameter<T>*> parameters();
    std::vector<const parameter<T>*> parameters() const;

    gru<T>& recurrent() noexcept { return recurrent_; }
    const gru<T>& recurrent() const noexcept { return recurrent_; }
    dense<T>& head() noexcept { return head_; }
    const dense<T>& head() const noexcept { return head_; }

private:
    void forward(const sequence_tensor<T>& x, sequence_workspace<T>& ws) const;

    sequence_network_config config_;
    gru<T> recurrent_;
    dense<T> head_;
};

}  // namespace volley::convert
