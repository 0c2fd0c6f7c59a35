// BatchNorm: per-channel statistics over (n, h, w) of the slice in training, moving statistics
// in inference. The backward pass is the standard closed form through the batch statistics.

#include <volley/convert/batch_norm.hpp>
#include <volley/error.hpp>

#include <cmath>

namespace volley::convert {

template <class T>
batch_norm<T>::batch_norm(std::size_t channels, double epsilon, double momentum)
    : channels_(channels), epsilon_(epsilon), momentum_(momentum) {
    if (channels == 0) throw invalid_parameter("batch_norm", "channels", "0", "must be >= 1");
    if (!(epsilon > 0))
        throw invalid_parameter("batch_norm", "epsilon", std::to_string(epsilon), "must be > 0");
    if (!(momentum >= 0 && momentum < 1))
        throw invalid_parameter("batch_norm", "momentum", std::to_string(momentum),
                                "must be in [0, 1)");
    params_.push_back({"gamma", {channels}, std::vector<T>(channels, T(1)), true});
    params_.push_back({"beta", {channels}, std::vector<T>(channels, T(0)), true});
    moving_mean_.assign(channels, T(0));
    moving_variance_.assign(channels, T(1));
}

template <class T>
shape4 batch_norm<T>::output_shape(const shape4& in) const {
    if (in.c != channels_)
        throw invalid_parameter("batch_norm '" + this->name() + "'", "input channels",
                                std::to_string(in.c), "expected " + std::to_string(channels_));
    return in;
}

template <class T>
void batch_norm<T>::forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                            const pass_context& ctx) const {
    y.resize(output_shape(x.shape));
    const std::size_t n = x.shape.n, hw = x.shape.h * x.shape.w, C = channels_;
    const auto& gamma = params_[0].values;
    const auto& beta = params_[1].values;
    const bool training = ctx.mode == run_mode::training;
    // statistics: mean (C), variance (C), count (1)
    scratch.statistics.assign(2 * C + 1, T(0));
    scratch.statistics[2 * C] = static_cast<T>(n * hw);
    if (training) scratch.saved.resize(x.values.size());
    for (std::size_t c = 0; c < C; ++c) {
        T mean = moving_mean_[c], var = moving_variance_[c];
        if (training && n * hw > 0) {
            double s = 0, s2 = 0;
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t k = 0; k < hw; ++k) s += x.image(i)[c * hw + k];
            const double m = s / static_cast<double>(n * hw);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t k = 0; k < hw; ++k) {
                    const double d = x.image(i)[c * hw + k] - m;
                    s2 += d * d;
                }
            mean = static_cast<T>(m);
            var = static_cast<T>(s2 / static_cast<double>(n * hw));
        }
        scratch.statistics[c] = mean;
        scratch.statistics[C + c] = var;
        const T inv_sigma = T(1) / std::sqrt(var + static_cast<T>(epsilon_));
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < hw; ++k) {
                const std::size_t at = i * C * hw + c * hw + k;
                const T xhat = (x.values[at] - mean) * inv_sigma;
                if (training) scratch.saved[at] = xhat;
                y.values[at] = gamma[c] * xhat + beta[c];
            }
    }
}

template <class T>
void batch_norm<T>::backward(const tensor<T>& x, const tensor<T>&, const tensor<T>& dy,
                             tensor<T>* dx, std::span<std::vector<T>> grads,
                             layer_scratch<T>& scratch, const pass_context& ctx) const {
    const std::size_t n = x.shape.n, hw = x.shape.h * x.shape.w, C = channels_;
    const auto& gamma = params_[0].values;
    const bool training = ctx.mode == run_mode::training;
    if (dx) dx->resize(x.shape);
    const T count = static_cast<T>(n * hw);
    for (std::size_t c = 0; c < C; ++c) {
        const T mean = scratch.statistics[c], var = scratch.statistics[C + c];
        const T inv_sigma = T(1) / std::sqrt(var + static_cast<T>(epsilon_));
        T sum_dy = 0, sum_dy_xhat = 0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < hw; ++k) {
                const std::size_t at = i * C * hw + c * hw + k;
                const T xhat = training ? scratch.saved[at] : (x.values[at] - mean) * inv_sigma;
                sum_dy += dy.values[at];
                sum_dy_xhat += dy.values[at] * xhat;
            }
        grads[0][c] += sum_dy_xhat;
        grads[1][c] += sum_dy;
        if (!dx) continue;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < hw; ++k) {
                const std::size_t at = i * C * hw + c * hw + k;
                if (!training) {
                    dx->values[at] = dy.values[at] * gamma[c] * inv_sigma;
                    continue;
                }
                const T xhat = scratch.saved[at];
                dx->values[at] = gamma[c] * inv_sigma / count *
                                 (count * dy.values[at] - sum_dy - xhat * sum_dy_xhat);
            }
    }
}

template <class T>
void batch_norm<T>::finish_training_step(std::span<const layer_scratch<T>* const> scratches) {
    const std::size_t C = channels_;
    for (std::size_t c = 0; c < C; ++c) {
        double total = 0, mean = 0, var = 0;
        for (const auto* s : scratches) {
            if (s->statistics.size() != 2 * C + 1 || s->statistics[2 * C] == T(0)) continue;
            const double w = s->statistics[2 * C];
            total += w;
            mean += w * s->statistics[c];
            var += w * s->statistics[C + c];
        }
        if (total == 0) continue;
        const T a = static_cast<T>(momentum_);
        moving_mean_[c] = a * moving_mean_[c] + (1 - a) * static_cast<T>(mean / total);
        moving_variance_[c] = a * moving_variance_[c] + (1 - a) * static_cast<T>(var / total);
    }
}

template class batch_norm<float>;
template class batch_norm<double>;

}  // namespace volley::convert
