// Every layer's backward pass against central finite differences, in double precision
// (relative tolerance 1e-4), plus forward checks against direct formulas.

#include <volley/convert/batch_norm.hpp>
#include <volley/convert/conv2d.hpp>
#include <volley/convert/dense.hpp>
#include <volley/convert/elementwise_layers.hpp>
#include <volley/convert/pooling.hpp>
#include <volley/convert/softmax_cross_entropy.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>

namespace vc = volley::convert;
using D = double;

namespace {

vc::tensor<D> random_tensor(const vc::shape4& s, std::mt19937_64& rng, double min_abs = 0) {
    std::uniform_real_distribution<double> u(-1, 1);
    vc::tensor<D> t(s);
    for (auto& v : t.values) {
        do v = u(rng);
        while (std::abs(v) < min_abs);
    }
    return t;
}

/// L = Σ r ⊙ layer(x); checks dL/dx and dL/dθ from backward() against central differences.
void check_gradients(vc::layer<D>& l, vc::tensor<D> x, vc::run_mode mode, std::uint64_t seed = 7) {
    std::mt19937_64 rng(seed);
    const vc::pass_context ctx{mode, 42, 3, 5};
    vc::layer_scratch<D> scratch;
    vc::tensor<D> y;
    l.forward(x, y, scratch, ctx);
    const auto r = random_tensor(y.shape, rng);
    const auto loss = [&] {
        vc::tensor<D> out;
        vc::layer_scratch<D> s;
        l.forward(x, out, s, ctx);
        double sum = 0;
        for (std::size_t k = 0; k < out.values.size(); ++k) sum += r.values[k] * out.values[k];
        return sum;
    };
    std::vector<std::vector<D>> grads;
    for (const auto& p : std::as_const(l).parameters()) grads.emplace_back(p.values.size(), 0.0);
    vc::tensor<D> dx;
    l.backward(x, y, r, &dx, grads, scratch, ctx);
    ASSERT_EQ(dx.shape, x.shape);

    const double eps = 1e-6;
    const auto expect_close = [&](double analytic, double numeric, const std::string& what) {
        const double scale = std::max({std::abs(analytic), std::abs(numeric), 1e-3});
        EXPECT_LE(std::abs(analytic - numeric), 1e-4 * scale)
            << l.kind() << " " << what << ": analytic " << analytic << ", numeric " << numeric;
    };
    for (std::size_t k = 0; k < x.values.size(); ++k) {
        const double saved = x.values[k];
        x.values[k] = saved + eps;
        const double up = loss();
        x.values[k] = saved - eps;
        const double down = loss();
        x.values[k] = saved;
        expect_close(dx.values[k], (up - down) / (2 * eps), "dx[" + std::to_string(k) + "]");
    }
    auto params = l.parameters();
    for (std::size_t p = 0; p < params.size(); ++p)
        for (std::size_t k = 0; k < params[p].values.size(); ++k) {
            const double saved = params[p].values[k];
            params[p].values[k] = saved + eps;
            const double up = loss();
            params[p].values[k] = saved - eps;
            const double down = loss();
            params[p].values[k] = saved;
            expect_close(grads[p][k], (up - down) / (2 * eps),
                         params[p].name + "[" + std::to_string(k) + "]");
        }
}

/// Gives a layer's parameters random values (biases included, so they are not all zero).
void randomise(vc::layer<D>& l, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& p : l.parameters())
        for (auto& v : p.values) v = u(rng);
}

}  // namespace

TEST(LayerGradients, Conv2dStride1Padding1) {
    std::mt19937_64 rng(1);
    vc::conv2d<D> l({2, 3, 3, 3, 1, 1}, 11);
    randomise(l, 2);
    check_gradients(l, random_tensor({2, 2, 5, 6}, rng), vc::run_mode::training);
}

TEST(LayerGradients, Conv2dStride2RectangularKernel) {
    std::mt19937_64 rng(3);
    vc::conv2d<D> l({3, 2, 2, 3, 2, 0}, 12);
    randomise(l, 4);
    check_gradients(l, random_tensor({2, 3, 7, 8}, rng), vc::run_mode::training);
}

TEST(LayerGradients, Conv2dStride2Padding2) {
    std::mt19937_64 rng(5);
    vc::conv2d<D> l({1, 2, 3, 3, 2, 2}, 13);
    randomise(l, 6);
    check_gradients(l, random_tensor({1, 1, 6, 5}, rng), vc::run_mode::training);
}

TEST(LayerGradients, DenseOnFlattenedFeatureMaps) {
    std::mt19937_64 rng(7);
    vc::dense<D> l(12, 4, 14);
    randomise(l, 8);
    check_gradients(l, random_tensor({3, 3, 2, 2}, rng), vc::run_mode::training);
}

TEST(LayerGradients, AveragePooling) {
    std::mt19937_64 rng(9);
    vc::pool2d<D> l(vc::pool_kind::average, 2, 2);
    check_gradients(l, random_tensor({2, 2, 5, 4}, rng), vc::run_mode::training);
}

TEST(LayerGradients, AveragePoolingOverlappingWindows) {
    std::mt19937_64 rng(10);
    vc::pool2d<D> l(vc::pool_kind::average, 3, 2);
    check_gradients(l, random_tensor({1, 2, 7, 7}, rng), vc::run_mode::training);
}

TEST(LayerGradients, MaxPooling) {
    std::mt19937_64 rng(11);
    vc::pool2d<D> l(vc::pool_kind::max, 2, 2);
    check_gradients(l, random_tensor({2, 2, 4, 6}, rng), vc::run_mode::training);
}

TEST(LayerGradients, MaxPoolingOverlappingWindows) {
    std::mt19937_64 rng(12);
    vc::pool2d<D> l(vc::pool_kind::max, 3, 2);
    check_gradients(l, random_tensor({1, 2, 7, 7}, rng), vc::run_mode::training);
}

TEST(LayerGradients, Relu) {
    std::mt19937_64 rng(13);
    vc::relu<D> l;
    check_gradients(l, random_tensor({2, 3, 4, 4}, rng, 1e-3), vc::run_mode::training);
}

TEST(LayerGradients, BatchNormTraining) {
    std::mt19937_64 rng(14);
    vc::batch_norm<D> l(3);
    randomise(l, 15);
    check_gradients(l, random_tensor({4, 3, 3, 2}, rng), vc::run_mode::training);
}

TEST(LayerGradients, BatchNormInference) {
    std::mt19937_64 rng(16);
    vc::batch_norm<D> l(2);
    randomise(l, 17);
    l.moving_mean() = {0.3, -0.2};
    l.moving_variance() = {0.5, 2.0};
    check_gradients(l, random_tensor({2, 2, 3, 3}, rng), vc::run_mode::inference);
}

TEST(LayerGradients, DropoutTraining) {
    std::mt19937_64 rng(18);
    vc::dropout<D> l(0.3);
    check_gradients(l, random_tensor({3, 2, 4, 4}, rng), vc::run_mode::training);
}

TEST(LayerGradients, Flatten) {
    std::mt19937_64 rng(19);
    vc::flatten<D> l;
    check_gradients(l, random_tensor({2, 3, 2, 2}, rng), vc::run_mode::training);
}

TEST(LayerGradients, SoftmaxCrossEntropy) {
    std::mt19937_64 rng(20);
    auto z = random_tensor({4, 5, 1, 1}, rng);
    for (auto& v : z.values) v *= 3;
    const std::vector<std::uint8_t> labels{0, 4, 2, 2};
    vc::tensor<D> dz;
    vc::softmax_cross_entropy<D>(z, labels, 0.25, &dz);
    for (std::size_t k = 0; k < z.values.size(); ++k) {
        const double saved = z.values[k], eps = 1e-6;
        z.values[k] = saved + eps;
        const double up = vc::softmax_cross_entropy<D>(z, labels, 1, nullptr);
        z.values[k] = saved - eps;
        const double down = vc::softmax_cross_entropy<D>(z, labels, 1, nullptr);
        z.values[k] = saved;
        const double numeric = 0.25 * (up - down) / (2 * eps);
        EXPECT_NEAR(dz.values[k], numeric, 1e-4 * std::max(std::abs(numeric), 1e-3)) << k;
    }
}

TEST(LayerForward, BatchNormMovingStatisticsTakeOneUpdatePerMicroBatch) {
    // Two slices, of two and one micro-batches (3, 1 and 2 images of 2 channels, 2×3 pixels),
    // each normalised with its own statistics. After the step the moving statistics are those of
    // three moving-average updates (momentum 0.9) towards the mean over all the step's pixels of
    // a channel and the count-weighted mean of the micro-batches' (biased) variances.
    std::mt19937_64 rng(30);
    vc::batch_norm<D> l(2, 1e-3, 0.9);
    l.moving_mean() = {0.3, -0.2};
    l.moving_variance() = {0.5, 2.0};
    const std::vector<vc::tensor<D>> micro{random_tensor({3, 2, 2, 3}, rng), random_tensor({1, 2, 2, 3}, rng),
                                           random_tensor({2, 2, 2, 3}, rng)};
    vc::layer_scratch<D> first, second;
    const vc::pass_context ctx{vc::run_mode::training, 1, 0, 0};
    vc::tensor<D> y;
    for (std::size_t k = 0; k < micro.size(); ++k) l.forward(micro[k], y, k < 2 ? first : second, ctx);
    const vc::layer_scratch<D>* slices[] = {&first, &second};
    l.finish_training_step(slices);
    const double keep = 0.9 * 0.9 * 0.9;
    for (std::size_t c = 0; c < 2; ++c) {
        double sum = 0, count = 0, weighted_var = 0;
        for (const auto& t : micro) {
            double s = 0, s2 = 0;
            const double n = static_cast<double>(t.shape.n * 6);
            for (std::size_t i = 0; i < t.shape.n; ++i)
                for (std::size_t k = 0; k < 6; ++k) s += t.values[(i * 2 + c) * 6 + k];
            for (std::size_t i = 0; i < t.shape.n; ++i)
                for (std::size_t k = 0; k < 6; ++k) s2 += std::pow(t.values[(i * 2 + c) * 6 + k] - s / n, 2);
            sum += s, count += n, weighted_var += s2;
        }
        const double m0 = c == 0 ? 0.3 : -0.2, v0 = c == 0 ? 0.5 : 2.0;
        EXPECT_NEAR(l.moving_mean()[c], keep * m0 + (1 - keep) * sum / count, 1e-12) << c;
        EXPECT_NEAR(l.moving_variance()[c], keep * v0 + (1 - keep) * weighted_var / count, 1e-12) << c;
    }
}

TEST(LayerForward, Conv2dMatchesDirectCrossCorrelation) {
    std::mt19937_64 rng(21);
    vc::conv2d<D> l({2, 3, 3, 2, 2, 1}, 22);
    randomise(l, 23);
    const auto x = random_tensor({2, 2, 6, 7}, rng);
    vc::tensor<D> y;
    vc::layer_scratch<D> s;
    l.forward(x, y, s, {});
    const auto& w = l.parameters()[0].values;
    const auto& b = l.parameters()[1].values;
    ASSERT_EQ(y.shape, (vc::shape4{2, 3, 3, 4}));  // (6 + 2 − 3)/2 + 1, (7 + 2 − 2)/2 + 1
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t o = 0; o < 3; ++o)
            for (std::size_t oy = 0; oy < 3; ++oy)
                for (std::size_t ox = 0; ox < 4; ++ox) {
                    double sum = b[o];
                    for (std::size_t c = 0; c < 2; ++c)
                        for (std::size_t ky = 0; ky < 3; ++ky)
                            for (std::size_t kx = 0; kx < 2; ++kx) {
                                const long yy = static_cast<long>(oy * 2 + ky) - 1;
                                const long xx = static_cast<long>(ox * 2 + kx) - 1;
                                if (yy < 0 || yy >= 6 || xx < 0 || xx >= 7) continue;
                                sum += w[((o * 2 + c) * 3 + ky) * 2 + kx] *
                                       x.at(i, c, static_cast<std::size_t>(yy),
                                            static_cast<std::size_t>(xx));
                            }
                    EXPECT_NEAR(y.at(i, o, oy, ox), sum, 1e-12);
                }
}

TEST(LayerForward, DropoutKeepsExpectationAndPassesThroughInInference) {
    vc::dropout<D> l(0.5);
    vc::tensor<D> x({8, 4, 16, 16}, 1.0), y;
    vc::layer_scratch<D> s;
    l.forward(x, y, s, {vc::run_mode::training, 1, 0, 0});
    double sum = 0;
    std::size_t zeros = 0;
    for (double v : y.values) sum += v, zeros += v == 0;
    EXPECT_NEAR(sum / static_cast<double>(y.values.size()), 1.0, 0.05);
    EXPECT_NEAR(static_cast<double>(zeros) / static_cast<double>(y.values.size()), 0.5, 0.05);
    l.forward(x, y, s, {});
    EXPECT_EQ(y.values, x.values);
}

TEST(LayerErrors, ShapeMismatchNamesTheLayer) {
    vc::dense<D> l(10, 2, 1);
    l.set_name("dense_7");
    try {
        (void)l.output_shape({1, 3, 2, 2});
        FAIL() << "expected invalid_parameter";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("dense_7"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("(1, 3, 2, 2)"), std::string::npos) << e.what();
    }
    EXPECT_THROW(vc::conv2d<D>({1, 1, 3, 3, 0, 0}, 1), volley::invalid_parameter);
    EXPECT_THROW(vc::dropout<D>(1.0), volley::invalid_parameter);
}
