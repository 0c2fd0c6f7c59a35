#pragma once
// The training loss: softmax over the logits of each image, then the cross-entropy with its label.

#include <volley/convert/tensor.hpp>

#include <cstdint>
#include <span>

namespace volley::convert {

/// Returns Σ_i −log softmax(logits_i)[label_i] over the images of `logits` (shape (n, k, 1, 1)).
/// If `dlogits` is not null it receives `scale`·(softmax − one-hot), i.e. the gradient of
/// `scale`·loss. `correct`, if not null, is incremented by the number of arg-max hits.
/// invalid_parameter if a label is ≥ k or the sizes differ.
template <class T>
double softmax_cross_entropy(const tensor<T>& logits, std::span<const std::uint8_t> labels,
                             double scale, tensor<T>* dlogits, std::size_t* correct = nullptr);

}  // namespace volley::convert
