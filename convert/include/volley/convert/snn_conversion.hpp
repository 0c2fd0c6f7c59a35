#pragma once
// CNN-to-SNN conversion by rate coding (Rueckauer et al. 2017; Diehl et al. 2015), built as an
// snn::network that the engine runs: every ReLU layer becomes a population of integrate-and-fire
// discrete_neuron units with threshold 1, joined by convolution projections (one shared kernel)
// and, for dense layers, all_to_all projections with a weight list. Weights are rescaled layer by
// layer with the data-based λ of normalization.hpp: W_l ← W_l·λ_{l−1}/λ_l, b_l ← b_l/λ_l.
//
// The graph may be a DAG (Add, Concatenate). Each node's value is kept as a sum of terms, each
// the rates of one spiking layer carried through linear moves (and at most one Conv2D/Dense);
// a node with a ReLU (and the output) becomes an IF population with one projection per term,
// each rescaled by its own source's λ: an Add of branches is several projections into one
// population, a Concatenate gives the next layer one projection per part, each with its slice
// of the kernel.
//
// Linear layers without neurons are folded into the projection that follows them: an average
// pool whose windows tile its input becomes part of the next convolution's kernel (pool then
// conv is one convolution with stride·pool and a kernel spread over the pooled cells), zero
// padding becomes the convolution's padding, and Flatten (with its permutation) becomes the
// column order of the next dense layer. Every projection has zero delay: the engine updates the
// layers in order within each step, so a step is one update of the whole network, as in the
// numpy reference of CONVERSION.md and SNN Toolbox. See docs/conversion.md.

#include <volley/convert/cnn_graph.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/snn/network.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace volley::convert {

/// How the image drives the first layer.
enum class input_coding : std::uint8_t {
    constant_current,  ///< W·x + b as a constant input current every step (the default, most accurate)
    poisson,           ///< per pixel and step, a Poisson number of input events of mean x·max_rate
    bernoulli,         ///< per pixel and step, one input spike with probability x·max_rate
    /// Time to first spike: pixel x in (0, 1] emits one event at step t = min(K − 1,
    /// round((1 − x)·K)) of a window of K = ttfs_window steps (x = 0: none); the first layer's
    /// input synapses latch it as a held current of the decoded value 1 − t/K from then on
    /// (docs/conversion.md, "Input coding").
    ttfs,
};

/// What a neuron's membrane does after a spike.
enum class reset_rule : std::uint8_t {
    subtract,  ///< v ← v − 1 (reset by subtraction: keeps the surplus; the default)
    zero,      ///< v ← 0
};

/// Conversion settings.
struct conversion_options {
    reset_rule reset = reset_rule::subtract;
    double v0 = 0;  ///< initial membrane potential of every neuron, in units of the threshold (0 or 0.5)
    input_coding input = input_coding::constant_current;
    double max_rate = 1.0;  ///< input events per step at pixel value 1 (poisson, bernoulli: in (0, 1])
    std::int64_t ttfs_window = 16;  ///< ttfs: the window K of first-spike times [steps], >= 2
    /// Replace MaxPool2D by an average pool. False (the default): a gated max-pool (SNN
    /// Toolbox's fir_max), a max_pool_gate projection into a relay population of one unit per
    /// window that passes the spikes of the window's input with the highest count so far.
    bool max_pool_as_avg = false;
};

/// One population of integrate-and-fire neurons of the converted network.
struct spiking_layer {
    std::string name;  ///< the graph node it stands for
    std::size_t node = 0;
    snn::population_index population;
    std::size_t channels = 0, height = 0, width = 0;  ///< CHW map (dense: features x 1 x 1)
    double lambda = 1;   ///< λ of the node
    std::size_t size() const noexcept { return channels * height * width; }
};

/// The converted network and what a driver needs to feed it one image at a time.
struct converted_snn {
    snn::network network;
    std::vector<spiking_layer> layers;  ///< in order; the last is the output layer
    /// The spike-coded input (an analog_source of one neuron per pixel); none for the
    /// constant-current coding, which feeds the first layer through its bias instead.
    std::optional<snn::population_index> input;
    std::size_t channels = 0, height = 0, width = 0;  ///< the image (CHW)
    conversion_options options;
    std::string source_file;  ///< the model file, for error messages

    /// The first layer's linear map from the image (the weights already scaled by λ_0/λ_1, and
    /// by 1/max_rate for spike codings): a convolution, or all_to_all with `first_weights`.
    snn::connector first_map;
    std::vector<double> first_weights;  ///< all_to_all only: [pixel * n_first + neuron]
    std::vector<double> first_bias;     ///< b_1/λ_1 per neuron of the first layer

    std::size_t image_size() const noexcept { return channels * height * width; }
    std::size_t classes() const noexcept { return layers.back().size(); }
    /// The constant input current of each first-layer neuron for one image (CHW pixels):
    /// (W_1·λ_0/λ_1)·x + b_1/λ_1. invalid_parameter naming the model file if the image size differs.
    std::vector<double> first_layer_current(std::span<const float> image) const;
};

/// Builds the spiking network of `graph` (BatchNorm already folded) with the per-node λ of
/// `scales`. Throws unsupported_model naming the layer, its type and the closest supported
/// alternative for what the conversion cannot express (two linear layers in a row that do not
/// compose, i.e. other than a conv then a 1x1 conv or a dense then a dense; an average pool
/// whose windows do not tile its input; a Concatenate of a layer without ReLU; the image read
/// by more than one spiking layer; a gated max-pool that does not read a ReLU layer directly),
/// and invalid_parameter for bad options or a λ that is not finite and positive.
converted_snn convert_to_snn(const cnn_graph& graph, const layer_scales& scales, const conversion_options& options = {});

/// "subtract" / "zero", "const" / "poisson" / "bernoulli" / "ttfs".
std::string to_string(reset_rule r);
std::string to_string(input_coding c);

}  // namespace volley::convert
