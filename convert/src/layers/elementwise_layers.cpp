// ReLU, Dropout and Flatten.

#include <volley/convert/elementwise_layers.hpp>
#include <volley/error.hpp>

#include "random_stream.hpp"

#include <algorithm>

namespace volley::convert {

template <class T>
void relu<T>::forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>&,
                      const pass_context&) const {
    y.resize(x.shape);
    for (std::size_t k = 0; k < x.values.size(); ++k) y.values[k] = std::max(x.values[k], T(0));
}

template <class T>
void relu<T>::backward(const tensor<T>& x, const tensor<T>&, const tensor<T>& dy, tensor<T>* dx,
                       std::span<std::vector<T>>, layer_scratch<T>&, const pass_context&) const {
    if (!dx) return;
    dx->resize(x.shape);
    for (std::size_t k = 0; k < x.values.size(); ++k)
        dx->values[k] = x.values[k] > T(0) ? dy.values[k] : T(0);
}

template <class T>
dropout<T>::dropout(double rate) : rate_(rate) {
    if (!(rate >= 0 && rate < 1))
        throw invalid_parameter("dropout", "rate", std::to_string(rate), "must be in [0, 1)");
}

template <class T>
void dropout<T>::forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                         const pass_context& ctx) const {
    y.resize(x.shape);
    if (ctx.mode == run_mode::inference || rate_ == 0) {
        y.values = x.values;
        scratch.saved.assign(x.values.size(), T(1));
        return;
    }
    const T keep_scale = static_cast<T>(1 / (1 - rate_));
    const std::size_t per_image = x.shape.per_image();
    scratch.saved.resize(x.values.size());
    for (std::size_t i = 0; i < x.shape.n; ++i) {
        const std::uint64_t image_key = (ctx.step << 24) ^ (ctx.first_image + i);
        for (std::size_t k = 0; k < per_image; ++k) {
            const double u = detail::uniform01(ctx.seed ^ 0x64726f70ULL, image_key, k);
            const T m = u < rate_ ? T(0) : keep_scale;
            scratch.saved[i * per_image + k] = m;
            y.values[i * per_image + k] = x.values[i * per_image + k] * m;
        }
    }
}

template <class T>
void dropout<T>::backward(const tensor<T>& x, const tensor<T>&, const tensor<T>& dy,
                          tensor<T>* dx, std::span<std::vector<T>>, layer_scratch<T>& scratch,
                          const pass_context&) const {
    if (!dx) return;
    dx->resize(x.shape);
    for (std::size_t k = 0; k < x.values.size(); ++k)
        dx->values[k] = dy.values[k] * scratch.saved[k];
}

template <class T>
void flatten<T>::forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>&,
                         const pass_context&) const {
    y.resize(output_shape(x.shape));
    std::copy(x.values.begin(), x.values.end(), y.values.begin());
}

template <class T>
void flatten<T>::backward(const tensor<T>& x, const tensor<T>&, const tensor<T>& dy,
                          tensor<T>* dx, std::span<std::vector<T>>, layer_scratch<T>&,
                          const pass_context&) const {
    if (!dx) return;
    dx->resize(x.shape);
    std::copy(dy.values.begin(), dy.values.end(), dx->values.begin());
}

template class relu<float>;
template class relu<double>;
template class dropout<float>;
template class dropout<double>;
template class flatten<float>;
template class flatten<double>;

}  // namespace volley::convert
