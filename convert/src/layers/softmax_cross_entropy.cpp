// Softmax cross-entropy with the max-subtraction trick for stability.

#include <volley/convert/softmax_cross_entropy.hpp>
#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

namespace volley::convert {

template <class T>
double softmax_cross_entropy(const tensor<T>& logits, std::span<const std::uint8_t> labels,
                             double scale, tensor<T>* dlogits, std::size_t* correct) {
    const std::size_t n = logits.shape.n, k = logits.shape.per_image();
    if (labels.size() != n)
        throw invalid_parameter("softmax_cross_entropy", "labels", std::to_string(labels.size()),
                                "expected one per image (" + std::to_string(n) + ")");
    if (dlogits) dlogits->resize(logits.shape);
    double loss = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (labels[i] >= k)
            throw invalid_parameter("softmax_cross_entropy", "label", std::to_string(labels[i]),
                                    "must be < " + std::to_string(k));
        const T* z = logits.image(i);
        const std::size_t best = static_cast<std::size_t>(std::max_element(z, z + k) - z);
        if (correct && best == labels[i]) ++*correct;
        const double zmax = z[best];
        double sum = 0;
        for (std::size_t j = 0; j < k; ++j) sum += std::exp(static_cast<double>(z[j]) - zmax);
        const double log_sum = std::log(sum) + zmax;
        loss += log_sum - static_cast<double>(z[labels[i]]);
        if (!dlogits) continue;
        T* d = dlogits->image(i);
        for (std::size_t j = 0; j < k; ++j) {
            const double p = std::exp(static_cast<double>(z[j]) - log_sum);
            d[j] = static_cast<T>(scale * (p - (j == labels[i] ? 1.0 : 0.0)));
        }
    }
    return loss;
}

template double softmax_cross_entropy<float>(const tensor<float>&, std::span<const std::uint8_t>,
                                             double, tensor<float>*, std::size_t*);
template double softmax_cross_entropy<double>(const tensor<double>&,
                                              std::span<const std::uint8_t>, double,
                                              tensor<double>*, std::size_t*);

}  // namespace volley::convert
