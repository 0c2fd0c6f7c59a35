// The GRU layer and the GRU + sigmoid head network: backward passes against central finite
// differences in double precision (relative error < 1e-6), a forward pass computed by hand, and
// rejected inputs.

#include <volley/convert/binary_cross_entropy.hpp>
#include <volley/convert/gru.hpp>
#include <volley/convert/sequence_network.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace vc = volley::convert;
using D = double;

namespace {

/// Uniform in [−1, 1) from the standard-specified mt19937_64 bits.
double uniform(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-52 - 1;
}

vc::sequence_tensor<D> random_sequences(const vc::sequence_shape& s, std::mt19937_64& rng) {
    vc::sequence_tensor<D> x(s);
    for (auto& v : x.values) v = uniform(rng);
    return x;
}

/// Moves every parameter off its initial values (biases start at 0) to a generic point.
template <class Params>
void randomise(const Params& params, std::mt19937_64& rng, double scale) {
    for (auto* p : params)
        for (auto& v : p->values) v = scale * uniform(rng);
}

/// Largest relative error seen, where relative = |a − n| / max(|a|, |n|, 1e-3).
struct gradient_checker {
    double worst = 0;
    void expect(double analytic, double numeric, const std::string& what) {
        const double scale = std::max({std::abs(analytic), std::abs(numeric), 1e-3});
        const double rel = std::abs(analytic - numeric) / scale;
        worst = std::max(worst, rel);
        EXPECT_LT(rel, 1e-6) << what << ": analytic " << analytic << ", numeric " << numeric;
    }
    /// Central difference of `loss` in `v`, restoring v afterwards.
    static double numeric(double& v, const std::function<double()>& loss) {
        const double eps = 1e-5, keep = v;
        v = keep + eps;
        const double up = loss();
        v = keep - eps;
        const double down = loss();
        v = keep;
        return (up - down) / (2 * eps);
    }
};

}  // namespace

TEST(gru, backward_matches_finite_differences_for_every_parameter_and_the_input) {
    std::mt19937_64 rng(11);
    for (const auto& [n, steps, features, hidden] :
         std::vector<std::array<std::size_t, 4>>{{3, 5, 4, 3}, {1, 1, 2, 5}, {4, 6, 1, 2}}) {
        vc::gru<D> g(features, hidden, 5);
        std::vector<vc::parameter<D>*> params;
        for (auto& p : g.parameters()) params.push_back(&p);
        randomise(params, rng, 0.9);
        auto x = random_sequences({n, steps, features}, rng);
        const auto weights = random_sequences({n, steps, hidden}, rng);  // L = Σ weights ⊙ h
        const auto loss = [&] {
            vc::sequence_tensor<D> h;
            vc::gru_scratch<D> s;
            g.forward(x, h, s);
            double sum = 0;
            for (std::size_t k = 0; k < h.values.size(); ++k)
                sum += weights.values[k] * h.values[k];
            return sum;
        };
        vc::sequence_tensor<D> h, dx;
        vc::gru_scratch<D> scratch;
        g.forward(x, h, scratch);
        std::vector<std::vector<D>> grads;
        for (auto* p : params) grads.emplace_back(p->values.size(), 0.0);
        g.backward(x, h, weights, &dx, grads, scratch);
        ASSERT_EQ(dx.shape, x.shape);
        gradient_checker check;
        for (std::size_t k = 0; k < params.size(); ++k)
            for (std::size_t i = 0; i < params[k]->values.size(); ++i)
                check.expect(grads[k][i], gradient_checker::numeric(params[k]->values[i], loss),
                             params[k]->name + "[" + std::to_string(i) + "]");
        for (std::size_t i = 0; i < x.values.size(); ++i)
            check.expect(dx.values[i], gradient_checker::numeric(x.values[i], loss),
                         "x[" + std::to_string(i) + "]");
        std::ostringstream worst;
        worst << std::scientific << check.worst;
        RecordProperty("worst_relative_error_h" + std::to_string(hidden), worst.str());
    }
}

namespace {

/// Checks loss_and_gradients of `net` (scale 1/answers) on random x and soft targets.
void check_network(vc::sequence_network_config config, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    vc::sequence_network<D> net(config);
    randomise(net.parameters(), rng, 0.9);
    auto x = random_sequences({n, config.steps, config.input_features}, rng);
    std::vector<D> targets(n * net.answers_per_sequence());
    for (auto& y : targets) y = (uniform(rng) + 1) / 2;
    targets[0] = 1;  // hard labels too
    if (targets.size() > 1) targets[1] = 0;
    const double scale = 1.0 / static_cast<double>(n * net.scored_per_sequence());
    vc::sequence_workspace<D> ws;
    const auto loss = [&] {
        std::vector<std::vector<D>> unused;
        for (auto* p : net.parameters()) unused.emplace_back(p->values.size(), 0.0);
        return scale * net.loss_and_gradients(x, targets, scale, unused, ws);
    };
    std::vector<std::vector<D>> grads;
    for (auto* p : net.parameters()) grads.emplace_back(p->values.size(), 0.0);
    vc::sequence_tensor<D> dx;
    net.loss_and_gradients(x, targets, scale, grads, ws, nullptr, &dx);
    ASSERT_EQ(dx.shape, x.shape);
    gradient_checker check;
    const auto params = net.parameters();
    ASSERT_EQ(params.size(), 5u);
    for (std::size_t k = 0; k < params.size(); ++k)
        for (std::size_t i = 0; i < params[k]->values.size(); ++i)
            check.expect(grads[k][i], gradient_checker::numeric(params[k]->values[i], loss),
                         "parameter " + std::to_string(k) + " '" + params[k]->name + "'[" +
                             std::to_string(i) + "]");
    for (std::size_t i = 0; i < x.values.size(); ++i)
        check.expect(dx.values[i], gradient_checker::numeric(x.values[i], loss),
                     "x[" + std::to_string(i) + "]");
    std::ostringstream worst;
    worst << std::scientific << check.worst;
    ::testing::Test::RecordProperty("worst_relative_error_seed" + std::to_string(seed),
                                    worst.str());
}

}  // namespace

TEST(sequence_network, per_sequence_bce_gradients_match_finite_differences) {
    vc::sequence_network_config c;
    c.input_features = 4;
    c.steps = 5;
    c.hidden = 3;
    check_network(c, 4, 21);
    c.steps = 1;
    c.hidden = 6;
    check_network(c, 2, 22);
}

TEST(sequence_network, per_frame_masked_bce_gradients_match_finite_differences) {
    vc::sequence_network_config c;
    c.input_features = 3;
    c.steps = 5;
    c.hidden = 4;
    c.answer = vc::sequence_answer::per_frame;
    c.scored_frames = vc::scored_frames_from(5, 1);
    check_network(c, 3, 31);
    c.scored_frames = {1, 0, 1, 1, 0};
    check_network(c, 2, 32);
    c.scored_frames.clear();  // every frame
    check_network(c, 2, 33);
}

TEST(sequence_network, unscored_frame_targets_are_ignored) {
    vc::sequence_network_config c{3, 4, 2, vc::sequence_answer::per_frame, {0, 1, 1, 1}, 3};
    vc::sequence_network<D> net(c);
    std::mt19937_64 rng(4);
    const auto x = random_sequences({2, 4, 3}, rng);
    std::vector<D> a{0, 1, 0, 1, 0, 0, 1, 1}, b = a;
    b[0] = std::nan("");  // frame 0 of each sequence is not scored: never read
    b[4] = 7;
    std::vector<std::vector<D>> ga, gb;
    for (auto* p : net.parameters())
        ga.emplace_back(p->values.size(), 0.0), gb.emplace_back(p->values.size(), 0.0);
    vc::sequence_workspace<D> ws;
    const double la = net.loss_and_gradients(x, a, 1, ga, ws);
    const double lb = net.loss_and_gradients(x, b, 1, gb, ws);
    EXPECT_EQ(la, lb);
    EXPECT_EQ(ga, gb);
}

// 1 unit, 1 feature, gates z = σ(ln 3) = 3/4 and r = σ(−ln 3) = 1/4 (no weights on z and r),
// candidate weights chosen so that both candidates are tanh(atanh(1/2)) = 1/2:
//   t = 0, x = 1: h~ = tanh(atanh(½)·1) = ½;  h_0 = ¼·0 + ¾·½ = 3/8
//   t = 1, x = 0: r·h_0 = 3/32, U_h = atanh(½)·32/3  ⇒  h~ = ½;  h_1 = ¼·3/8 + ¾·½ = 15/32
// (with z on the old state, as in PyTorch, h_0 would be ¾·0 + ¼·½ = 1/8 instead).
TEST(gru, one_unit_two_steps_forward_matches_the_hand_computation) {
    const double ln3 = std::log(3.0), at = std::atanh(0.5);
    vc::gru<D> g(1, 1, 1);
    auto p = g.parameters();
    p[0].values = {0, 0, at};               // W: z, r, h~
    p[1].values = {0, 0, at * 32.0 / 3.0};  // U
    p[2].values = {ln3, -ln3, 0};           // b
    vc::sequence_tensor<D> x({1, 2, 1}), h;
    x.values = {1, 0};
    vc::gru_scratch<D> s;
    g.forward(x, h, s);
    ASSERT_EQ(h.values.size(), 2u);
    EXPECT_NEAR(h.values[0], 3.0 / 8.0, 1e-15);
    EXPECT_NEAR(h.values[1], 15.0 / 32.0, 1e-15);
}

// The same with every weight non-zero, written out with the equations of gru.hpp by hand.
TEST(gru, one_unit_two_steps_with_all_weights_matches_the_equations) {
    const double wz = 0.7, wr = -0.4, wh = 1.3, uz = -0.9, ur = 0.6, uh = 1.1;
    const double bz = 0.2, br = -0.1, bh = 0.3, x0 = 0.8, x1 = -1.5;
    const auto sig = [](double a) { return 1 / (1 + std::exp(-a)); };
    const double z0 = sig(wz * x0 + bz), hh0 = std::tanh(wh * x0 + bh);  // h_{-1} = 0
    const double h0 = z0 * hh0;
    const double z1 = sig(wz * x1 + uz * h0 + bz), r1 = sig(wr * x1 + ur * h0 + br);
    const double hh1 = std::tanh(wh * x1 + uh * (r1 * h0) + bh);
    const double h1 = (1 - z1) * h0 + z1 * hh1;

    vc::sequence_network_config c{1, 2, 1, vc::sequence_answer::per_frame, {}, 1};
    vc::sequence_network<D> net(c);
    auto params = net.parameters();
    params[0]->values = {wz, wr, wh};
    params[1]->values = {uz, ur, uh};
    params[2]->values = {bz, br, bh};
    params[3]->values = {2.5};  // head: logit = 2.5·h − 0.5
    params[4]->values = {-0.5};
    vc::sequence_tensor<D> x({1, 2, 1});
    x.values = {x0, x1};
    std::vector<D> logits;
    vc::sequence_workspace<D> ws;
    net.logits(x, logits, ws);
    ASSERT_EQ(logits.size(), 2u);
    EXPECT_NEAR(logits[0], 2.5 * h0 - 0.5, 1e-14);
    EXPECT_NEAR(logits[1], 2.5 * h1 - 0.5, 1e-14);
    EXPECT_NEAR(ws.states.values[1], h1, 1e-15);
}

TEST(binary_cross_entropy, matches_the_definition_and_is_stable_for_large_logits) {
    const std::vector<D> a{0.3, -2.0, 40.0, -40.0}, y{1, 0.25, 0, 1};
    std::vector<D> d(4);
    std::size_t correct = 0;
    const double loss = vc::sigmoid_binary_cross_entropy<D>(a, y, {}, 0.5, d, &correct);
    const auto sig = [](double v) { return 1 / (1 + std::exp(-v)); };
    const double l0 = -std::log(sig(0.3));
    const double l1 = -0.25 * std::log(sig(-2.0)) - 0.75 * std::log(1 - sig(-2.0));
    EXPECT_NEAR(loss, l0 + l1 + 40.0 + 40.0, 1e-12);  // −log σ(−40) = 40 + log(1 + e^−40)
    EXPECT_NEAR(d[0], 0.5 * (sig(0.3) - 1), 1e-15);
    EXPECT_NEAR(d[1], 0.5 * (sig(-2.0) - 0.25), 1e-15);
    EXPECT_NEAR(d[2], 0.5, 1e-15);
    EXPECT_NEAR(d[3], -0.5, 1e-15);
    EXPECT_EQ(correct, 2u);  // 0.3 → 1 right; −2 → 0 right; 40 → 1 wrong; −40 → 0 wrong
}

TEST(gru, rejects_a_wrong_feature_width_naming_it) {
    vc::gru<D> g(10, 4, 1);
    vc::sequence_tensor<D> x({2, 8, 9}), h;
    vc::gru_scratch<D> s;
    try {
        g.forward(x, h, s);
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "feature width");
        EXPECT_EQ(e.value(), "9");
        EXPECT_NE(std::string(e.what()).find("expected 10"), std::string::npos) << e.what();
    }
    EXPECT_THROW(vc::gru<D>(0, 4, 1), volley::invalid_parameter);
    EXPECT_THROW(vc::gru<D>(3, 0, 1), volley::invalid_parameter);
}

TEST(sequence_network, rejects_inconsistent_configurations) {
    vc::sequence_network_config c;
    c.answer = vc::sequence_answer::per_frame;
    c.scored_frames = {0, 1, 1};  // 3 flags for 8 frames
    EXPECT_THROW(vc::sequence_network<D>{c}, volley::invalid_parameter);
    c.scored_frames.assign(8, 0);
    EXPECT_THROW(vc::sequence_network<D>{c}, volley::invalid_parameter);
    c.answer = vc::sequence_answer::per_sequence;
    c.scored_frames = vc::scored_frames_from(8, 1);
    EXPECT_THROW(vc::sequence_network<D>{c}, volley::invalid_parameter);
    EXPECT_THROW(vc::scored_frames_from(8, 8), volley::invalid_parameter);
    c.scored_frames.clear();
    c.steps = 0;
    EXPECT_THROW(vc::sequence_network<D>{c}, volley::invalid_parameter);
}
