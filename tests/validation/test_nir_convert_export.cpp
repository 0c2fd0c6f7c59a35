// A converted CNN exported to NIR (`volley convert MODEL.h5 --out model.nir`) and read back by
// Volley's NIR reader runs like the converter's own network. Both have zero-delay layers (NIR's
// graph is instantaneous), so every layer gets its input from step 0; the one convention that
// differs, tested here as such, is the time stamp: the converter stamps the spikes of NIR step t
// as t + 1 (docs/nir.md, "Exporting a converted CNN").

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_conversion.hpp>
#include <volley/error.hpp>
#include <volley/snn.hpp>
#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace vs = volley::snn;
namespace vc = volley::convert;

namespace {

const std::string torch_file = std::string(VOLLEY_TEST_DATA_DIR) + "/convert/fmnist_small_torch.h5";

/// Deterministic pixels in [0, 1).
std::vector<float> pixels(std::size_t n, std::uint64_t seed) {
    std::vector<float> v(n);
    std::uint64_t s = seed;
    for (auto& x : v) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x = static_cast<float>(static_cast<double>(s >> 11) / 9007199254740992.0);
    }
    return v;
}

struct converted {
    vc::cnn_graph graph;
    vc::converted_snn snn;
};

converted convert_model() {
    auto graph = vc::read_cnn(torch_file);
    const auto& in = graph.input_shape;
    vc::tensor<float> norm(in.with_batch(20));
    norm.values = pixels(norm.values.size(), 5);
    const auto scales = vc::compute_layer_scales(graph, norm, {});
    auto snn = vc::convert_to_snn(graph, scales, {});
    return {std::move(graph), std::move(snn)};
}

/// What `volley convert --out model.nir` writes (apps/cmd_convert.cpp): an Input population of
/// the image feeds the first layer through its weights.
vs::nir_graph export_nir(const vc::converted_snn& c) {
    vs::network net = c.network;
    const auto in = net.add_population("input", static_cast<std::uint32_t>(c.image_size()), vs::analog_source{});
    net.connect(in, c.layers.front().population, c.first_map, {.weight = 1.0, .delay_ms = 1.0});
    return vs::network_to_nir(net, {.dt_s = 1e-3});
}

TEST(NirConvertExport, ReadBackNetworkSpikesLikeTheConverters) {
    const auto c = convert_model();
    ASSERT_TRUE(std::holds_alternative<vs::convolution>(c.snn.first_map));
    const auto dir = std::filesystem::temp_directory_path() / "volley_nir_convert_export";
    std::filesystem::create_directories(dir);
    const auto file = dir / "model.nir";
    vs::write_nir(export_nir(c.snn), file);
    const auto g = vs::read_nir(file);
    std::size_t conv2d = 0, flatten = 0, if_nodes = 0;
    for (const auto& n : g.nodes) {
        conv2d += n.type == "Conv2d";
        flatten += n.type == "Flatten";
        if_nodes += n.type == "IF";
    }
    EXPECT_EQ(if_nodes, c.snn.layers.size());
    EXPECT_GE(conv2d, 2u);  // input -> first layer, first -> second
    EXPECT_EQ(flatten, 1u);  // before the dense output layer
    const auto m = vs::nir_to_network(g, {.dt_s = 1e-3, .reset = vs::discrete_neuron::reset_mode::subtract});
    const std::int64_t D = static_cast<std::int64_t>(c.snn.layers.size());
    ASSERT_EQ(m.outputs.size(), 1u);
    EXPECT_EQ(m.outputs[0].source, c.snn.layers.back().name);
    EXPECT_EQ(m.population(c.snn.layers.back().name).depth, D);
    std::size_t convs = 0;
    for (const auto& p : m.net.projections()) convs += std::holds_alternative<vs::convolution>(p.rule);
    EXPECT_EQ(convs, 2u);  // the Conv2d nodes map back onto kernels

    const std::int64_t T = 40;
    std::uint64_t total = 0;
    for (std::uint64_t image = 0; image < 3; ++image) {
        SCOPED_TRACE("image " + std::to_string(image));
        const auto x = pixels(c.snn.image_size(), 100 + image);
        // NIR: the image at every step.
        const std::vector<double> row(x.begin(), x.end());
        const auto& first = c.snn.layers.front().name;
        const auto r = vs::run_nir(m, {std::vector<std::vector<double>>(T, row)}, T, 1, {first});
        // Step 0 of the first layer: v + spikes·threshold is the converter's input current.
        const auto current = c.snn.first_layer_current(x);
        std::vector<double> spiked(current.size(), 0.0);
        for (const auto& layer : r.layers)
            if (layer.node == first)
                for (std::size_t k = 0; k < layer.steps.size() && layer.steps[k] == 0; ++k) spiked[layer.neurons[k]] = 1;
        for (std::size_t i = 0; i < current.size(); ++i)
            ASSERT_NEAR(r.v.at(first)[0][i] + spiked[i], current[i], 1e-6) << "neuron " << i;
        // The converter's network (zero delays: every layer in the same step, as NIR's
        // instantaneous graph) with its input current; it stamps NIR step t as t + 1.
        vs::simulation sim(c.snn.network, vs::context{.threads = 1}, {.dt_ms = 1.0});
        sim.set_input(c.snn.layers[0].population, volley::snn::constant_input{current});
        auto out = sim.record_spikes(c.snn.layers.back().population);
        sim.run(static_cast<double>(T));
        std::vector<std::pair<std::int64_t, std::uint32_t>> conv_spikes, nir_spikes;
        for (std::size_t k = 0; k < out.size(); ++k) conv_spikes.emplace_back(out.steps()[k] - 1, out.node_ids()[k]);
        std::sort(conv_spikes.begin(), conv_spikes.end());
        for (std::size_t k = 0; k < r.outputs[0].steps.size(); ++k)
            nir_spikes.emplace_back(r.outputs[0].steps[k], r.outputs[0].neurons[k]);
        EXPECT_EQ(conv_spikes, nir_spikes);
        total += nir_spikes.size();
    }
    EXPECT_GT(total, 10u);
    std::filesystem::remove_all(dir);
}

TEST(NirConvertExport, CliWritesANirFileThatVolleyAndUpstreamNirRead) {
    if (!std::filesystem::exists("/usr/share/datasets/fashion-mnist")) GTEST_SKIP() << "Fashion-MNIST is absent";
    const auto dir = std::filesystem::temp_directory_path() / "volley_nir_convert_cli";
    std::filesystem::create_directories(dir);
    const auto file = dir / "model.nir";
    const std::string cmd = std::string(VOLLEY_CLI) + " convert " + torch_file +
                            " --limit 2 --norm-images 50 --timesteps 8 --threads 1 --quiet --out " + file.string() +
                            " > " + (dir / "log.txt").string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
    const auto g = vs::read_nir(file);
    const auto* input = g.find("input");
    ASSERT_NE(input, nullptr);
    EXPECT_EQ(input->output_shape, (std::vector<std::size_t>{1, 28, 28}));
    const auto m = vs::nir_to_network(g, {.dt_s = 1e-3, .reset = vs::discrete_neuron::reset_mode::subtract});
    EXPECT_EQ(m.outputs.size(), 1u);
    if (std::system("python3 -c 'import nir' > /dev/null 2>&1") == 0) {
        std::ofstream(dir / "check.py") << "import sys, nir\ng = nir.read(sys.argv[1])\n"
                                           "assert any(type(n).__name__ == 'Conv2d' for n in g.nodes.values())\n";
        const std::string py = "python3 '" + (dir / "check.py").string() + "' '" + file.string() + "'";
        EXPECT_EQ(std::system(py.c_str()), 0) << py;
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
