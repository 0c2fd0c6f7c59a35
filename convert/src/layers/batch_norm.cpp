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
    const bool training = ctx.mode == run_mode::training && n * hw > 0;
    // statistics: mean (C), variance (C) of this micro-batch, for the backward pass
    scratch.statistics.assign(2 * C, T(0));
    if (training) scratch.saved.resize(x.values.size());
    for (std::size_t c = 0; c < C; ++c) {
        T mean = moving_mean_[c], var = moving_variance_[c];
        if (training) {
            double s = 0, s2 = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const T* p = x.values.data() + (i * C + c) * hw;
                T plane = 0;
#pragma omp simd reduction(+ : plane)
                for (std::size_t k = 0; k < hw; ++k) plane += p[k];
                s += plane;
            }
            const double m = s / static_cast<double>(n * hw);
            const T mt = static_cast<T>(m);
            for (std::size_t i = 0; i < n; ++i) {
                const T* p = x.values.data() + (i * C + c) * hw;
                T plane = 0;
#pragma omp simd reduction(+ : plane)
                for (std::size_t k = 0; k < hw; ++k) plane += (p[k] - mt) * (p[k] - mt);
                s2 += plane;
            }
            mean = mt;
            var = static_cast<T>(s2 / static_cast<double>(n * hw));
            accumulate(scratch.step_statistics, c, mean, var, static_cast<double>(n * hw));
        }
        scratch.statistics[c] = mean;
        scratch.statistics[C + c] = var;
        const T inv_sigma = T(1) / std::sqrt(var + static_cast<T>(epsilon_));
        const T g = gamma[c], b = beta[c];
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = (i * C + c) * hw;
            const T* p = x.values.data() + at;
            T* out = y.values.data() + at;
            if (training) {
                T* saved = scratch.saved.data() + at;
                for (std::size_t k = 0; k < hw; ++k) {
                    saved[k] = (p[k] - mean) * inv_sigma;
                    out[k] = g * saved[k] + b;
                }
            } else {
                for (std::size_t k = 0; k < hw; ++k) out[k] = g * (p[k] - mean) * inv_sigma + b;
            }
        }
    }
}

template <class T>
void batch_norm<T>::backward(const tensor<T>& x, const tensor<T>&, const tensor<T>& dy,
                             tensor<T>* dx, std::span<std::vector<T>> grads,
                             layer_scratch<T>& scratch, const pass_context& ctx) const {
    const std::size_t n = x.shape.n, hw = x.shape.h * x.shape.w, C = channels_;
    const auto& gamma = params_[0].values;
    const bool training = ctx.mode == run_mode::training && n * hw > 0;
    if (dx) dx->resize(x.shape);
    const T count = static_cast<T>(n * hw);
    for (std::size_t c = 0; c < C; ++c) {
        const T mean = scratch.statistics[c], var = scratch.statistics[C + c];
        const T inv_sigma = T(1) / std::sqrt(var + static_cast<T>(epsilon_));
        double sum_dy = 0, sum_dy_xhat = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = (i * C + c) * hw;
            const T* d = dy.values.data() + at;
            T a = 0, b = 0;
            if (training) {
                const T* xhat = scratch.saved.data() + at;
#pragma omp simd reduction(+ : a, b)
                for (std::size_t k = 0; k < hw; ++k) a += d[k], b += d[k] * xhat[k];
            } else {
                const T* p = x.values.data() + at;
#pragma omp simd reduction(+ : a, b)
                for (std::size_t k = 0; k < hw; ++k) a += d[k], b += d[k] * (p[k] - mean) * inv_sigma;
            }
            sum_dy += a;
            sum_dy_xhat += b;
        }
        grads[0][c] += static_cast<T>(sum_dy_xhat);
        grads[1][c] += static_cast<T>(sum_dy);
        if (!dx) continue;
        const T scale = gamma[c] * inv_sigma;
        const T mean_dy = static_cast<T>(sum_dy) / count;
        const T mean_dy_xhat = static_cast<T>(sum_dy_xhat) / count;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = (i * C + c) * hw;
            const T* d = dy.values.data() + at;
            T* out = dx->values.data() + at;
            if (!training) {
                for (std::size_t k = 0; k < hw; ++k) out[k] = d[k] * scale;
                continue;
            }
            const T* xhat = scratch.saved.data() + at;
            for (std::size_t k = 0; k < hw; ++k)
                out[k] = scale * (d[k] - mean_dy - xhat[k] * mean_dy_xhat);
        }
    }
}

template <class T>
void batch_norm<T>::accumulate(std::vector<double>& step, std::size_t c, T mean, T var, double count) const {
    const std::size_t C = channels_;
    if (step.size() != 2 * C + 2) step.assign(2 * C + 2, 0.0);
    step[c] += count * static_cast<double>(mean);
    step[C + c] += count * static_cast<double>(var);
    if (c == 0) step[2 * C] += count, step[2 * C + 1] += 1;
}

template <class T>
void batch_norm<T>::finish_training_step(std::span<const layer_scratch<T>* const> scratches) {
    const std::size_t C = channels_;
    double total = 0, micro_batches = 0;
    std::vector<double> mean(C, 0.0), var(C, 0.0);
    for (const auto* s : scratches) {
        const auto& st = s->step_statistics;
        if (st.size() != 2 * C + 2) continue;
        for (std::size_t c = 0; c < C; ++c) mean[c] += st[c], var[c] += st[C + c];
        total += st[2 * C];
        micro_batches += st[2 * C + 1];
    }
    if (total == 0) return;
    // As many moving-average updates as the step had micro-batches, each with the step's mean
    // statistics: the moving statistics forget at the same rate per image at any batch size.
    const double keep = std::pow(momentum_, micro_batches);
    for (std::size_t c = 0; c < C; ++c) {
        moving_mean_[c] = static_cast<T>(keep * moving_mean_[c] + (1 - keep) * (mean[c] / total));
        moving_variance_[c] = static_cast<T>(keep * moving_variance_[c] + (1 - keep) * (var[c] / total));
    }
}

template class batch_norm<float>;
template class batch_norm<double>;

}  // namespace volley::convert
