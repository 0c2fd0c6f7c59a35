#pragma once
// Integer ("quantised") mode of a converted network: every weight, threshold, bias and initial
// membrane becomes an integer of a given bit width, per layer, so that the same converted_snn
// runs on the engine with integer values only (the engine's fixed-point sums of integers are
// exact) and its dense classifier head can run unchanged on integer neuroprocessors (RISP,
// danna2: head_export.hpp). See docs/conversion.md, "Quantised (integer) mode".
//
// The rule, per spiking layer l with incoming weights W_l (the kernel or weight list of the
// projection into it, for the first layer the image map):
//   s_l = (2^(B-1) − 1) / max|W_l|         (the scale of layer l)
//   W_l ← round(W_l · s_l)                 (signed, |W| <= 2^(B-1) − 1)
//   θ_l = round(s_l)                       (the threshold 1 in units of s_l)
//   b_l ← round(b_l · s_l),  v0 ← round(v0 · θ_l)
// Rounding is to nearest, ties away from zero (std::round). The ratio W/θ, which is all an
// integrate-and-fire layer sees, changes by at most half a unit of W and of θ.
//
// With head_max_threshold > 0 the head's scale is s_l = min((2^(B-1) − 1)/max|W_l|,
// head_max_threshold): a hardware threshold range is met by spending fewer weight bits, which
// the report states (never a silent clamp of individual values).
//
// The head (the trailing layers fed by dense projections from spiking layers: for the
// reference CNN the fc layer, fed by conv2's spikes) uses the hardware's neuron: reset to 0
// after a spike (RISP and DANNA reset the charge to 0; reset by subtraction has no
// equivalent there), and it starts at charge 0 whatever v0 is (neither takes an initial
// charge). The rest of the network keeps the conversion's reset rule and v0.

#include <volley/convert/snn_conversion.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace volley::convert {

/// Quantisation settings.
struct quantization_options {
    int bits = 8;                ///< B: weights in [−(2^(B−1)−1), 2^(B−1)−1]; 2..31
    bool hardware_head = true;   ///< the head resets to 0 and starts at 0 (as RISP and danna2 do)
    /// When > 0, the scale of every head layer is at most this, so that its threshold fits a
    /// neuroprocessor (danna2: thresholds up to 1023, head_threshold_limit()); the head's
    /// weights then use fewer than B bits, and quantized_layer::scale_limited says so.
    double head_max_threshold = 0;
};

/// What quantisation did to one spiking layer.
struct quantized_layer {
    std::string name;
    double scale = 1;             ///< s_l
    double max_abs_weight = 0;    ///< max|W_l| before quantisation
    std::int64_t threshold = 1;   ///< θ_l = round(s_l)
    std::int64_t max_abs_bias = 0;  ///< max|round(b_l · s_l)|
    bool head = false;            ///< part of the classifier head
    bool scale_limited = false;   ///< s_l was lowered to head_max_threshold
};

/// A converted network in integer mode.
struct quantized_snn {
    converted_snn snn;                   ///< the same layers and projections, integer-valued
    int bits = 8;
    std::vector<quantized_layer> layers; ///< one per snn.layers entry
    std::size_t head_first = 0;          ///< index of the first head layer in snn.layers
};

/// The index of the first layer of the classifier head: the trailing layers whose input is an
/// all_to_all (dense) projection from another spiking layer. Equals net.layers.size() when the
/// output layer is not dense (no head).
std::size_t head_start(const converted_snn& net);

/// Quantises `net` with the rule above. invalid_parameter naming the value for bits outside
/// 2..31, unsupported_model naming the layer for a layer whose weights are all zero or whose
/// threshold would round to 0 (a weight above 2^B threshold units).
quantized_snn quantize_snn(const converted_snn& net, const quantization_options& options = {});

}  // namespace volley::convert
