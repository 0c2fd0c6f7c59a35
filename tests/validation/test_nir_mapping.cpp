// How NIR graphs map onto the engine beyond the plain from_list chains: a Conv2d between two
// population nodes as one shared-kernel convolution projection (checked against a direct
// convolution written here and against the sparse mapping), and an Output fed by a linear node
// as a memoryless readout whose value is checked against W·spikes + b computed here.

#include <volley/error.hpp>
#include <volley/snn.hpp>
#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace vs = volley::snn;

namespace {

const std::filesystem::path data_dir = std::filesystem::path(VOLLEY_TEST_DATA_DIR) / "nir";

using params = std::map<std::string, vs::nir_array>;

/// Deterministic values in [lo, hi).
std::vector<double> uniform(std::size_t n, double lo, double hi, std::uint64_t seed) {
    std::vector<double> v(n);
    std::uint64_t s = seed;
    for (auto& x : v) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x = lo + (hi - lo) * static_cast<double>(s >> 11) / 9007199254740992.0;
    }
    return v;
}

vs::nir_array ints(std::vector<double> v) { return vs::nir_array::vector(std::move(v), vs::nir_dtype::int64); }

vs::nir_array with_shape(std::vector<double> values, std::vector<std::size_t> shape) {
    auto a = vs::nir_array::vector(std::move(values));
    a.shape = std::move(shape);
    return a;
}

struct conv_case {
    std::size_t c, h, w, o, kh, kw;
    long long sh, sw, dh, dw, groups;
    vs::nir_array padding;
    // Expected padding before each axis (PyTorch): top and left.
    long long pad_top, pad_left;
};

/// Input (C,H,W) -> Conv2d -> IF (threshold huge unless `threshold`) -> Output.
vs::nir_graph conv_graph(const conv_case& k, double threshold, std::vector<double>& kernel, std::vector<double>& bias) {
    kernel = uniform(k.o * (k.c / k.groups) * k.kh * k.kw, -1, 1, 7 + k.kh);
    bias = uniform(k.o, -0.2, 0.2, 5);
    vs::nir_graph g;
    g.nodes.emplace_back("in", "Input", params{{"shape", ints({double(k.c), double(k.h), double(k.w)})}});
    g.nodes.emplace_back("conv", "Conv2d",
                         params{{"weight", with_shape(kernel, {k.o, k.c / k.groups, k.kh, k.kw})},
                                {"bias", vs::nir_array::vector(bias)},
                                {"stride", ints({double(k.sh), double(k.sw)})},
                                {"dilation", ints({double(k.dh), double(k.dw)})},
                                {"groups", vs::nir_array::scalar(double(k.groups), vs::nir_dtype::int64)},
                                {"padding", k.padding}});
    g.edges = {{"in", "conv"}};
    vs::analyse_nir_graph(g);  // infers the conv's output shape
    const auto out = g.find("conv")->output_shape;  // a copy: emplace_back moves the nodes
    const std::size_t n = out[0] * out[1] * out[2];
    g.nodes.emplace_back("if", "IF", params{{"r", vs::nir_array::vector(std::vector<double>(n, 1.0))},
                                            {"v_threshold", vs::nir_array::vector(std::vector<double>(n, threshold))},
                                            {"v_reset", vs::nir_array::vector(std::vector<double>(n, 0.0))}});
    g.nodes.emplace_back("out", "Output", params{{"shape", ints({double(out[0]), double(out[1]), double(out[2])})}});
    g.edges = {{"in", "conv"}, {"conv", "if"}, {"if", "out"}};
    vs::analyse_nir_graph(g);
    return g;
}

/// PyTorch's Conv2d written out directly: out[o][y][x] = bias[o] + sum over the group's input
/// channels and taps of kernel · input at (y·s − pad + ky·d), zero outside.
std::vector<double> direct_conv(const conv_case& k, const std::vector<double>& x, const std::vector<double>& kernel,
                                const std::vector<double>& bias, std::size_t oh, std::size_t ow) {
    std::vector<double> y(k.o * oh * ow);
    const std::size_t cg = k.c / k.groups, og = k.o / k.groups;
    for (std::size_t o = 0; o < k.o; ++o)
        for (std::size_t oy = 0; oy < oh; ++oy)
            for (std::size_t ox = 0; ox < ow; ++ox) {
                double sum = bias[o];
                for (std::size_t ci = 0; ci < cg; ++ci)
                    for (std::size_t ky = 0; ky < k.kh; ++ky)
                        for (std::size_t kx = 0; kx < k.kw; ++kx) {
                            const long long iy = static_cast<long long>(oy) * k.sh - k.pad_top + static_cast<long long>(ky) * k.dh;
                            const long long ix = static_cast<long long>(ox) * k.sw - k.pad_left + static_cast<long long>(kx) * k.dw;
                            if (iy < 0 || ix < 0 || iy >= static_cast<long long>(k.h) || ix >= static_cast<long long>(k.w)) continue;
                            const std::size_t c = (o / og) * cg + ci;
                            sum += kernel[((o * cg + ci) * k.kh + ky) * k.kw + kx] *
                                   x[(c * k.h + static_cast<std::size_t>(iy)) * k.w + static_cast<std::size_t>(ix)];
                        }
                y[(o * oh + oy) * ow + ox] = sum;
            }
    return y;
}

std::size_t count_convolutions(const vs::network& net) {
    std::size_t n = 0;
    for (const auto& p : net.projections()) n += std::holds_alternative<vs::convolution>(p.rule);
    return n;
}

const conv_case conv_cases[] = {
    // 'same' with an even kernel and dilation: PyTorch pads the smaller half before.
    {2, 7, 6, 3, 4, 3, 1, 1, 2, 1, 1, vs::nir_array::string("same"), 3, 1},
    // A (rows, cols) padding pair, strides, groups.
    {4, 9, 8, 2, 3, 3, 2, 3, 1, 1, 2, ints({1, 2}), 1, 2},
    // 'valid', one int for both axes of stride.
    {3, 6, 6, 4, 2, 3, 2, 2, 1, 1, 1, vs::nir_array::string("valid"), 0, 0},
    // A scalar padding.
    {1, 5, 5, 2, 3, 3, 1, 1, 1, 1, 1, vs::nir_array::scalar(1, vs::nir_dtype::int64), 1, 1},
};

TEST(NirConvolution, ConvBetweenPopulationsIsOneKernelThatMatchesADirectConvolution) {
    for (const auto& k : conv_cases) {
        SCOPED_TRACE("case with kernel " + std::to_string(k.kh) + "x" + std::to_string(k.kw));
        std::vector<double> kernel, bias;
        const auto g = conv_graph(k, 1e9, kernel, bias);
        const auto& shape = g.find("conv")->output_shape;
        const auto m = vs::nir_to_network(g);
        ASSERT_EQ(m.net.projections().size(), 1u);
        ASSERT_EQ(count_convolutions(m.net), 1u);
        const auto& cv = std::get<vs::convolution>(m.net.projections()[0].rule);
        EXPECT_EQ(cv.pad_top, static_cast<std::uint32_t>(k.pad_top));
        EXPECT_EQ(cv.pad_left, static_cast<std::uint32_t>(k.pad_left));
        EXPECT_EQ(cv.out_height(), shape[1]);
        EXPECT_EQ(cv.out_width(), shape[2]);
        const auto sparse = vs::nir_to_network(g, {.convolutions = false});
        EXPECT_EQ(count_convolutions(sparse.net), 0u);
        // One step of analog input: v of the IF is the convolution of it plus the bias.
        const auto x = uniform(k.c * k.h * k.w, -1, 1, 99);
        const auto expected = direct_conv(k, x, kernel, bias, shape[1], shape[2]);
        for (const auto* model : {&m, &sparse}) {
            const auto r = vs::run_nir(*model, {{x}}, 1, 1, {"if"});
            const auto& v = r.v.at("if")[0];
            ASSERT_EQ(v.size(), expected.size());
            double worst = 0;
            for (std::size_t i = 0; i < v.size(); ++i) worst = std::max(worst, std::abs(v[i] - expected[i]));
            EXPECT_LT(worst, 1e-5);  // fixed-point delivery; a wrong tap or pad is off by ~0.1 or more
        }
    }
}

TEST(NirConvolution, ConvolutionAndSparseMappingsSpikeAlikeForAnyThreadCount) {
    const auto& k = conv_cases[1];
    std::vector<double> kernel, bias;
    const auto g = conv_graph(k, 0.8, kernel, bias);
    const auto conv = vs::nir_to_network(g);
    const auto sparse = vs::nir_to_network(g, {.convolutions = false});
    std::vector<std::vector<double>> x;
    for (std::size_t t = 0; t < 50; ++t) x.push_back(uniform(k.c * k.h * k.w, -0.5, 1, 1000 + t));
    const auto ref = vs::run_nir(sparse, {x}, 50);
    EXPECT_GT(ref.spike_counts.at("if"), 20u);
    for (int threads : {1, 2, 3}) {
        const auto r = vs::run_nir(conv, {x}, 50, threads);
        EXPECT_EQ(r.outputs[0].steps, ref.outputs[0].steps) << threads;
        EXPECT_EQ(r.outputs[0].neurons, ref.outputs[0].neurons) << threads;
    }
}

std::vector<std::vector<double>> random_spikes(std::size_t steps, std::size_t n, double p, std::uint64_t seed) {
    std::vector<std::vector<double>> x;
    for (std::size_t t = 0; t < steps; ++t) {
        auto u = uniform(n, 0, 1, seed * 7919 + t);
        for (auto& v : u) v = v < p ? 1.0 : 0.0;
        x.push_back(u);
    }
    return x;
}

TEST(NirConvolution, ConvIfCnnSpikesAlikeWithKernelsAndUsesFarLessMemory) {
    const auto g = vs::read_nir(data_dir / "cnn_conv_if.nir");
    const vs::nir_import_options opt{.reset = vs::discrete_neuron::reset_mode::subtract};
    auto sparse_opt = opt;
    sparse_opt.convolutions = false;
    const auto conv = vs::nir_to_network(g, opt);
    const auto sparse = vs::nir_to_network(g, sparse_opt);
    // Conv2d '0' (input -> IF 1) and '2' (IF 1 -> IF 3) stand alone between populations; '5'
    // follows a SumPool2d and stays a composed sparse matrix.
    EXPECT_EQ(count_convolutions(conv.net), 2u);
    EXPECT_EQ(count_convolutions(sparse.net), 0u);
    const auto x = random_spikes(40, 2 * 34 * 34, 0.5, 3);
    const auto t0 = std::chrono::steady_clock::now();
    const auto a = vs::run_nir(conv, {x}, 40);
    const auto t1 = std::chrono::steady_clock::now();
    const auto b = vs::run_nir(sparse, {x}, 40);
    const auto t2 = std::chrono::steady_clock::now();
    std::printf("cnn_conv_if 40 steps, 1 thread (build + run): %.3f s with convolutions, %.3f s sparse\n",
                std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
    const auto a2 = vs::run_nir(conv, {x}, 40, 2);
    for (std::size_t k = 0; k < a.layers.size(); ++k) {  // threads 1 and 2 alike
        EXPECT_EQ(a.layers[k].steps, a2.layers[k].steps) << a.layers[k].node;
        EXPECT_EQ(a.layers[k].neurons, a2.layers[k].neurons) << a.layers[k].node;
    }
    EXPECT_GT(a.spike_counts.at("6"), 0u);
    EXPECT_EQ(a.spike_counts, b.spike_counts);
    EXPECT_EQ(a.outputs[0].steps, b.outputs[0].steps);
    EXPECT_EQ(a.outputs[0].neurons, b.outputs[0].neurons);
    for (std::size_t k = 0; k < a.layers.size(); ++k) {
        EXPECT_EQ(a.layers[k].steps, b.layers[k].steps) << a.layers[k].node;
        EXPECT_EQ(a.layers[k].neurons, b.layers[k].neurons) << a.layers[k].node;
    }
    const auto bytes = [](const vs::network& net) {
        vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.1});
        return sim.stats().synapse_table_bytes;
    };
    const auto conv_bytes = bytes(conv.net), sparse_bytes = bytes(sparse.net);
    std::printf("cnn_conv_if synapse storage: %llu bytes with convolutions, %llu bytes sparse\n",
                static_cast<unsigned long long>(conv_bytes), static_cast<unsigned long long>(sparse_bytes));
    // The two kernels replace 5.8 MB of tables; what stays is the pool+conv and dense layers.
    EXPECT_LT(conv_bytes * 2, sparse_bytes);
}

// ---- Readouts -----------------------------------------------------------------------------

TEST(NirReadout, WriterAllPrimitivesFileRunsAndItsLinearReadoutIsTheWeightedInput) {
    const auto g = vs::read_nir(data_dir / "allprims.nir");
    const auto m = vs::nir_to_network(g);
    ASSERT_EQ(m.outputs.size(), 1u);
    EXPECT_EQ(m.outputs[0].node, "output");
    EXPECT_EQ(m.outputs[0].source, "lin");
    EXPECT_EQ(m.population("output").type, "Output");
    EXPECT_FALSE(m.population("output").spiking);
    // Every neuron node of the file is a population, linked or not.
    for (const char* node : {"thr", "li", "if", "i", "culi"}) EXPECT_NO_THROW(m.population(node)) << node;
    std::vector<std::vector<double>> x;
    for (std::size_t t = 0; t < 100; ++t) x.push_back(uniform(3, -2, 2, 500 + t));
    const auto r = vs::run_nir(m, {x}, 100);
    EXPECT_EQ(r.steps, 100);
    const auto& w = g.find("lin")->param("weight")->values;  // (3, 3), all ones in this file
    const auto& v = r.v.at("output");
    ASSERT_EQ(v.size(), 100u);
    for (std::size_t t = 0; t < 100; ++t)
        for (std::size_t i = 0; i < 3; ++i) {
            double y = 0;
            for (std::size_t j = 0; j < 3; ++j) y += w[i * 3 + j] * x[t][j];
            ASSERT_NEAR(v[t][i], y, 1e-5) << "step " << t << " element " << i;
        }
}

TEST(NirReadout, AffineReadoutOfSpikesIsWTimesSpikesPlusBiasUnderBothDiscretisations) {
    vs::nir_graph g;
    g.nodes.emplace_back("in", "Input", params{{"shape", ints({2})}});
    g.nodes.emplace_back("lif", "LIF", params{{"tau", vs::nir_array::vector({0.002, 0.004})},
                                              {"r", vs::nir_array::vector({1, 1})},
                                              {"v_leak", vs::nir_array::vector({0, 0})},
                                              {"v_threshold", vs::nir_array::vector({0.05, 0.05})}});
    const std::vector<double> w{0.5, -1.25, 2.0, 0.75, -0.5, 1.5}, b{0.1, -0.2, 0.3};
    g.nodes.emplace_back("fc", "Affine", params{{"weight", with_shape(w, {3, 2})}, {"bias", vs::nir_array::vector(b)}});
    g.nodes.emplace_back("out", "Output", params{{"shape", ints({3})}});
    g.edges = {{"in", "lif"}, {"lif", "fc"}, {"fc", "out"}};
    vs::analyse_nir_graph(g);
    for (const auto method : {vs::discrete_neuron::integration::euler, vs::discrete_neuron::integration::exact}) {
        const auto m = vs::nir_to_network(g, {.discretisation = method});
        const auto x = random_spikes(200, 2, 0.5, 17);
        const auto r = vs::run_nir(m, {x}, 200);
        // The LIF's spikes per step, from the run itself; the readout is computed from them here.
        std::vector<std::vector<double>> s(200, std::vector<double>(2, 0.0));
        for (const auto& layer : r.layers)
            if (layer.node == "lif")
                for (std::size_t k = 0; k < layer.steps.size(); ++k) s[static_cast<std::size_t>(layer.steps[k])][layer.neurons[k]] = 1;
        EXPECT_GT(r.spike_counts.at("lif"), 20u);
        const auto& v = r.v.at("out");
        for (std::size_t t = 0; t < 200; ++t)
            for (std::size_t i = 0; i < 3; ++i)
                ASSERT_NEAR(v[t][i], b[i] + w[i * 2] * s[t][0] + w[i * 2 + 1] * s[t][1], 1e-6) << "step " << t;
    }
}

}  // namespace
