#pragma once
// The analog (non-spiking) forward pass of a cnn_graph: the CNN as trained, used for the CNN's
// own accuracy, for the reference logits and for data-based normalisation.

#include <volley/convert/cnn_graph.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace volley::convert {

/// Sees the output of every node for every image of a batch. Called once per node per image,
/// after the node (and its ReLU, if any) ran, with the image's index in the batch and the CHW
/// values. Calls for one image come in node order; calls for different images may come from
/// different threads at once, so the visitor must be thread-safe (or the pass single-threaded).
using activation_visitor =
    std::function<void(std::size_t image, std::size_t node, std::span<const float> values)>;

/// Options of an analog forward pass.
struct forward_options {
    /// OpenMP threads (0: the OpenMP default). The result does not depend on it: each image is
    /// computed alone, in a fixed order.
    int threads = 0;
};

/// Runs `graph` on `images` ((n, c, h, w), matching graph.input_shape) and returns the logits
/// (n, classes, 1, 1). invalid_parameter naming the graph's file and both shapes if the image
/// shape does not match. With a visitor, every node's output of every image is shown to it.
tensor<float> analog_forward(const cnn_graph& graph, const tensor<float>& images,
                             const forward_options& options = {},
                             const activation_visitor& visitor = {});

/// The same for one image of `graph.input_shape.per_image()` values; returns the logits.
std::vector<float> analog_forward_one(const cnn_graph& graph, std::span<const float> image,
                                      const activation_visitor& visitor = {});

/// The class of each image of `logits` ((n, classes, 1, 1)): its largest logit's index, the
/// first one on ties.
std::vector<std::int32_t> argmax_rows(const tensor<float>& logits);

}  // namespace volley::convert
