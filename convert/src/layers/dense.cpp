// Dense forward and backward as whole-slice Eigen GEMMs.

#include <volley/convert/dense.hpp>
#include <volley/error.hpp>

#include "layers/gemm.hpp"
#include "layers/he_uniform.hpp"

namespace volley::convert {

template <class T>
dense<T>::dense(std::size_t in_features, std::size_t out_features, std::uint64_t init_seed)
    : in_(in_features), out_(out_features) {
    if (in_ == 0) throw invalid_parameter("dense", "in_features", "0", "must be >= 1");
    if (out_ == 0) throw invalid_parameter("dense", "out_features", "0", "must be >= 1");
    parameter<T> kernel{"kernel", {out_, in_}, std::vector<T>(out_ * in_), false};
    detail::he_uniform(kernel.values, in_, init_seed);
    params_.push_back(std::move(kernel));
    params_.push_back({"bias", {out_}, std::vector<T>(out_), true});
}

template <class T>
shape4 dense<T>::output_shape(const shape4& in) const {
    if (in.per_image() != in_)
        throw invalid_parameter("dense '" + this->name() + "'", "input shape", to_string(in),
                                "expected " + std::to_string(in_) + " values per image");
    return {in.n, out_, 1, 1};
}

template <class T>
void dense<T>::forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>&,
                       const pass_context&) const {
    y.resize(output_shape(x.shape));
    const std::size_t n = x.shape.n;
    T* out = y.values.data();
    detail::gemm(detail::gemm_operands<T>{false, true, n, out_, in_, x.values.data(), in_,
                                          params_[0].values.data(), in_, out, out_, false});
    const T* bias = params_[1].values.data();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t o = 0; o < out_; ++o) out[i * out_ + o] += bias[o];
}

template <class T>
void dense<T>::backward(const tensor<T>& x, const tensor<T>&, const tensor<T>& dy, tensor<T>* dx,
                        std::span<std::vector<T>> grads, layer_scratch<T>&,
                        const pass_context&) const {
    const std::size_t n = x.shape.n;
    const T* d_out = dy.values.data();
    detail::gemm(detail::gemm_operands<T>{true, false, out_, in_, n, d_out, out_, x.values.data(),
                                          in_, grads[0].data(), in_, true});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t o = 0; o < out_; ++o) grads[1][o] += d_out[i * out_ + o];
    if (dx) {
        dx->resize(x.shape);
        detail::gemm(detail::gemm_operands<T>{false, false, n, in_, out_, d_out, out_,
                                              params_[0].values.data(), in_, dx->values.data(),
                                              in_, false});
    }
}

template class dense<float>;
template class dense<double>;

}  // namespace volley::convert
