// Conv2D forward and backward by im2col + Eigen GEMM, one image at a time.

#include <volley/convert/conv2d.hpp>
#include <volley/error.hpp>

#include "layers/gemm.hpp"
#include "layers/he_uniform.hpp"
#include "layers/im2col.hpp"

#include <algorithm>


namespace volley::convert {

namespace {

template <class T>
detail::conv_geometry geometry(const conv2d_config& c, const shape4& in, const shape4& out) {
    return {in.c, in.h, in.w, c.kernel_h, c.kernel_w, c.stride, c.padding, out.h, out.w};
}

}  // namespace

template <class T>
conv2d<T>::conv2d(const conv2d_config& config, std::uint64_t init_seed) : config_(config) {
    const auto check = [](const char* what, std::size_t v) {
        if (v == 0) throw invalid_parameter("conv2d", what, "0", "must be >= 1");
    };
    check("in_channels", config.in_channels);
    check("out_channels", config.out_channels);
    check("kernel_h", config.kernel_h);
    check("kernel_w", config.kernel_w);
    check("stride", config.stride);
    const std::size_t fan_in = config.in_channels * config.kernel_h * config.kernel_w;
    parameter<T> kernel{"kernel",
                        {config.out_channels, config.in_channels, config.kernel_h, config.kernel_w},
                        std::vector<T>(config.out_channels * fan_in),
                        false};
    detail::he_uniform(kernel.values, fan_in, init_seed);
    params_.push_back(std::move(kernel));
    params_.push_back({"bias", {config.out_channels}, std::vector<T>(config.out_channels), true});
}

template <class T>
shape4 conv2d<T>::output_shape(const shape4& in) const {
    if (in.c != config_.in_channels)
        throw invalid_parameter("conv2d '" + this->name() + "'", "input channels",
                                std::to_string(in.c),
                                "expected " + std::to_string(config_.in_channels));
    const std::size_t ph = in.h + 2 * config_.padding, pw = in.w + 2 * config_.padding;
    if (ph < config_.kernel_h || pw < config_.kernel_w)
        throw invalid_parameter("conv2d '" + this->name() + "'", "input shape", to_string(in),
                                "smaller than the kernel");
    return {in.n, config_.out_channels, (ph - config_.kernel_h) / config_.stride + 1,
            (pw - config_.kernel_w) / config_.stride + 1};
}

template <class T>
void conv2d<T>::forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                        const pass_context&) const {
    y.resize(output_shape(x.shape));
    const auto g = geometry<T>(config_, x.shape, y.shape);
    const std::size_t rows = g.channels * g.kernel_h * g.kernel_w, plane = g.out_h * g.out_w;
    scratch.columns.resize(rows * plane);
    const T* w = params_[0].values.data();
    const T* bias = params_[1].values.data();
    const std::size_t out = config_.out_channels;
    for (std::size_t i = 0; i < x.shape.n; ++i) {
        detail::im2col(x.image(i), g, scratch.columns.data());
        T* y_i = y.image(i);
        detail::gemm(detail::gemm_operands<T>{false, false, out, plane, rows, w, rows,
                                              scratch.columns.data(), plane, y_i, plane, false});
        for (std::size_t o = 0; o < out; ++o)
            for (std::size_t k = 0; k < plane; ++k) y_i[o * plane + k] += bias[o];
    }
}

template <class T>
void conv2d<T>::backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy,
                         tensor<T>* dx, std::span<std::vector<T>> grads,
                         layer_scratch<T>& scratch, const pass_context&) const {
    const auto g = geometry<T>(config_, x.shape, y.shape);
    const std::size_t rows = g.channels * g.kernel_h * g.kernel_w, plane = g.out_h * g.out_w;
    scratch.columns.resize(2 * rows * plane);
    T* cols_data = scratch.columns.data();
    T* dcols_data = cols_data + rows * plane;
    const T* w = params_[0].values.data();
    T* dw = grads[0].data();
    T* db = grads[1].data();
    const std::size_t out = config_.out_channels;
    if (dx) {
        dx->resize(x.shape);
        std::fill(dx->values.begin(), dx->values.end(), T(0));
    }
    for (std::size_t i = 0; i < x.shape.n; ++i) {
        detail::im2col(x.image(i), g, cols_data);
        const T* d_out = dy.image(i);
        detail::gemm(detail::gemm_operands<T>{false, true, out, rows, plane, d_out, plane,
                                              cols_data, plane, dw, rows, true});
        for (std::size_t o = 0; o < out; ++o) {
            T sum = 0;
            for (std::size_t k = 0; k < plane; ++k) sum += d_out[o * plane + k];
            db[o] += sum;
        }
        if (dx) {
            detail::gemm(detail::gemm_operands<T>{true, false, rows, plane, out, w, rows, d_out,
                                                  plane, dcols_data, plane, false});
            detail::col2im_add(dcols_data, g, dx->image(i));
        }
    }
}

template class conv2d<float>;
template class conv2d<double>;

}  // namespace volley::convert
