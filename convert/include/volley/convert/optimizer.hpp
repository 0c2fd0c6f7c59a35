#pragma once
// The interface of the first-order optimisers (SGD with momentum, Adam, LARS) and a factory.

#include <volley/convert/layer.hpp>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace volley::convert {

/// Hyper-parameters shared by the optimisers; each uses the ones that apply to it.
struct optimizer_settings {
    double momentum = 0.9;        ///< SGD and LARS
    double weight_decay = 0.0;    ///< L2 coefficient β; never applied to biases or BN parameters
    double trust_coefficient = 0.001;  ///< LARS η
    double beta1 = 0.9, beta2 = 0.999, adam_epsilon = 1e-7;  ///< Adam (Keras defaults)
};

/// One optimiser step: updates every parameter from its gradient. Keeps per-parameter state
/// (momentum, moments), created on the first step.
class optimizer {
public:
    virtual ~optimizer() = default;
    /// "sgd", "adam" or "lars".
    virtual std::string name() const = 0;
    /// Applies one update at global learning rate `learning_rate`. `gradients[k]` is the mean
    /// gradient of the loss for `parameters[k]`. invalid_parameter if the sizes change between
    /// steps.
    virtual void step(std::span<parameter<float>* const> parameters,
                      std::span<const std::vector<float>> gradients, double learning_rate) = 0;
};

/// SGD with (heavy-ball) momentum: v ← m·v + lr·(g + β·w); w ← w − v.
class sgd_optimizer final : public optimizer {
public:
    explicit sgd_optimizer(const optimizer_settings& s) : settings_(s) {}
    std::string name() const override { return "sgd"; }
    void step(std::span<parameter<float>* const> parameters,
              std::span<const std::vector<float>> gradients, double learning_rate) override;

private:
    optimizer_settings settings_;
    std::vector<std::vector<float>> velocity_;
};

/// Adam (Kingma & Ba 2015) with bias correction; weight decay is added to the gradient (L2).
class adam_optimizer final : public optimizer {
public:
    explicit adam_optimizer(const optimizer_settings& s) : settings_(s) {}
    std::string name() const override { return "adam"; }
    void step(std::span<parameter<float>* const> parameters,
              std::span<const std::vector<float>> gradients, double learning_rate) override;

private:
    optimizer_settings settings_;
    std::vector<std::vector<float>> m_, v_;
    long long t_ = 0;
};

/// LARS (You, Gitman & Ginsburg 2017, "Large batch training of convolutional networks").
/// For each weight array, the local rate is the trust ratio λ = η‖w‖ / (‖∇w‖ + β‖w‖), and
///   v ← m·v + γ·λ·(∇w + β·w);  w ← w − v,
/// with γ the global learning rate: one local rate per layer, as the paper's Algorithm 1. A
/// layer's "bias" array takes the λ of its weight array (the one before it: every layer lists
/// its kernels first) without the decay; a BatchNorm layer's scale "gamma" has its own λ
/// (without decay) and its offset "beta" takes it. λ is 1 when ‖w‖ or ‖∇w‖ is 0. (Biases at the
/// raw global rate, as before 2026-12-06, capped γ: at batch 8,192 training collapsed from γ = 8;
/// BatchNorm's arrays at the raw global rate cost 1 point at 8,192; bench/macro/train/README.md.)
class lars_optimizer final : public optimizer {
public:
    explicit lars_optimizer(const optimizer_settings& s) : settings_(s) {}
    std::string name() const override { return "lars"; }
    void step(std::span<parameter<float>* const> parameters,
              std::span<const std::vector<float>> gradients, double learning_rate) override;
    /// The trust ratios λ of the last step, one per parameter array (a bias: its weights' λ;
    /// BatchNorm's β: its γ's).
    const std::vector<double>& last_trust_ratios() const noexcept { return trust_; }

private:
    optimizer_settings settings_;
    std::vector<std::vector<float>> velocity_;
    std::vector<double> trust_;
};

/// Makes "sgd", "adam" or "lars"; invalid_parameter naming `name` otherwise.
std::unique_ptr<optimizer> make_optimizer(std::string_view name, const optimizer_settings& s);

}  // namespace volley::convert
