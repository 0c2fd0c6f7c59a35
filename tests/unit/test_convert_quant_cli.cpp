// `volley convert --quantize/--export-head/--out .h5` on the reference model: the integer-mode
// table is consistent with the float one, the head on RISP and danna2 agrees with the engine on
// every image, the written files read back, and bad options exit with 2 naming the value.

#include "../support/cli_runner.hpp"

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_h5.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
const std::string torch_file = std::string(VOLLEY_TEST_DATA_DIR) + "/convert/fmnist_small_torch.h5";

using result = volley::testing::cli_result;
using volley::testing::run_volley;

fs::path temp_dir() {
    auto d = fs::temp_directory_path() / ("volley_quant_cli_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
}

bool have_dataset() {
    return fs::exists(fs::path(volley::convert::default_fashion_mnist_dir) / "t10k-images-idx3-ubyte.gz");
}

TEST(convert_quant_cli, bad_bits_and_a_head_without_quantize_exit_with_2) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is not installed";
    const auto dir = temp_dir();
    auto r = run_volley("convert " + torch_file + " --limit 2 --norm-images 100 --timesteps 8 --quantize 1", dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("bits"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bits = 1"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --limit 2 --norm-images 100 --timesteps 8 --export-head " +
                       (dir / "h.json").string(), dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("--quantize"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --limit 2 --norm-images 100 --timesteps 8 --quantize 8 --export-head " +
                       (dir / "h.json").string() + " --hardware loihi", dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("loihi"), std::string::npos) << r.err;
    fs::remove_all(dir);
}

TEST(convert_quant_cli, integer_mode_head_on_hardware_and_snn_h5) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is not installed";
    const auto dir = temp_dir();
    for (const std::string hw : {"risp", "danna2"}) {
        const auto head = dir / ("head_" + hw + ".json"), snn = dir / "snn.h5";
        const auto r = run_volley("convert " + torch_file + " --limit 24 --norm-images 500 --threads 2 --timesteps 16,48 "
                                      "--quantize 8 --json --export-head " + head.string() + " --hardware " + hw +
                                      " --out " + snn.string(), dir);
        ASSERT_EQ(r.code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        const auto& q = j["quantized"];
        ASSERT_EQ(q["timesteps"].size(), 2u);
        for (std::size_t c = 0; c < 2; ++c) {
            const double qa = q["timesteps"][c]["accuracy"], fa = j["timesteps"][c]["accuracy"];
            EXPECT_DOUBLE_EQ(q["timesteps"][c]["accuracy_change"].get<double>(), qa - fa);
            const double same = q["timesteps"][c]["agreement_with_float"];
            // Images where both predict the same class are right or wrong for both.
            EXPECT_LE(std::abs(qa - fa), 1 - same + 1e-12);
            EXPECT_DOUBLE_EQ(qa * 24, std::round(qa * 24));
        }
        // The head: fc, 6,272 inputs (conv2), 10 outputs, on every image the engine's result.
        const auto& h = q["head"];
        EXPECT_EQ(h["inputs"], 6272);
        EXPECT_EQ(h["T"], 48);
        EXPECT_DOUBLE_EQ(h["agreement"].get<double>(), 1.0);
        EXPECT_DOUBLE_EQ(h["same_output_counts"].get<double>(), 1.0);
        EXPECT_EQ(h["cost"]["cycles"], 24 * (48 + 1));
        const auto net = volley::hw::load_tennlab_network(head.string());
        EXPECT_EQ(net.nodes.size(), 6272u + 1 + 10);
        EXPECT_EQ(net.outputs.size(), 10u);
        EXPECT_EQ(net.associated_data["other"]["proc_name"], hw);  // what processor_tool's ML reads
        // processor_tool's ML loads it (volley risp, volley danna --model danna2) and runs it.
        {
            const auto cmds = dir / "cmds.txt";
            std::ofstream(cmds) << "ML " << head.string() << "\nRUN 2\nOC\nQ\n";
            const std::string tool = hw == "risp" ? "risp" : "danna --model danna2";
            const auto t = run_volley(tool + " < " + cmds.string(), dir);
            EXPECT_EQ(t.code, 0) << t.out << t.err;
            EXPECT_EQ(t.out.find("not loaded"), std::string::npos) << t.out;
            EXPECT_EQ(t.out.find("not found"), std::string::npos) << t.out;
        }
        // The layers' thresholds in the JSON are the file's (Threshold = θ + 1 on the hardware).
        const auto& layers = q["layers"];
        ASSERT_EQ(layers.size(), 3u);
        EXPECT_TRUE(layers[2]["head"].get<bool>());
        const auto fc_threshold = layers[2]["threshold"].get<std::int64_t>();
        if (hw == "danna2") {
            EXPECT_LE(fc_threshold, 1022);
        }
        const auto& out_node = net.nodes[*net.find_node(net.outputs[0])];
        EXPECT_EQ(out_node.values[0], static_cast<double>(fc_threshold + 1));
        // --out snn.h5 holds the integer-mode network.
        const auto back = volley::convert::read_snn_h5(snn.string());
        EXPECT_EQ(back.quantized_bits, 8);
        ASSERT_EQ(back.snn.layers.size(), 3u);
        const auto& fc = back.snn.network.at(back.snn.layers[2].population);
        EXPECT_EQ(std::get<volley::snn::discrete_neuron>(fc.model).p.v_threshold, static_cast<double>(fc_threshold));
        EXPECT_EQ(back.options["quantize"], 8);
    }
    fs::remove_all(dir);
}

}  // namespace
