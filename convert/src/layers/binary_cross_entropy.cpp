// Sigmoid binary cross-entropy in its logit form.

#include <volley/convert/binary_cross_entropy.hpp>
#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace volley::convert {

template <class T>
double sigmoid_binary_cross_entropy(std::span<const T> logits, std::span<const T> targets,
                                    std::span<const std::uint8_t> mask, double scale,
                                    std::span<T> dlogits, std::size_t* correct) {
    const std::size_t n = logits.size();
    const char* who = "sigmoid_binary_cross_entropy";
    if (targets.size() != n)
        throw invalid_parameter(who, "targets", std::to_string(targets.size()),
                                "expected one per logit (" + std::to_string(n) + ")");
    if (!mask.empty() && mask.size() != n)
        throw invalid_parameter(who, "mask", std::to_string(mask.size()),
                                "expected one flag per logit (" + std::to_string(n) + ")");
    if (!dlogits.empty() && dlogits.size() != n)
        throw invalid_parameter(who, "logit gradients", std::to_string(dlogits.size()),
                                "expected one per logit (" + std::to_string(n) + ")");
    double loss = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (!mask.empty() && mask[k] == 0) {
            if (!dlogits.empty()) dlogits[k] = T(0);
            continue;
        }
        const double a = static_cast<double>(logits[k]), y = static_cast<double>(targets[k]);
        if (!(y >= 0 && y <= 1))
            throw invalid_parameter(who, "target " + std::to_string(k), std::to_string(y),
                                    "must be in [0, 1]");
        loss += std::max(a, 0.0) - a * y + std::log1p(std::exp(-std::abs(a)));
        if (correct && (a > 0) == (y >= 0.5)) ++*correct;
        if (!dlogits.empty()) {
            const double p = a >= 0 ? 1 / (1 + std::exp(-a)) : std::exp(a) / (1 + std::exp(a));
            dlogits[k] = static_cast<T>(scale * (p - y));
        }
    }
    return loss;
}

template double sigmoid_binary_cross_entropy<float>(std::span<const float>, std::span<const float>,
                                                    std::span<const std::uint8_t>, double,
                                                    std::span<float>, std::size_t*);
template double sigmoid_binary_cross_entropy<double>(std::span<const double>,
                                                     std::span<const double>,
                                                     std::span<const std::uint8_t>, double,
                                                     std::span<double>, std::size_t*);

}  // namespace volley::convert
