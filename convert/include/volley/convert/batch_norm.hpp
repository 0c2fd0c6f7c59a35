#pragma once
// Batch normalisation over the channels of an NCHW tensor (Ioffe & Szegedy 2015), with Keras's
// defaults (ε = 1e-3, moving-average momentum 0.99).
//
// Why per-thread statistics: in training each OpenMP thread normalises its own slice of the batch
// ("ghost" batch norm, as data-parallel workers do without synchronised BN). That keeps the
// threads independent; the result is still bit-reproducible for a given thread count.

#include <volley/convert/layer.hpp>

namespace volley::convert {

/// BatchNorm. Parameters: "gamma" and "beta" (channels). The moving statistics are not trained
/// by gradients; they are used in inference and updated after each training step as by one
/// moving-average update per micro-batch (momentum^k for a step of k micro-batches, towards the
/// mean of the step's micro-batch statistics weighted by their counts), so they forget at the same
/// rate per image at any batch size: with one update per step, a batch of 8,192 (a few hundred
/// steps in all) ends with statistics a hundred steps old.
template <class T>
class batch_norm final : public layer<T> {
public:
    /// invalid_parameter if channels is 0, ε ≤ 0 or the momentum is outside [0, 1).
    explicit batch_norm(std::size_t channels, double epsilon = 1e-3, double momentum = 0.99);

    std::string kind() const override { return "batch_norm"; }
    std::size_t channels() const noexcept { return channels_; }
    double epsilon() const noexcept { return epsilon_; }
    double momentum() const noexcept { return momentum_; }
    /// Moving mean and (biased) variance per channel, as used in inference.
    const std::vector<T>& moving_mean() const noexcept { return moving_mean_; }
    const std::vector<T>& moving_variance() const noexcept { return moving_variance_; }
    std::vector<T>& moving_mean() noexcept { return moving_mean_; }
    std::vector<T>& moving_variance() noexcept { return moving_variance_; }

    shape4 output_shape(const shape4& input) const override;
    void forward(const tensor<T>& x, tensor<T>& y, layer_scratch<T>& scratch,
                 const pass_context& ctx) const override;
    void backward(const tensor<T>& x, const tensor<T>& y, const tensor<T>& dy, tensor<T>* dx,
                  std::span<std::vector<T>> parameter_gradients, layer_scratch<T>& scratch,
                  const pass_context& ctx) const override;
    std::span<parameter<T>> parameters() override { return params_; }
    void finish_training_step(std::span<const layer_scratch<T>* const> scratches) override;

private:
    /// Adds one micro-batch's statistics of channel c to a step's [Σ count·mean (C),
    /// Σ count·variance (C), Σ count, micro-batches].
    void accumulate(std::vector<double>& step, std::size_t c, T mean, T var, double count) const;

    std::size_t channels_;
    double epsilon_, momentum_;
    std::vector<parameter<T>> params_;  // gamma, beta
    std::vector<T> moving_mean_, moving_variance_;
};

}  // namespace volley::convert
