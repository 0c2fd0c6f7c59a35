#pragma once
// What the Keras and Volley writers share: ReLU folding and the reference-batch datasets.

#include <volley/convert/model_writers.hpp>

#include "io/h5_write.hpp"

#include <cstddef>

namespace volley::convert::detail {

/// True when layer `i` is a ReLU that directly follows a Conv2D or Dense layer, so that it is
/// written as that layer's `activation: relu` rather than as a layer of its own.
inline bool relu_is_folded(const sequential_model<float>& model, std::size_t i) {
    if (i == 0 || model.at(i).kind() != "relu") return false;
    const auto before = model.at(i - 1).kind();
    return before == "conv2d" || before == "dense";
}

/// True when layer `i` (a Conv2D or Dense) is followed by a ReLU folded into it.
inline bool has_folded_relu(const sequential_model<float>& model, std::size_t i) {
    return i + 1 < model.size() && relu_is_folded(model, i + 1);
}

/// Writes `/reference/{x, y, logits}`; x in NHWC when `channels_last`, else NCHW.
void write_reference_group(hid_t root, const reference_batch& reference, bool channels_last,
                           const std::string& file);

/// Writes the provenance attributes on `object`.
void write_provenance(hid_t object, const model_provenance& p, const std::string& file);

}  // namespace volley::convert::detail
