#pragma once
// Average and max pooling over square windows with "valid" padding (Keras AveragePooling2D and
// MaxPooling2D, PyTorch AvgPool2d and MaxPool2d without padding).

#include <volley/convert/layer.hpp>

namespace volley::convert {

/// Which statistic a pooling layer takes over each window.
enum class pool_kind { average, max };

/// A pooling layer: window `pool_size`×`pool_size`, step `stride` [pixels] in both directions.
template <class T>
class pool2d final : public layer<T> {
public:
    /// invalid_parameter if `pool_size` or `stride` is zero.
    pool2d(pool_kind kind, std::size_t pool_size, std::size_t stride);

    std::string kind() const override { return kind_ == pool_kind::max ? "maxpool2d" : "avgpool2d"; }
    pool_kind pooling() const noexcept { return kind_; }
    std::size_t pool_size() const noexcept { return size_; }
    std::size_t stride() const noexcept { return stride_; }
    shape4 output_shape(const shape4& input) const override;
    void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                 const pass_context& ctx) const override;
    void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy, tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, layer_scratch<T>& scratch,
                  const pass_context& ctx) const override;

private:
    pool_kind kind_;
    std::size_t size_, stride_;
};

}  // namespace volley::convert
