// The optimiser updates against hand-computed examples, and the learning-rate schedule.

#include <volley/convert/learning_rate_schedule.hpp>
#include <volley/convert/optimizer.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace vc = volley::convert;

namespace {

struct two_parameters {
    vc::parameter<float> weight{"kernel", {2}, {3.0f, 4.0f}, false};  // ‖w‖ = 5
    vc::parameter<float> bias{"bias", {1}, {1.0f}, true};
    std::vector<vc::parameter<float>*> list{&weight, &bias};
    std::vector<std::vector<float>> grads{{0.6f, 0.8f}, {0.5f}};  // ‖∇w‖ = 1
};

}  // namespace

TEST(LarsOptimizer, OneStepMatchesHandComputation) {
    // λ = η‖w‖/(‖∇w‖ + β‖w‖) = 0.001·5/(1 + 0.01·5) = 0.005/1.05
    // v = γ·λ·(∇w + βw) = 2·(0.005/1.05)·(0.63, 0.84) = (0.006, 0.008); w ← (2.994, 3.992)
    // bias: its layer's λ, no decay: v = γ·λ·0.5 = 2·(0.005/1.05)·0.5; b ← 1 − 0.005/1.05
    two_parameters p;
    vc::lars_optimizer lars({.momentum = 0.9, .weight_decay = 0.01, .trust_coefficient = 0.001});
    lars.step(p.list, p.grads, 2.0);
    EXPECT_NEAR(lars.last_trust_ratios()[0], 0.005 / 1.05, 1e-8);  // float inputs
    EXPECT_EQ(lars.last_trust_ratios()[1], lars.last_trust_ratios()[0]);
    EXPECT_NEAR(p.weight.values[0], 2.994, 1e-6);
    EXPECT_NEAR(p.weight.values[1], 3.992, 1e-6);
    EXPECT_NEAR(p.bias.values[0], 1.0 - 0.005 / 1.05, 1e-7);
}

TEST(LarsOptimizer, BatchNormIsALayerWhoseBetaTakesItsGammasRate) {
    // A conv layer (kernel, bias) then BatchNorm (gamma, beta): the bias takes the kernel's λ;
    // gamma has its own, without decay: λ = η‖γ‖/‖∇γ‖ = 0.001·1/0.25 = 0.004, and beta takes it.
    // gamma ← 1 − 0.1·0.004·0.25; beta ← 0 + 0.1·0.004·0.5.
    vc::parameter<float> kernel{"kernel", {2}, {3.0f, 4.0f}, false}, bias{"bias", {1}, {0.0f}, true};
    vc::parameter<float> gamma{"gamma", {1}, {1.0f}, true}, beta{"beta", {1}, {0.0f}, true};
    std::vector<vc::parameter<float>*> list{&kernel, &bias, &gamma, &beta};
    std::vector<std::vector<float>> g{{0.6f, 0.8f}, {0.5f}, {0.25f}, {-0.5f}};
    vc::lars_optimizer lars({.momentum = 0.9, .weight_decay = 0.01, .trust_coefficient = 0.001});
    lars.step(list, g, 0.1);
    const auto& t = lars.last_trust_ratios();
    EXPECT_NEAR(t[0], 0.005 / 1.05, 1e-8);
    EXPECT_EQ(t[1], t[0]);
    EXPECT_NEAR(t[2], 0.004, 1e-9);
    EXPECT_EQ(t[3], t[2]);
    EXPECT_NEAR(bias.values[0], -0.1 * (0.005 / 1.05) * 0.5, 1e-9);
    EXPECT_FLOAT_EQ(gamma.values[0], 1.0f - 1e-4f);
    EXPECT_FLOAT_EQ(beta.values[0], 2e-4f);
}

TEST(LarsOptimizer, SecondStepCarriesMomentum) {
    two_parameters p;
    vc::lars_optimizer lars({.momentum = 0.9, .weight_decay = 0.0, .trust_coefficient = 0.001});
    lars.step(p.list, p.grads, 2.0);  // λ = 0.005: v = 0.01·(0.6, 0.8); w = (2.994, 3.992)
    lars.step(p.list, p.grads, 2.0);  // ‖w‖ = 4.99: λ = 0.00499; v = 0.9·v + 0.00998·(0.6, 0.8)
    EXPECT_NEAR(p.weight.values[0], 2.994 - (0.9 * 0.006 + 0.00998 * 0.6), 1e-6);
    EXPECT_NEAR(p.weight.values[1], 3.992 - (0.9 * 0.008 + 0.00998 * 0.8), 1e-6);
}

TEST(LarsOptimizer, ZeroWeightsFallBackToTrustOne) {
    vc::parameter<float> w{"kernel", {2}, {0.0f, 0.0f}, false};
    std::vector<vc::parameter<float>*> list{&w};
    std::vector<std::vector<float>> g{{1.0f, -1.0f}};
    vc::lars_optimizer lars({});
    lars.step(list, g, 0.1);
    EXPECT_EQ(lars.last_trust_ratios()[0], 1.0);
    EXPECT_FLOAT_EQ(w.values[0], -0.1f);
    EXPECT_FLOAT_EQ(w.values[1], 0.1f);
}

TEST(SgdOptimizer, MomentumAndDecaySkipBiases) {
    two_parameters p;
    vc::sgd_optimizer sgd({.momentum = 0.5, .weight_decay = 0.1});
    sgd.step(p.list, p.grads, 0.1);  // v = 0.1·(0.6 + 0.3, 0.8 + 0.4) = (0.09, 0.12)
    EXPECT_NEAR(p.weight.values[0], 2.91, 1e-6);
    EXPECT_NEAR(p.weight.values[1], 3.88, 1e-6);
    EXPECT_NEAR(p.bias.values[0], 0.95, 1e-6);  // 1 − 0.1·0.5
    sgd.step(p.list, p.grads, 0.1);  // bias: v = 0.5·0.05 + 0.05 = 0.075
    EXPECT_NEAR(p.bias.values[0], 0.875, 1e-6);
}

TEST(AdamOptimizer, FirstStepMovesEachWeightByTheRate) {
    // With bias correction, Adam's first step is lr·g/(|g| + ε) ≈ lr·sign(g).
    two_parameters p;
    vc::adam_optimizer adam({});
    adam.step(p.list, p.grads, 0.01);
    EXPECT_NEAR(p.weight.values[0], 2.99, 1e-6);
    EXPECT_NEAR(p.weight.values[1], 3.99, 1e-6);
    EXPECT_NEAR(p.bias.values[0], 0.99, 1e-6);
}

TEST(Optimizers, FactoryAndSizeChecks) {
    EXPECT_EQ(vc::make_optimizer("lars", {})->name(), "lars");
    EXPECT_THROW(vc::make_optimizer("rmsprop", {}), volley::invalid_parameter);
    two_parameters p;
    auto sgd = vc::make_optimizer("sgd", {});
    p.grads[0].push_back(1.0f);
    EXPECT_THROW(sgd->step(p.list, p.grads, 0.1), volley::invalid_parameter);
}

TEST(LearningRateSchedule, LinearWarmupThenQuadraticDecay) {
    const vc::learning_rate_schedule s{1.0, 4, 14, 2.0};
    EXPECT_DOUBLE_EQ(s.at(0), 0.25);
    EXPECT_DOUBLE_EQ(s.at(3), 1.0);
    EXPECT_DOUBLE_EQ(s.at(4), 1.0);
    EXPECT_DOUBLE_EQ(s.at(9), 0.25);  // (1 − 5/10)²
    EXPECT_DOUBLE_EQ(s.at(13), 0.01);
    EXPECT_THROW((vc::learning_rate_schedule{1.0, 20, 14, 2.0}.at(0)), volley::invalid_parameter);
    EXPECT_THROW((vc::learning_rate_schedule{-1.0, 0, 14, 2.0}.at(0)), volley::invalid_parameter);
}
