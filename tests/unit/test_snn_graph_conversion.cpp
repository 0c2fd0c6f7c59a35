// Conversion of CNNs that are not a chain: a Keras Functional model with a residual Add and a
// Concatenate, and a hand-built Concatenate feeding a convolution. At large T the spiking
// network predicts what the analog CNN predicts, and each spiking layer's spike count / T is
// its normalised activation, computed here from analog_forward's per-node outputs.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/error.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace volley::convert {
namespace {

const std::string keras_dir = std::string(VOLLEY_TEST_DATA_DIR) + "/keras/";

tensor<float> random_images(const shape4& one, std::size_t n, unsigned seed) {
    tensor<float> x(one.with_batch(n));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& v : x.values) v = u(rng);
    return x;
}

/// Every node's output for every image, from the analog forward pass: [image][node][value].
std::vector<std::vector<std::vector<float>>> node_outputs(const cnn_graph& g, const tensor<float>& x) {
    std::vector<std::vector<std::vector<float>>> out(x.shape.n, std::vector<std::vector<float>>(g.nodes.size()));
    analog_forward(g, x, {.threads = 1}, [&](std::size_t i, std::size_t k, std::span<const float> v) {
        out[i][k].assign(v.begin(), v.end());
    });
    return out;
}

/// Runs `net` on each image for T steps and checks, per spiking layer, that spike count / T is
/// the analog activation / λ (λ = the maximum over these very images, so nothing is clipped):
/// mean error below `mean_tol`, and that the prediction is the analog CNN's.
void expect_snn_matches_cnn(const cnn_graph& g, const tensor<float>& x, std::int64_t T, double mean_tol,
                            double min_mean_rate = 0.01) {
    normalization_options no;
    no.percentile = 100;
    no.forward.threads = 1;
    const auto scales = compute_layer_scales(g, x, no);
    const auto net = convert_to_snn(g, scales);
    const auto act = node_outputs(g, x);
    const std::size_t per = g.input_shape.per_image();
    for (std::size_t i = 0; i < x.shape.n; ++i) {
        const std::span<const float> image(x.values.data() + i * per, per);
        snn::simulation sim(net.network, snn::context{.threads = 1}, {.dt_ms = 1.0});
        std::vector<snn::spike_recorder> rec;
        for (const auto& l : net.layers) rec.push_back(sim.record_spikes(l.population));
        sim.set_input(net.layers.front().population, volley::snn::constant_input{net.first_layer_current(image)});
        sim.run(static_cast<double>(T));
        for (std::size_t l = 0; l < net.layers.size(); ++l) {
            const auto& layer = net.layers[l];
            const auto& a = act[i][layer.node];
            ASSERT_EQ(a.size(), layer.size()) << layer.name;
            std::vector<double> count(layer.size(), 0.0);
            for (const auto id : rec[l].node_ids()) ++count[id];
            double err = 0, mean = 0;
            for (std::size_t j = 0; j < a.size(); ++j) {
                const double want = std::max(0.0f, a[j]) / layer.lambda;
                err += std::abs(count[j] / static_cast<double>(T) - want) / static_cast<double>(a.size());
                mean += want / static_cast<double>(a.size());
            }
            EXPECT_LT(err, mean_tol) << "image " << i << " layer " << layer.name << " (mean rate " << mean << ")";
            if (l + 1 < net.layers.size()) {
                EXPECT_GE(mean, min_mean_rate) << "layer " << layer.name << " is nearly silent";
            }
        }
    }
    // The predictions (spike count, ties by the membrane: classes whose logits are all negative
    // stay silent) against the analog CNN's.
    std::vector<std::int32_t> cnn;
    for (std::size_t i = 0; i < x.shape.n; ++i) {
        const auto& logits = act[i][g.output()];
        cnn.push_back(static_cast<std::int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin()));
    }
    evaluation_options eo;
    eo.timesteps = {T};
    const auto r = evaluate_snn(net, x.values, {}, cnn, eo);
    EXPECT_EQ(r.checkpoints[0].agree, x.shape.n);
}

// The Keras fixture: pad → stem(ReLU) → res_a(ReLU) → res_b, Add(stem, res_b) → ReLU, a 1x1
// branch on stem, Concatenate, global average pool, Dense. The Add of a pre-activation branch
// (res_b) and a post-ReLU one (stem) becomes one IF population fed by the res_b convolution
// and a one-to-one projection from stem, each with its own λ.
TEST(snn_graph_conversion, residual_add_and_concatenate_follow_the_cnn) {
    const auto g = read_cnn(keras_dir + "functional_residual.h5");
    const auto x = random_images(g.input_shape, 12, 7);
    normalization_options no;
    no.percentile = 100;
    const auto net = convert_to_snn(g, compute_layer_scales(g, x, no));
    std::vector<std::string> names;
    for (const auto& l : net.layers) names.push_back(l.name);
    EXPECT_EQ(names, (std::vector<std::string>{"stem", "res_a", "add", "branch", "logits"}));
    expect_snn_matches_cnn(g, x, 2000, 0.005);
}

/// image 2x6x6 → conv0 (4, 3x3 pad 1, ReLU) → a: conv (3, 3x3 pad 1, ReLU), b: conv (2, 1x1,
/// ReLU) → Concatenate(a, b) → conv (4, 3x3 pad 1, ReLU) → avg pool 2 → flatten → dense (5).
/// With `add`: b has 3 channels and an Add (no ReLU) of the two post-ReLU branches replaces
/// the Concatenate, so c gets two projections with the same kernel, each with its branch's λ.
cnn_graph concatenate_graph(bool add = false) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-0.35f, 0.6f);
    cnn_graph g;
    g.source_file = "concat.h5";
    g.input_shape = {1, 2, 6, 6};
    auto conv = [&](std::string name, std::vector<std::size_t> in, std::size_t ci, std::size_t co, std::size_t k) {
        layer_node n;
        n.name = std::move(name);
        n.kind = layer_kind::conv2d;
        n.inputs = std::move(in);
        n.relu = true;
        n.conv.in_channels = ci, n.conv.out_channels = co, n.conv.kernel_h = n.conv.kernel_w = k;
        n.conv.pad_top = n.conv.pad_bottom = n.conv.pad_left = n.conv.pad_right = k / 2;
        for (std::size_t i = 0; i < co * ci * k * k; ++i) n.conv.kernel.push_back(u(rng) / static_cast<float>(k));
        for (std::size_t i = 0; i < co; ++i) n.conv.bias.push_back(u(rng) * 0.2f);
        g.nodes.push_back(n);
    };
    conv("conv0", {}, 2, 4, 3);
    conv("a", {0}, 4, 3, 3);
    conv("b", {0}, 4, add ? 3 : 2, 1);
    layer_node cat;
    cat.name = "cat";
    cat.kind = add ? layer_kind::add : layer_kind::concatenate;
    cat.inputs = {1, 2};
    g.nodes.push_back(cat);
    conv("c", {3}, add ? 3 : 5, 4, 3);
    layer_node pool;
    pool.name = "pool";
    pool.kind = layer_kind::avg_pool;
    pool.inputs = {4};
    g.nodes.push_back(pool);
    layer_node flat;
    flat.name = "flat";
    flat.kind = layer_kind::flatten;
    flat.inputs = {5};
    g.nodes.push_back(flat);
    layer_node d;
    d.name = "out";
    d.kind = layer_kind::dense;
    d.inputs = {6};
    d.dense.in_features = 36, d.dense.out_features = 5;
    for (std::size_t i = 0; i < 36 * 5; ++i) d.dense.kernel.push_back(u(rng));
    for (std::size_t i = 0; i < 5; ++i) d.dense.bias.push_back(0.0f);
    g.nodes.push_back(d);
    g.validate();
    return g;
}

TEST(snn_graph_conversion, concatenate_into_a_convolution_follows_the_cnn) {
    const auto g = concatenate_graph();
    expect_snn_matches_cnn(g, random_images(g.input_shape, 8, 3), 2000, 0.005);
}

// Every other Keras fixture (BatchNorm, depthwise/separable convolutions, Keras 2.2 and Keras 3
// files) converts and follows its CNN in the same way. SeparableConv2D is a depthwise
// convolution without ReLU and a 1x1 convolution: the converter composes them into one.
TEST(snn_graph_conversion, every_keras_fixture_converts_and_follows_the_cnn) {
    for (const char* name : {"cl_batchnorm", "depthwise_separable", "keras22_style", "keras3_functional"}) {
        SCOPED_TRACE(name);
        const auto g = read_cnn(keras_dir + name + ".h5");
        // The fixture's random SeparableConv2D is nearly silent in the CNN itself on these images.
        expect_snn_matches_cnn(g, random_images(g.input_shape, 6, 5), 2000, 0.005,
                               std::string(name) == "depthwise_separable" ? 0.0 : 0.01);
    }
    const auto g = read_keras_weights(keras_dir + "weights_only.h5", keras_dir + "weights_only.json");
    SCOPED_TRACE("weights_only");
    expect_snn_matches_cnn(g, random_images(g.input_shape, 6, 5), 2000, 0.005);
}

/// image 2x6x6 → conv0 (4, 3x3 pad 1, ReLU) → depthwise (groups 4, 3x3 pad 1, no ReLU) →
/// pointwise (3, 1x1, ReLU) → flatten → dense (8, no ReLU) → dense (6, ReLU) → dense (4).
cnn_graph composed_graph() {
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> u(-0.3f, 0.6f);
    cnn_graph g;
    g.source_file = "composed.h5";
    g.input_shape = {1, 2, 6, 6};
    auto conv = [&](std::string name, std::size_t ci, std::size_t co, std::size_t k, std::size_t groups, bool relu) {
        layer_node n;
        n.name = std::move(name);
        n.kind = layer_kind::conv2d;
        if (!g.nodes.empty()) n.inputs = {g.nodes.size() - 1};
        n.relu = relu;
        n.conv.in_channels = ci, n.conv.out_channels = co, n.conv.kernel_h = n.conv.kernel_w = k, n.conv.groups = groups;
        n.conv.pad_top = n.conv.pad_bottom = n.conv.pad_left = n.conv.pad_right = k / 2;
        for (std::size_t i = 0; i < co * (ci / groups) * k * k; ++i) n.conv.kernel.push_back(u(rng) / static_cast<float>(k));
        for (std::size_t i = 0; i < co; ++i) n.conv.bias.push_back(u(rng) * 0.2f);
        g.nodes.push_back(n);
    };
    auto dense = [&](std::string name, std::size_t in, std::size_t out, bool relu) {
        layer_node d;
        d.name = std::move(name);
        d.kind = layer_kind::dense;
        d.inputs = {g.nodes.size() - 1};
        d.relu = relu;
        d.dense.in_features = in, d.dense.out_features = out;
        for (std::size_t i = 0; i < in * out; ++i) d.dense.kernel.push_back(u(rng) / 3.0f);
        for (std::size_t i = 0; i < out; ++i) d.dense.bias.push_back(u(rng) * 0.2f);
        g.nodes.push_back(d);
    };
    conv("conv0", 2, 4, 3, 1, true);
    conv("depthwise", 4, 4, 3, 4, false);
    conv("pointwise", 4, 3, 1, 1, true);
    layer_node flat;
    flat.name = "flat";
    flat.kind = layer_kind::flatten;
    flat.inputs = {2};
    g.nodes.push_back(flat);
    dense("fc_linear", 108, 8, false);
    dense("fc", 8, 6, true);
    dense("out", 6, 4, false);
    g.validate();
    return g;
}

// Consecutive linear layers compose into one projection: a depthwise convolution and a 1x1
// convolution (SeparableConv2D), and two Dense layers; the spiking layers are conv0, the
// pointwise (composed) layer, fc (composed) and the output.
TEST(snn_graph_conversion, consecutive_linear_layers_compose) {
    const auto g = composed_graph();
    const auto x = random_images(g.input_shape, 8, 9);
    normalization_options no;
    no.percentile = 100;
    const auto net = convert_to_snn(g, compute_layer_scales(g, x, no));
    std::vector<std::string> names;
    for (const auto& l : net.layers) names.push_back(l.name);
    EXPECT_EQ(names, (std::vector<std::string>{"conv0", "pointwise", "fc", "out"}));
    expect_snn_matches_cnn(g, x, 2000, 0.005);
}

TEST(snn_graph_conversion, add_of_post_relu_branches_into_a_convolution_follows_the_cnn) {
    const auto g = concatenate_graph(true);
    const auto x = random_images(g.input_shape, 8, 4);
    normalization_options no;
    no.percentile = 100;
    const auto scales = compute_layer_scales(g, x, no);
    EXPECT_NE(scales.lambda[1], scales.lambda[2]);  // the branches have their own scales
    expect_snn_matches_cnn(g, x, 2000, 0.005);
}

// What the spiking network cannot say is still an error naming the layer.
TEST(snn_graph_conversion, two_linear_layers_in_a_row_are_an_error) {
    auto g = concatenate_graph();
    g.nodes[1].relu = false;  // a: conv without ReLU, read by the Concatenate
    layer_scales s;
    s.lambda.assign(g.nodes.size(), 1.0);
    s.measured.assign(g.nodes.size(), true);
    s.positive_count.assign(g.nodes.size(), 1);
    try {
        convert_to_snn(g, s);
        ADD_FAILURE() << "no error";
    } catch (const unsupported_model& e) {
        EXPECT_NE(std::string(e.what()).find("'cat'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("ReLU"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace volley::convert
