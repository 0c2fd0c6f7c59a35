// SGD with momentum, Adam and LARS. Each loops over parameter arrays in order, single-threaded:
// the update is cheap next to the forward and backward passes, and the order fixes the rounding.

#include <volley/convert/optimizer.hpp>
#include <volley/error.hpp>

#include <cmath>

namespace volley::convert {

namespace {

/// Sizes `state` like the parameters on the first step; afterwards checks nothing changed.
void prepare_state(std::vector<std::vector<float>>& state,
                   std::span<parameter<float>* const> parameters,
                   std::span<const std::vector<float>> gradients, const std::string& who) {
    if (gradients.size() != parameters.size())
        throw invalid_parameter(who, "gradients", std::to_string(gradients.size()),
                                "expected " + std::to_string(parameters.size()));
    if (state.empty())
        for (const auto* p : parameters) state.emplace_back(p->values.size(), 0.0f);
    if (state.size() != parameters.size())
        throw invalid_parameter(who, "parameter arrays", std::to_string(parameters.size()),
                                "changed between steps (was " + std::to_string(state.size()) + ")");
    for (std::size_t k = 0; k < parameters.size(); ++k)
        if (state[k].size() != parameters[k]->values.size() ||
            gradients[k].size() != parameters[k]->values.size())
            throw invalid_parameter(who, "parameter '" + parameters[k]->name + "'",
                                    std::to_string(parameters[k]->values.size()),
                                    "size does not match its state or gradient");
}

double l2_norm(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += static_cast<double>(x) * x;
    return std::sqrt(s);
}

}  // namespace

void sgd_optimizer::step(std::span<parameter<float>* const> parameters,
                         std::span<const std::vector<float>> gradients, double lr) {
    prepare_state(velocity_, parameters, gradients, "sgd optimizer");
    for (std::size_t k = 0; k < parameters.size(); ++k) {
        auto& w = parameters[k]->values;
        const double decay = parameters[k]->is_bias_like ? 0.0 : settings_.weight_decay;
        for (std::size_t i = 0; i < w.size(); ++i) {
            const double g = gradients[k][i] + decay * w[i];
            velocity_[k][i] = static_cast<float>(settings_.momentum * velocity_[k][i] + lr * g);
            w[i] -= velocity_[k][i];
        }
    }
}

void adam_optimizer::step(std::span<parameter<float>* const> parameters,
                          std::span<const std::vector<float>> gradients, double lr) {
    prepare_state(m_, parameters, gradients, "adam optimizer");
    prepare_state(v_, parameters, gradients, "adam optimizer");
    ++t_;
    const double b1 = settings_.beta1, b2 = settings_.beta2;
    const double correction1 = 1 - std::pow(b1, static_cast<double>(t_));
    const double correction2 = 1 - std::pow(b2, static_cast<double>(t_));
    for (std::size_t k = 0; k < parameters.size(); ++k) {
        auto& w = parameters[k]->values;
        const double decay = parameters[k]->is_bias_like ? 0.0 : settings_.weight_decay;
        for (std::size_t i = 0; i < w.size(); ++i) {
            const double g = gradients[k][i] + decay * w[i];
            m_[k][i] = static_cast<float>(b1 * m_[k][i] + (1 - b1) * g);
            v_[k][i] = static_cast<float>(b2 * v_[k][i] + (1 - b2) * g * g);
            const double m_hat = m_[k][i] / correction1, v_hat = v_[k][i] / correction2;
            w[i] -= static_cast<float>(lr * m_hat / (std::sqrt(v_hat) + settings_.adam_epsilon));
        }
    }
}

namespace {

/// Whether `next` is the offset array of the layer whose last scale array is `lead`: a "bias"
/// after its (recurrent) kernel, BatchNorm's "beta" after its "gamma" (every layer lists its
/// arrays so).
bool follows(const parameter<float>& lead, const parameter<float>& next) {
    return (next.name == "bias" && !lead.is_bias_like) || (next.name == "beta" && lead.name == "gamma");
}

}  // namespace

void lars_optimizer::step(std::span<parameter<float>* const> parameters,
                          std::span<const std::vector<float>> gradients, double lr) {
    prepare_state(velocity_, parameters, gradients, "lars optimizer");
    trust_.assign(parameters.size(), 1.0);
    for (std::size_t k = 0; k < parameters.size(); ++k) {
        auto& w = parameters[k]->values;
        const double decay = parameters[k]->is_bias_like ? 0.0 : settings_.weight_decay;
        if (k > 0 && follows(*parameters[k - 1], *parameters[k])) {
            trust_[k] = trust_[k - 1];  // the layer's bias (β) moves at its kernel's (γ's) rate
        } else {
            const double w_norm = l2_norm(w), g_norm = l2_norm(gradients[k]);
            if (w_norm > 0 && g_norm > 0)
                trust_[k] = settings_.trust_coefficient * w_norm / (g_norm + decay * w_norm);
        }
        const double local_lr = lr * trust_[k];
        for (std::size_t i = 0; i < w.size(); ++i) {
            const double g = gradients[k][i] + decay * w[i];
            velocity_[k][i] = static_cast<float>(settings_.momentum * velocity_[k][i] + local_lr * g);
            w[i] -= velocity_[k][i];
        }
    }
}

std::unique_ptr<optimizer> make_optimizer(std::string_view name, const optimizer_settings& s) {
    if (name == "sgd") return std::make_unique<sgd_optimizer>(s);
    if (name == "adam") return std::make_unique<adam_optimizer>(s);
    if (name == "lars") return std::make_unique<lars_optimizer>(s);
    throw invalid_parameter("optimizer", "name", std::string(name),
                            "unknown; expected sgd, adam or lars");
}

}  // namespace volley::convert
