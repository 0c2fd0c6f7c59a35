// GRU forward and backpropagation through time. The input projection W·x of every frame is one
// GEMM over the whole batch; the recurrence then runs frame by frame with GEMMs over the batch
// rows (strided views of the (n, steps, ·) buffers), and the gradients of W and of x are again one
// GEMM each after the backward sweep.

#include <volley/convert/gru.hpp>
#include <volley/error.hpp>

#include "layers/gemm.hpp"
#include "random_stream.hpp"

#include <cmath>

namespace volley::convert {

namespace {

template <class T>
T logistic(T a) {
    return T(1) / (T(1) + std::exp(-a));
}

/// Fills `values` uniformly in ±limit from the stream keyed by `seed`.
template <class T>
void uniform_fill(std::vector<T>& values, double limit, std::uint64_t seed) {
    detail::random_stream rng(seed);
    for (auto& v : values) v = static_cast<T>((2 * rng.uniform() - 1) * limit);
}

}  // namespace

template <class T>
gru<T>::gru(std::size_t input_features, std::size_t hidden, std::uint64_t init_seed)
    : in_(input_features), hidden_(hidden) {
    if (in_ == 0) throw invalid_parameter("gru", "input_features", "0", "must be >= 1");
    if (hidden_ == 0) throw invalid_parameter("gru", "hidden", "0", "must be >= 1");
    const std::size_t g = 3 * hidden_;
    parameter<T> kernel{"kernel", {g, in_}, std::vector<T>(g * in_), false};
    uniform_fill(kernel.values, std::sqrt(6.0 / static_cast<double>(in_ + hidden_)),
                 detail::mix64(init_seed ^ 0x6b65726e656cULL));
    parameter<T> recurrent{"recurrent_kernel", {g, hidden_}, std::vector<T>(g * hidden_), false};
    uniform_fill(recurrent.values, std::sqrt(1.0 / static_cast<double>(hidden_)),
                 detail::mix64(init_seed ^ 0x72656375727265ULL));
    params_.push_back(std::move(kernel));
    params_.push_back(std::move(recurrent));
    params_.push_back({"bias", {g}, std::vector<T>(g), true});
}

template <class T>
std::size_t gru<T>::parameter_count() const noexcept {
    return 3 * hidden_ * (in_ + hidden_ + 1);
}

template <class T>
void gru<T>::check_input(const sequence_shape& x, const std::string& who) const {
    if (x.features != in_)
        throw invalid_parameter(who, "feature width", std::to_string(x.features),
                                "expected " + std::to_string(in_) + " values per frame");
    if (x.steps == 0) throw invalid_parameter(who, "frames per sequence", "0", "must be >= 1");
}

template <class T>
void gru<T>::forward(const sequence_tensor<T>& x, sequence_tensor<T>& h,
                     gru_scratch<T>& scratch) const {
    check_input(x.shape);
    if (x.values.size() != x.shape.size())
        throw invalid_parameter(
            "gru", "input values", std::to_string(x.values.size()),
            "expected " + std::to_string(x.shape.size()) + " for shape " + to_string(x.shape));
    const std::size_t n = x.shape.n, steps = x.shape.steps, H = hidden_, G = 3 * H;
    h.resize({n, steps, H});
    if (n == 0) return;
    auto& gates = scratch.gates;
    gates.resize(n * steps * G);
    auto& reset_state = scratch.reset_state;
    reset_state.resize(n * H);
    const T* W = params_[0].values.data();
    const T* U = params_[1].values.data();
    const T* b = params_[2].values.data();
    // Input projections of all frames at once: gates(i, t, ·) = W·x(i, t) + b.
    detail::gemm(detail::gemm_operands<T>{false, true, n * steps, G, in_, x.values.data(), in_, W,
                                          in_, gates.data(), G, false});
    for (std::size_t row = 0; row < n * steps; ++row)
        for (std::size_t j = 0; j < G; ++j) gates[row * G + j] += b[j];

    const std::size_t gate_stride = steps * G, state_stride = steps * H;
    for (std::size_t t = 0; t < steps; ++t) {
        T* g_t = gates.data() + t * G;
        const T* h_prev = t > 0 ? h.values.data() + (t - 1) * H : nullptr;
        if (h_prev)  // z and r pre-activations += U_{z,r}·h_{t-1}
            detail::gemm(detail::gemm_operands<T>{false, true, n, 2 * H, H, h_prev, state_stride, U,
                                                  H, g_t, gate_stride, true});
        for (std::size_t i = 0; i < n; ++i) {
            T* gi = g_t + i * gate_stride;
            for (std::size_t j = 0; j < 2 * H; ++j) gi[j] = logistic(gi[j]);
            if (h_prev)
                for (std::size_t j = 0; j < H; ++j)
                    reset_state[i * H + j] = gi[H + j] * h_prev[i * state_stride + j];
        }
        if (h_prev)  // candidate pre-activation += U_h·(r ⊙ h_{t-1})
            detail::gemm(detail::gemm_operands<T>{false, true, n, H, H, reset_state.data(), H,
                                                  U + 2 * H * H, H, g_t + 2 * H, gate_stride,
                                                  true});
        for (std::size_t i = 0; i < n; ++i) {
            T* gi = g_t + i * gate_stride;
            T* hi = h.values.data() + i * state_stride + t * H;
            for (std::size_t j = 0; j < H; ++j) {
                gi[2 * H + j] = std::tanh(gi[2 * H + j]);
                const T z = gi[j], c = gi[2 * H + j];
                const T old = h_prev ? h_prev[i * state_stride + j] : T(0);
                hi[j] = (T(1) - z) * old + z * c;
            }
        }
    }
}

template <class T>
void gru<T>::backward(const sequence_tensor<T>& x, const sequence_tensor<T>& h,
                      const sequence_tensor<T>& dh, sequence_tensor<T>* dx,
                      std::span<std::vector<T>> grads, gru_scratch<T>& scratch) const {
    const std::size_t n = x.shape.n, steps = x.shape.steps, H = hidden_, G = 3 * H;
    if (h.shape != sequence_shape{n, steps, H} || dh.shape != h.shape)
        throw invalid_parameter("gru", "state gradient shape", to_string(dh.shape),
                                "expected " + to_string(sequence_shape{n, steps, H}));
    if (grads.size() != params_.size())
        throw invalid_parameter("gru", "parameter gradients", std::to_string(grads.size()),
                                "expected " + std::to_string(params_.size()));
    for (std::size_t k = 0; k < params_.size(); ++k)
        if (grads[k].size() != params_[k].values.size())
            throw invalid_parameter("gru", "gradient of '" + params_[k].name + "'",
                                    std::to_string(grads[k].size()),
                                    "expected " + std::to_string(params_[k].values.size()));
    if (dx) dx->resize(x.shape);
    if (n == 0) return;
    const T* W = params_[0].values.data();
    const T* U = params_[1].values.data();
    const auto& gates = scratch.gates;
    auto& d_pre = scratch.d_pre;
    auto& d_state = scratch.d_state;
    auto& d_prev = scratch.d_previous;
    auto& d_reset = scratch.d_reset_state;
    auto& reset_state = scratch.reset_state;
    d_pre.resize(n * steps * G);
    d_state.assign(n * H, T(0));
    d_prev.resize(n * H);
    d_reset.resize(n * H);
    reset_state.resize(n * H);

    const std::size_t gate_stride = steps * G, state_stride = steps * H;
    for (std::size_t t = steps; t-- > 0;) {
        const T* g_t = gates.data() + t * G;
        T* dp_t = d_pre.data() + t * G;
        const T* h_prev = t > 0 ? h.values.data() + (t - 1) * H : nullptr;
        // Through h_t = (1 − z)·h_{t-1} + z·h~ and the z and h~ non-linearities.
        for (std::size_t i = 0; i < n; ++i) {
            const T* gi = g_t + i * gate_stride;
            const T* dhi = dh.values.data() + i * state_stride + t * H;
            T* dpi = dp_t + i * gate_stride;
            for (std::size_t j = 0; j < H; ++j) {
                const T d = d_state[i * H + j] + dhi[j];
                const T z = gi[j], c = gi[2 * H + j];
                const T old = h_prev ? h_prev[i * state_stride + j] : T(0);
                dpi[j] = d * (c - old) * z * (T(1) - z);
                dpi[2 * H + j] = d * z * (T(1) - c * c);
                dpi[H + j] = T(0);
                d_prev[i * H + j] = d * (T(1) - z);
            }
        }
        if (h_prev) {
            // d(r ⊙ h_{t-1}) = U_hᵀ·d(candidate pre-activation)
            detail::gemm(detail::gemm_operands<T>{false, false, n, H, H, dp_t + 2 * H, gate_stride,
                                                  U + 2 * H * H, H, d_reset.data(), H, false});
            for (std::size_t i = 0; i < n; ++i) {
                const T* gi = g_t + i * gate_stride;
                T* dpi = dp_t + i * gate_stride;
                for (std::size_t j = 0; j < H; ++j) {
                    const T r = gi[H + j], old = h_prev[i * state_stride + j];
                    const T d = d_reset[i * H + j];
                    dpi[H + j] = d * old * r * (T(1) - r);
                    d_prev[i * H + j] += d * r;
                    reset_state[i * H + j] = r * old;
                }
            }
            // dh_{t-1} += U_{z,r}ᵀ·d(z, r pre-activations)
            detail::gemm(detail::gemm_operands<T>{false, false, n, H, 2 * H, dp_t, gate_stride, U,
                                                  H, d_prev.data(), H, true});
            // dU_{z,r} += d(z, r)ᵀ·h_{t-1};  dU_h += d(candidate)ᵀ·(r ⊙ h_{t-1})
            detail::gemm(detail::gemm_operands<T>{true, false, 2 * H, H, n, dp_t, gate_stride,
                                                  h_prev, state_stride, grads[1].data(), H, true});
            detail::gemm(detail::gemm_operands<T>{true, false, H, H, n, dp_t + 2 * H, gate_stride,
                                                  reset_state.data(), H,
                                                  grads[1].data() + 2 * H * H, H, true});
        }
        d_state.swap(d_prev);
    }
    // dW += d_preᵀ·x, db += Σ d_pre, dx = d_pre·W over all (sequence, frame) rows.
    const std::size_t rows = n * steps;
    detail::gemm(detail::gemm_operands<T>{true, false, G, in_, rows, d_pre.data(), G,
                                          x.values.data(), in_, grads[0].data(), in_, true});
    for (std::size_t row = 0; row < rows; ++row)
        for (std::size_t j = 0; j < G; ++j) grads[2][j] += d_pre[row * G + j];
    if (dx)
        detail::gemm(detail::gemm_operands<T>{false, false, rows, in_, G, d_pre.data(), G, W, in_,
                                              dx->values.data(), in_, false});
}

template class gru<float>;
template class gru<double>;

}  // namespace volley::convert
