// Dense forward and backward as whole-slice Eigen GEMMs.

#include <volley/convert/dense.hpp>
#include <volley/error.hpp>

#include "layers/he_uniform.hpp"

#include <Eigen/Core>

namespace volley::convert {

namespace {

template <class T>
using row_matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

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
    const auto n = static_cast<Eigen::Index>(x.shape.n);
    const Eigen::Map<const row_matrix<T>> in(x.values.data(), n, in_);
    const Eigen::Map<const row_matrix<T>> w(params_[0].values.data(), out_, in_);
    const Eigen::Map<const Eigen::RowVector<T, Eigen::Dynamic>> b(params_[1].values.data(), out_);
    Eigen::Map<row_matrix<T>> out(y.values.data(), n, out_);
    out.noalias() = in * w.transpose();
    out.rowwise() += b;
}

template <class T>
void dense<T>::backward(const tensor<T>& x, const tensor<T>&, const tensor<T>& dy, tensor<T>* dx,
                        std::span<std::vector<T>> grads, layer_scratch<T>&,
                        const pass_context&) const {
    const auto n = static_cast<Eigen::Index>(x.shape.n);
    const Eigen::Map<const row_matrix<T>> in(x.values.data(), n, in_);
    const Eigen::Map<const row_matrix<T>> d_out(dy.values.data(), n, out_);
    Eigen::Map<row_matrix<T>> dw(grads[0].data(), out_, in_);
    Eigen::Map<Eigen::RowVector<T, Eigen::Dynamic>> db(grads[1].data(), out_);
    dw.noalias() += d_out.transpose() * in;
    db += d_out.colwise().sum();
    if (dx) {
        dx->resize(x.shape);
        const Eigen::Map<const row_matrix<T>> w(params_[0].values.data(), out_, in_);
        Eigen::Map<row_matrix<T>> d_in(dx->values.data(), n, in_);
        d_in.noalias() = d_out * w;
    }
}

template class dense<float>;
template class dense<double>;

}  // namespace volley::convert
