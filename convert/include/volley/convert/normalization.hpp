#pragma once
// Data-based weight normalisation for rate-coded conversion (Diehl et al. 2015; Rueckauer et al.
// 2017, "robust normalisation"): λ_l is the p-th percentile of the non-zero ReLU outputs of layer
// l over a normalisation set, and the output layer uses max(logits, 0).
//
// Why an exact two-pass radix select: holding every activation of a 10,000-image set costs
// gigabytes, and a sketch only bounds the error. A positive float's bit pattern is monotone in
// its value, so the first pass counts, per node, the positive values by the upper 16 bits of
// their pattern (65,536 counters); that locates the bucket of each order statistic that numpy's
// linear interpolation needs (ranks floor(r) and floor(r) + 1, r = (n − 1)·p/100). The second
// pass counts the lower 16 bits of the values in those buckets only, which pins both order
// statistics exactly. The result is numpy's np.percentile(values, p) on the float32 activations,
// in about 1.3 MiB per node (shared by the threads under a per-node lock), for any set size.

#include <volley/convert/analog_forward.hpp>

#include <cstddef>
#include <vector>

namespace volley::convert {

/// How λ is chosen per layer.
struct normalization_options {
    /// Percentile in (0, 100]; 100 is the maximum.
    double percentile = 99.9;
    /// Images of the normalisation set to use (0: all that are given).
    std::size_t max_images = 0;
    /// λ_0, the scale of the input values (1 for pixels in [0, 1]).
    double input_scale = 1.0;
    forward_options forward;
};

/// λ per node of a graph.
struct layer_scales {
    /// λ of every node, in node order. For a node with a ReLU (flag or relu kind) and for the
    /// output node, the percentile as specified; for a node without ReLU that only moves or
    /// averages values (pooling, flatten, reshape, zero_pad, identity, and concatenate when its
    /// inputs share one λ), the λ of its input; for other linear nodes, the percentile of their
    /// positive outputs. 1 where there is no positive value at all.
    std::vector<double> lambda;
    /// For each node, true when its λ was measured rather than inherited from its input.
    std::vector<bool> measured;
    /// For each node, the number of non-zero (positive) values seen.
    std::vector<std::size_t> positive_count;
    double input_scale = 1.0;  ///< λ_0
    std::size_t images = 0;    ///< images used
};

/// Computes λ per node over `images` (n, c, h, w). invalid_parameter naming the option if the
/// percentile is outside (0, 100] or there are no images.
layer_scales compute_layer_scales(const cnn_graph& graph, const tensor<float>& images,
                                  const normalization_options& options = {});

/// numpy's percentile with linear interpolation of `values` (which it sorts): the value at rank
/// (n − 1)·p/100. invalid_parameter if `values` is empty. Exposed for tests and small sets.
double percentile_linear(std::vector<float> values, double p);

}  // namespace volley::convert
