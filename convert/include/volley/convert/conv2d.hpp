#pragma once
// A 2-D convolution (Keras Conv2D, PyTorch Conv2d) computed as im2col + one GEMM per image.
// Like both frameworks it computes cross-correlation: the kernel is not flipped.

#include <volley/convert/layer.hpp>

#include <cstdint>

namespace volley::convert {

/// The geometry of a Conv2D layer. Padding is explicit and symmetric (Keras "same" with an odd
/// kernel and stride 1 is padding = (kernel − 1)/2; "valid" is 0).
struct conv2d_config {
    std::size_t in_channels = 1, out_channels = 1;
    std::size_t kernel_h = 3, kernel_w = 3;
    std::size_t stride = 1;   ///< in both directions [pixels]
    std::size_t padding = 0;  ///< zero rows/columns added on each side [pixels]
};

/// Conv2D with bias. Parameters: "kernel" OIHW (out, in, kh, kw) and "bias" (out).
template <class T>
class conv2d final : public layer<T> {
public:
    /// Weights are He-uniform (limit √(6/fan_in)) from `init_seed`; biases are zero.
    /// invalid_parameter if a size or the stride is zero.
    conv2d(const conv2d_config& config, std::uint64_t init_seed);

    std::string kind() const override { return "conv2d"; }
    const conv2d_config& config() const noexcept { return config_; }
    shape4 output_shape(const shape4& input) const override;
    void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                 const pass_context& ctx) const override;
    void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy, tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, layer_scratch<T>& scratch,
                  const pass_context& ctx) const override;
    std::span<parameter<T>> parameters() override { return params_; }

private:
    conv2d_config config_;
    std::vector<parameter<T>> params_;  // kernel, bias
};

}  // namespace volley::convert
