// The layer graph: the general Conv2D (asymmetric padding, stride, dilation, groups) against a
// direct loop written here, BatchNorm folding against the unfolded BatchNorm, validation errors.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_graph.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace vc = volley::convert;

namespace {

std::vector<float> random_values(std::size_t n, std::mt19937& rng, float lo = -1, float hi = 1) {
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

vc::layer_node conv_node(const vc::conv2d_spec& spec) {
    vc::layer_node n;
    n.name = "conv";
    n.source_type = "test";
    n.kind = vc::layer_kind::conv2d;
    n.conv = spec;
    return n;
}

/// Cross-correlation by the definition, in double.
std::vector<double> direct_conv(const vc::conv2d_spec& c, const std::vector<float>& x,
                                std::size_t h, std::size_t w, std::size_t& oh, std::size_t& ow) {
    oh = (h + c.pad_top + c.pad_bottom - c.dilation_h * (c.kernel_h - 1) - 1) / c.stride_h + 1;
    ow = (w + c.pad_left + c.pad_right - c.dilation_w * (c.kernel_w - 1) - 1) / c.stride_w + 1;
    const std::size_t ig = c.in_channels / c.groups, og = c.out_channels / c.groups;
    std::vector<double> y(c.out_channels * oh * ow);
    for (std::size_t o = 0; o < c.out_channels; ++o)
        for (std::size_t r = 0; r < oh; ++r)
            for (std::size_t q = 0; q < ow; ++q) {
                double s = c.bias[o];
                for (std::size_t i = 0; i < ig; ++i)
                    for (std::size_t ky = 0; ky < c.kernel_h; ++ky)
                        for (std::size_t kx = 0; kx < c.kernel_w; ++kx) {
                            const long yy =
                                long(r * c.stride_h + ky * c.dilation_h) - long(c.pad_top);
                            const long xx =
                                long(q * c.stride_w + kx * c.dilation_w) - long(c.pad_left);
                            if (yy < 0 || xx < 0 || yy >= long(h) || xx >= long(w)) continue;
                            const std::size_t ch = (o / og) * ig + i;
                            s += double(
                                     c.kernel[((o * ig + i) * c.kernel_h + ky) * c.kernel_w + kx]) *
                                 x[(ch * h + std::size_t(yy)) * w + std::size_t(xx)];
                        }
                y[(o * oh + r) * ow + q] = s;
            }
    return y;
}

}  // namespace

TEST(CnnGraph, GeneralConvolutionMatchesDirectLoop) {
    std::mt19937 rng(7);
    vc::conv2d_spec c;
    c.in_channels = 4, c.out_channels = 6, c.kernel_h = 3, c.kernel_w = 2;
    c.stride_h = 2, c.stride_w = 1, c.pad_top = 1, c.pad_bottom = 0, c.pad_left = 2,
    c.pad_right = 1;
    c.dilation_h = 1, c.dilation_w = 2, c.groups = 2;
    c.kernel = random_values(6 * 2 * 3 * 2, rng);
    c.bias = random_values(6, rng);
    vc::cnn_graph g;
    g.source_file = "test";
    g.input_shape = {1, 4, 9, 8};
    g.nodes.push_back(conv_node(c));
    g.validate();
    const vc::tensor<float> x(g.input_shape);
    auto xv = x;
    xv.values = random_values(x.values.size(), rng);
    const auto y = vc::analog_forward(g, xv);
    std::size_t oh, ow;
    const auto want = direct_conv(c, xv.values, 9, 8, oh, ow);
    EXPECT_EQ(g.nodes[0].output_shape, (vc::shape4{1, 6, oh, ow}));
    ASSERT_EQ(y.values.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(y.values[i], want[i], 1e-5) << i;
}

TEST(CnnGraph, BatchNormFoldEqualsUnfoldedBatchNorm) {
    std::mt19937 rng(11);
    vc::conv2d_spec c;
    c.in_channels = 3, c.out_channels = 5, c.kernel_h = c.kernel_w = 3,
    c.pad_top = c.pad_bottom = 1;
    c.pad_left = c.pad_right = 1;
    c.kernel = random_values(5 * 3 * 9, rng);
    c.bias = random_values(5, rng);
    const auto gamma = random_values(5, rng, 0.5f, 2.0f), beta = random_values(5, rng);
    const auto mean = random_values(5, rng), var = random_values(5, rng, 0.1f, 3.0f);
    const double eps = 1e-3;
    std::vector<float> x = random_values(3 * 6 * 6, rng, 0, 1);
    std::size_t oh, ow;
    const auto raw = direct_conv(c, x, 6, 6, oh, ow);  // the unfolded conv, then BN by definition
    vc::layer_node n = conv_node(c);
    vc::fold_batch_norm(n, gamma, beta, mean, var, eps);
    vc::cnn_graph g;
    g.source_file = "test";
    g.input_shape = {1, 3, 6, 6};
    g.nodes.push_back(n);
    g.validate();
    const auto y = vc::analog_forward_one(g, x);
    for (std::size_t o = 0; o < 5; ++o)
        for (std::size_t k = 0; k < oh * ow; ++k) {
            const double bn =
                gamma[o] * (raw[o * oh * ow + k] - mean[o]) / std::sqrt(var[o] + eps) + beta[o];
            EXPECT_NEAR(y[o * oh * ow + k], bn, 1e-5 * std::max(1.0, std::abs(bn)));
        }
}

TEST(CnnGraph, BatchNormFoldIntoDense) {
    vc::layer_node n;
    n.name = "fc";
    n.kind = vc::layer_kind::dense;
    n.dense = {2, 2, {1, 2, 3, 4}, {0.5f, -1}};
    // y = W x + b with x = (1, 1): (3.5, 6); BN with γ = (2, 1), β = (0, 1), μ = (1, 2), v = (3,
    // 0), ε = 1
    vc::fold_batch_norm(n, {2, 1}, {0, 1}, {1, 2}, {3, 0}, 1.0);
    vc::cnn_graph g;
    g.source_file = "test";
    g.input_shape = {1, 2, 1, 1};
    g.nodes.push_back(n);
    g.validate();
    const auto y = vc::analog_forward_one(g, std::vector<float>{1, 1});
    EXPECT_NEAR(y[0], 2 * (3.5 - 1) / 2.0, 1e-6);
    EXPECT_NEAR(y[1], 1 * (6 - 2) / 1.0 + 1, 1e-6);
    vc::layer_node pool;
    pool.kind = vc::layer_kind::avg_pool;
    EXPECT_THROW(vc::fold_batch_norm(pool, {1}, {0}, {0}, {1}, 1e-3), volley::invalid_parameter);
    EXPECT_THROW(vc::fold_batch_norm(n, {1}, {0}, {0}, {1}, 1e-3), volley::invalid_parameter);
}

TEST(CnnGraph, PoolingPaddingAddConcatenate) {
    // input 1x4x4 = 0..15; zero_pad(top 1) → maxpool 2 (stride 2) → (1,2,2);
    // avgpool 2 of the input → (1,2,2); add; concatenate with the max pool → (2,2,2)
    vc::cnn_graph g;
    g.source_file = "test";
    g.input_shape = {1, 1, 4, 4};
    vc::layer_node pad;
    pad.name = "pad", pad.kind = vc::layer_kind::zero_pad, pad.pad = {1, 1, 0, 0};
    vc::layer_node mp;
    mp.name = "max", mp.kind = vc::layer_kind::max_pool, mp.pool = {2, 2, 3, 2}, mp.inputs = {0};
    vc::layer_node ap;
    ap.name = "avg", ap.kind = vc::layer_kind::avg_pool, ap.pool = {2, 2, 2, 2};
    vc::layer_node add;
    add.name = "add", add.kind = vc::layer_kind::add, add.inputs = {1, 2};
    vc::layer_node cat;
    cat.name = "cat", cat.kind = vc::layer_kind::concatenate, cat.inputs = {3, 1};
    g.nodes = {pad, mp, ap, add, cat};
    g.validate();
    std::vector<float> x(16);
    for (int i = 0; i < 16; ++i) x[std::size_t(i)] = float(i);
    const auto y = vc::analog_forward_one(g, x);
    // padded rows: 0 | 0..3 | 4..7 | 8..11 | 12..15 | 0; max windows rows (0,1) and (3,4)
    const std::vector<float> mx{1, 3, 13, 15};
    const std::vector<float> av{2.5f, 4.5f, 10.5f, 12.5f};
    ASSERT_EQ(y.size(), 8u);
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_FLOAT_EQ(y[k], mx[k] + av[k]);
        EXPECT_FLOAT_EQ(y[4 + k], mx[k]);
    }
}

TEST(CnnGraph, ValidateRejectsBadShapesAndWeights) {
    vc::cnn_graph g;
    g.source_file = "model.h5";
    g.input_shape = {1, 2, 5, 5};
    vc::conv2d_spec c;
    c.in_channels = 3, c.out_channels = 1, c.kernel_h = c.kernel_w = 1;
    c.kernel = {1, 1, 1};
    c.bias = {0};
    g.nodes.push_back(conv_node(c));
    EXPECT_THROW(g.validate(), volley::invalid_parameter);  // 2 channels in, kernel wants 3
    g.input_shape = {1, 3, 5, 5};
    g.validate();
    g.nodes[0].conv.kernel[1] = std::nanf("");
    try {
        g.validate();
        FAIL();
    } catch (const volley::file_format_error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("model.h5"), std::string::npos) << m;
        EXPECT_NE(m.find("'conv'"), std::string::npos) << m;
        EXPECT_NE(m.find("index 1"), std::string::npos) << m;
    }
}
