#pragma once
// The loss of a binary answer: a sigmoid over one logit, then the cross-entropy with a target.

#include <cstddef>
#include <cstdint>
#include <span>

namespace volley::convert {

/// Returns Σ_k mask_k·ℓ(a_k, y_k) over the logits a, with targets y in [0, 1] and
///     ℓ(a, y) = −y·log σ(a) − (1 − y)·log(1 − σ(a)) = max(a, 0) − a·y + log(1 + e^{−|a|}),
/// the form that neither overflows nor loses precision for large |a|. An empty `mask` scores
/// every logit; otherwise mask_k ∈ {0, 1} (0: the answer is ignored, its target unread).
/// If `dlogits` is not empty it receives `scale`·mask_k·(σ(a_k) − y_k), the gradient of
/// `scale`·loss (0 where masked). `correct`, if not null, is incremented by the scored answers
/// whose decision (a > 0) matches y ≥ 0.5. invalid_parameter if the sizes differ or a scored
/// target is outside [0, 1] (naming its index and value).
template <class T>
double sigmoid_binary_cross_entropy(std::span<const T> logits, std::span<const T> targets,
                                    std::span<const std::uint8_t> mask, double scale,
                                    std::span<T> dlogits, std::size_t* correct = nullptr);

}  // namespace volley::convert
