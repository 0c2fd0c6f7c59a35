#pragma once
// A trained CNN as the converter sees it: a DAG of layers in topological order over CHW images,
// independent of the file it came from (Keras HDF5, Volley HDF5). The readers (cnn_readers.hpp)
// resolve every layout question at read time, so that everything downstream sees one layout:
// - activations are CHW per image (NCHW for a batch), flattening is in CHW order;
// - conv kernels are OIHW (PyTorch, cross-correlation), dense kernels are (out, in) whose input
//   index is the CHW-flattened index of the layer's input (the Keras "Flatten trap" is resolved
//   by permuting the Dense columns when the file is read);
// - BatchNorm is folded into the Conv2D/Dense before it (fold_batch_norm), Dropout is removed,
//   a Softmax on the output is removed, and a ReLU is a flag on the layer it follows.

#include <volley/convert/tensor.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace volley::convert {

/// What a node computes. Every kind may be followed by a ReLU (layer_node::relu).
enum class layer_kind : std::uint8_t {
    conv2d,       ///< 2-D cross-correlation with stride, asymmetric zero padding, dilation, groups
    dense,        ///< fully connected over the CHW-flattened input
    avg_pool,     ///< average over each window (padding cells are not counted: "valid" only)
    max_pool,     ///< maximum over each window
    flatten,      ///< (c, h, w) → (c·h·w, 1, 1), CHW order; a pure relabelling of the values
    reshape,      ///< relabels the values as another (c, h, w), optionally permuting them
    zero_pad,     ///< adds zero rows/columns around each channel
    relu,         ///< y = max(x, 0) as a node of its own (when it cannot be a flag on its input)
    add,          ///< element-wise sum of two or more inputs of equal shape (residual connections)
    concatenate,  ///< stacks the inputs along the channel axis (all with equal h and w)
    identity,     ///< y = x (e.g. a Keras Activation('linear') or InputLayer left in a graph)
};

/// The file name of a kind: "conv2d", "dense", "avg_pool", ...
std::string_view to_string(layer_kind kind) noexcept;

/// Conv2D geometry and weights. Output size per axis: (in + pad_a + pad_b − dilation·(k−1) − 1)
/// / stride + 1 (floor).
struct conv2d_spec {
    std::size_t in_channels = 1, out_channels = 1;
    std::size_t kernel_h = 1, kernel_w = 1;
    std::size_t stride_h = 1, stride_w = 1;
    std::size_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    std::size_t dilation_h = 1, dilation_w = 1;
    std::size_t groups = 1;  ///< in_channels and out_channels are multiples of groups
    /// OIHW: out_channels × (in_channels / groups) × kernel_h × kernel_w.
    std::vector<float> kernel;
    /// out_channels values (zeros when the file has no bias).
    std::vector<float> bias;
};

/// Dense weights: y = W·x + b over the CHW-flattened input.
struct dense_spec {
    std::size_t in_features = 1, out_features = 1;
    std::vector<float> kernel;  ///< (out, in) row-major; column index = CHW-flattened input index
    std::vector<float> bias;    ///< out values (zeros when the file has no bias)
};

/// Pooling window (avg_pool, max_pool), with "valid" padding only.
struct pool_spec {
    std::size_t pool_h = 2, pool_w = 2;
    std::size_t stride_h = 2, stride_w = 2;
};

/// Zero padding around each channel [pixels].
struct zero_pad_spec {
    std::size_t top = 0, bottom = 0, left = 0, right = 0;
};

/// One node of the graph.
struct layer_node {
    std::string name;         ///< the layer's name in the file (unique within the graph)
    std::string source_type;  ///< the layer's class/type in the file, e.g. "Conv2D", "conv2d"
    layer_kind kind = layer_kind::identity;
    /// Indices of the nodes this one reads, all smaller than its own index; the empty list means
    /// the model input. add/concatenate have two or more, every other kind exactly one (or none).
    std::vector<std::size_t> inputs;
    shape4 output_shape;  ///< (1, c, h, w); dense and flatten give (1, features, 1, 1)
    bool relu = false;    ///< a ReLU is applied to the output of the operation
    conv2d_spec conv;     ///< kind == conv2d
    dense_spec dense;     ///< kind == dense
    pool_spec pool;       ///< kind == avg_pool or max_pool
    zero_pad_spec pad;    ///< kind == zero_pad
    /// kind == flatten or reshape: out[i] = in[permutation[i]] over the CHW-flattened values;
    /// empty means the identity (a pure relabelling). Readers fold permutations into a following
    /// Dense wherever they can, so a non-empty one only remains where no Dense follows.
    std::vector<std::uint32_t> permutation;
};

/// A CNN as a DAG in topological order. The last node is the output (the logits; its Softmax, if
/// any, has been removed and `removed_softmax` says so).
struct cnn_graph {
    std::string source_file;  ///< for error messages
    std::string format;       ///< "keras", "keras-weights+json", "volley"
    shape4 input_shape;       ///< (1, c, h, w) of one image, channels first
    std::vector<layer_node> nodes;
    bool removed_softmax = false;
    /// Names of layers dropped at read time because they do nothing in inference (Dropout,
    /// GaussianNoise, ...), for the user's information.
    std::vector<std::string> removed_layers;

    /// The output node's index (nodes.size() − 1).
    std::size_t output() const noexcept { return nodes.size() - 1; }
    /// The number of classes (values per image of the output).
    std::size_t classes() const noexcept { return nodes.back().output_shape.per_image(); }
    /// The node called `name`; unknown_name if none is.
    std::size_t index_of(std::string_view name) const;
    /// Trainable values (kernels and biases).
    std::size_t parameter_count() const;

    /// Recomputes every output_shape from input_shape and checks the graph: inputs point
    /// backwards, weight sizes match the geometry, every weight is finite, add/concatenate shapes
    /// agree. invalid_parameter / file_format_error naming source_file, the layer and the value.
    void validate();
};

/// A description like "conv2d 'conv1' 1x28x28 -> 16x28x28 (relu)" per node, one per line.
std::string summary(const cnn_graph& graph);

/// Folds a BatchNorm (per channel γ, β, moving mean μ, moving variance v, ε) into a Conv2D or
/// Dense node (whose output channels/features it normalises):
/// W' = W·γ/σ, b' = β + (b − μ)·γ/σ, σ = √(v + ε). invalid_parameter naming the layer if the
/// channel count does not match, v + ε ≤ 0, or the node is another kind.
void fold_batch_norm(layer_node& node, const std::vector<float>& gamma,
                     const std::vector<float>& beta, const std::vector<float>& moving_mean,
                     const std::vector<float>& moving_variance, double epsilon);

}  // namespace volley::convert
