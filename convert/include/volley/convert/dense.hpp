#pragma once
// A fully connected layer over the flattened (CHW-order) input of each image.

#include <volley/convert/layer.hpp>

#include <cstdint>

namespace volley::convert {

/// Dense with bias: y = W·x + b. Parameters: "kernel" (out, in) and "bias" (out). The input may be
/// any (n, c, h, w); it is read as (n, c·h·w) in CHW order.
template <class T>
class dense final : public layer<T> {
public:
    /// Weights are He-uniform (limit √(6/in)) from `init_seed`; biases are zero.
    dense(std::size_t in_features, std::size_t out_features, std::uint64_t init_seed);

    std::string kind() const override { return "dense"; }
    std::size_t in_features() const noexcept { return in_; }
    std::size_t out_features() const noexcept { return out_; }
    shape4 output_shape(const shape4& input) const override;
    void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                 const pass_context& ctx) const override;
    void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy, tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, layer_scratch<T>& scratch,
                  const pass_context& ctx) const override;
    std::span<parameter<T>> parameters() override { return params_; }

private:
    std::size_t in_, out_;
    std::vector<parameter<T>> params_;  // kernel, bias
};

}  // namespace volley::convert
