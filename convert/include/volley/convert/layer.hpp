#pragma once
// The common interface of the trainable CNN layers. A layer owns its parameters but no
// activations: forward and backward take the buffers of one thread's slice of the batch, so one
// layer object serves every OpenMP thread at once (trainer.hpp reduces their gradients).

#include <volley/convert/tensor.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace volley::convert {

/// Training mode uses batch statistics (BatchNorm) and drops units (Dropout); inference does not.
enum class run_mode { inference, training };

/// Facts a forward pass needs besides its input.
struct pass_context {
    run_mode mode = run_mode::inference;
    /// Seed and step of the random streams (Dropout masks are keyed by seed, step and sample).
    std::uint64_t seed = 0, step = 0;
    /// Index, within the whole batch, of this slice's first image.
    std::size_t first_image = 0;
};

/// One trainable array of a layer, stored in Volley layout (conv kernels OIHW, dense (out, in)).
template <class T>
struct parameter {
    std::string name;                ///< Keras weight name: "kernel", "bias", "gamma", "beta"
    std::vector<std::size_t> shape;  ///< Volley layout
    std::vector<T> values;
    /// Biases and BatchNorm parameters: no weight decay (LARS: a bias takes its layer's
    /// weights' trust ratio, BatchNorm's beta its gamma's; optimizer.hpp).
    bool is_bias_like = false;
};

/// Per-thread, per-layer memory that a forward pass leaves for its backward pass.
template <class T>
struct layer_scratch {
    std::vector<T> columns;              ///< im2col buffer (Conv2D)
    std::vector<T> saved;                ///< normalised inputs (BatchNorm), masks (Dropout)
    std::vector<T> statistics;           ///< the micro-batch's mean and variance per channel (BatchNorm)
    /// What a layer accumulates over a training step's micro-batches for finish_training_step
    /// (BatchNorm: its statistics, weighted by their counts); the trainer empties it before each
    /// step.
    std::vector<double> step_statistics;
    std::vector<std::uint32_t> indices;  ///< arg-max positions (MaxPool)
};

/// A CNN layer with forward and backward passes over NCHW tensors.
template <class T>
class layer {
public:
    virtual ~layer() = default;

    /// The kind, as written to files: "conv2d", "dense", "relu", "maxpool2d", ...
    virtual std::string kind() const = 0;
    /// The layer's unique name within its model, e.g. "conv2d_1".
    const std::string& name() const noexcept { return name_; }
    void set_name(std::string name) { name_ = std::move(name); }

    /// The output shape for `input`; invalid_parameter naming the layer if it cannot take it.
    virtual shape4 output_shape(const shape4& input) const = 0;

    /// Computes y from x; `y` is resized as needed.
    virtual void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                         const pass_context& ctx) const = 0;

    /// Given dL/dy, adds dL/dθ into `parameter_gradients` (one vector per parameter, in the
    /// order of parameters()) and writes dL/dx into `dx` unless it is null.
    virtual void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy,
                          tensor<T>* dx, std::span<std::vector<T>> parameter_gradients,
                          layer_scratch<T>& scratch, const pass_context& ctx) const = 0;

    /// The trainable parameters (empty for parameter-free layers).
    virtual std::span<parameter<T>> parameters() { return {}; }
    std::span<const parameter<T>> parameters() const {
        auto p = const_cast<layer*>(this)->parameters();
        return {p.data(), p.size()};
    }

    /// Called once after each training step with every slice's scratch, in slice order
    /// (BatchNorm updates its moving statistics from their step_statistics here).
    virtual void finish_training_step(std::span<const layer_scratch<T>* const> /*scratches*/) {}

private:
    std::string name_;
};

template <class T>
using layer_ptr = std::unique_ptr<layer<T>>;

}  // namespace volley::convert
