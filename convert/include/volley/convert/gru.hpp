#pragma once
// A gated recurrent unit (GRU) layer over batches of fixed-length sequences, with
// backpropagation through time.
//
// The layer interface of layer.hpp carries NCHW images; a recurrent layer needs (batch, time,
// features) and a state that runs along time, so the GRU has its own small interface. It reuses
// the trainer's parameter<T> type: parameters() lists its arrays exactly as dense::parameters()
// does, so the optimisers of optimizer.hpp update them unchanged.

#include <volley/convert/layer.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace volley::convert {

/// The extent of a batch of sequences: n sequences of `steps` frames of `features` values.
struct sequence_shape {
    std::size_t n = 0, steps = 0, features = 0;

    /// Values per sequence (steps·features).
    std::size_t per_sequence() const noexcept { return steps * features; }
    /// Values in the whole batch (n·steps·features).
    std::size_t size() const noexcept { return n * per_sequence(); }
    friend bool operator==(const sequence_shape&, const sequence_shape&) = default;
};

/// "(n, steps, features)", for error messages.
inline std::string to_string(const sequence_shape& s) {
    std::string out = "(";
    out.append(std::to_string(s.n)).append(", ").append(std::to_string(s.steps));
    out.append(", ").append(std::to_string(s.features));
    return out.append(")");
}

/// A batch of sequences owning its values; element (i, t, f) is at (i·steps + t)·features + f.
template <class T>
struct sequence_tensor {
    sequence_shape shape;
    std::vector<T> values;

    sequence_tensor() = default;
    explicit sequence_tensor(const sequence_shape& s, T fill = T(0))
        : shape(s), values(s.size(), fill) {}

    /// Reshapes to `s`, reusing storage; the values are unspecified afterwards.
    void resize(const sequence_shape& s) {
        shape = s;
        values.resize(s.size());
    }
    /// The first value of frame t of sequence i.
    T* frame(std::size_t i, std::size_t t) noexcept {
        return values.data() + (i * shape.steps + t) * shape.features;
    }
    const T* frame(std::size_t i, std::size_t t) const noexcept {
        return values.data() + (i * shape.steps + t) * shape.features;
    }
};

/// What a GRU forward pass keeps for its backward pass (one per thread).
template <class T>
struct gru_scratch {
    /// Per (sequence, frame): the gate values z, r and the candidate h~, 3·hidden values.
    std::vector<T> gates;
    /// Backward temporaries: pre-activation gradients per (sequence, frame) and per-step rows.
    std::vector<T> d_pre, d_state, d_previous, d_reset_state, reset_state;
};

/// A GRU in the form of Chung et al. 2014 ("Empirical evaluation of gated recurrent neural
/// networks on sequence modeling"); for input x_t and state h_{t-1} (h_{-1} = 0):
///
///     z_t  = σ(W_z x_t + U_z h_{t-1} + b_z)                 update gate
///     r_t  = σ(W_r x_t + U_r h_{t-1} + b_r)                 reset gate
///     h~_t = tanh(W_h x_t + U_h (r_t ⊙ h_{t-1}) + b_h)      candidate (reset before U_h)
///     h_t  = (1 − z_t) ⊙ h_{t-1} + z_t ⊙ h~_t
///
/// Conventions differ elsewhere. Cho et al. 2014 (eq. 7), PyTorch's nn.GRU and Keras put z on
/// the old state, h_t = z ⊙ h_{t-1} + (1 − z) ⊙ h~_t; the two are the same model with z ↔ 1 − z
/// (negate W_z, U_z and b_z). PyTorch also resets after the product, h~ = tanh(W_h x + b_ih +
/// r ⊙ (U_h h + b_hh)) (Keras' reset_after=True); this layer resets before it, as Cho et al.
/// and Keras' reset_after=False do, with one bias per gate.
///
/// Parameters, gate blocks in the order (z, r, h~): "kernel" W (3·hidden, features),
/// "recurrent_kernel" U (3·hidden, hidden) and "bias" b (3·hidden).
template <class T>
class gru {
public:
    /// W is Glorot-uniform (limit √(6/(features + hidden))), U is uniform in ±√(1/hidden) and b
    /// is zero, all from streams keyed by `init_seed`. invalid_parameter if a size is 0.
    gru(std::size_t input_features, std::size_t hidden, std::uint64_t init_seed);

    std::size_t input_features() const noexcept { return in_; }
    std::size_t hidden() const noexcept { return hidden_; }
    /// Trainable values in all three arrays: 3·hidden·(features + hidden + 1).
    std::size_t parameter_count() const noexcept;

    /// Checks that `x` has input_features() values per frame and at least one frame;
    /// invalid_parameter naming `who` and the bad value otherwise.
    void check_input(const sequence_shape& x, const std::string& who = "gru") const;

    /// Computes the states h (n, steps, hidden) from x (n, steps, features); `h` is resized.
    /// Keeps the gate values in `scratch` for backward().
    void forward(const sequence_tensor<T>& x, sequence_tensor<T>& h, gru_scratch<T>& scratch) const;

    /// Backpropagation through time. `dh` (shape of h) is dL/dh_t from outside the recurrence
    /// (the head), for every frame. Adds dL/dθ into `parameter_gradients` (one vector per
    /// parameter, in the order of parameters()) and writes dL/dx into `dx` unless it is null.
    /// `x`, `h` and `scratch` must be those of the matching forward().
    void backward(const sequence_tensor<T>& x, const sequence_tensor<T>& h,
                  const sequence_tensor<T>& dh, sequence_tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, gru_scratch<T>& scratch) const;

    /// kernel, recurrent_kernel, bias.
    std::span<parameter<T>> parameters() noexcept { return params_; }
    std::span<const parameter<T>> parameters() const noexcept { return params_; }

private:
    std::size_t in_, hidden_;
    std::vector<parameter<T>> params_;
};

}  // namespace volley::convert
