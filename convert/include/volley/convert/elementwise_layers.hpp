#pragma once
// The parameter-free layers that act on each value or only reshape: ReLU, Dropout, Flatten.

#include <volley/convert/layer.hpp>

namespace volley::convert {

/// y = max(x, 0); the gradient at exactly 0 is taken as 0.
template <class T>
class relu final : public layer<T> {
public:
    std::string kind() const override { return "relu"; }
    shape4 output_shape(const shape4& input) const override { return input; }
    void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                 const pass_context& ctx) const override;
    void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy, tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, layer_scratch<T>& scratch,
                  const pass_context& ctx) const override;
};

/// Inverted dropout: in training each value is zeroed with probability `rate` and the rest are
/// scaled by 1/(1 − rate); inference passes values through. The mask is a pure function of
/// (seed, step, image index in the batch, value index), so it does not depend on the thread count.
template <class T>
class dropout final : public layer<T> {
public:
    /// invalid_parameter unless 0 ≤ rate < 1.
    explicit dropout(double rate);

    std::string kind() const override { return "dropout"; }
    double rate() const noexcept { return rate_; }
    shape4 output_shape(const shape4& input) const override { return input; }
    void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                 const pass_context& ctx) const override;
    void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy, tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, layer_scratch<T>& scratch,
                  const pass_context& ctx) const override;

private:
    double rate_;
};

/// (n, c, h, w) → (n, c·h·w, 1, 1) in CHW order. Keras flattens channels-last tensors in HWC
/// order; keras_layout.hpp permutes the following Dense kernel accordingly.
template <class T>
class flatten final : public layer<T> {
public:
    std::string kind() const override { return "flatten"; }
    shape4 output_shape(const shape4& input) const override {
        return {input.n, input.per_image(), 1, 1};
    }
    void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                 const pass_context& ctx) const override;
    void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy, tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, layer_scratch<T>& scratch,
                  const pass_context& ctx) const override;
};

}  // namespace volley::convert
