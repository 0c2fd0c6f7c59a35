// `volley convert` end to end on the shared reference CNN: the JSON fields of the issue, the
// CNN accuracy beside an analog forward pass run here, the written network file, and input
// errors with exit status 2.

#include "../support/cli_runner.hpp"

#include "io_test_dir.hpp"

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/snn/features.hpp>
#include <volley/snn/network_json.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

using convert_cli = volley::test::io_test;

namespace {

const std::string torch_file = std::string(VOLLEY_TEST_DATA_DIR) + "/convert/fmnist_small_torch.h5";

using result = volley::testing::cli_result;
using volley::testing::run_volley;

bool have_dataset() { return std::filesystem::exists(volley::convert::default_fashion_mnist_dir); }

/// Writes an uncompressed IDX file of unsigned bytes.
void write_idx(const std::filesystem::path& file, const std::vector<std::uint32_t>& dims, std::uint8_t fill) {
    std::ofstream out(file, std::ios::binary);
    const char header[4] = {0, 0, 8, static_cast<char>(dims.size())};
    out.write(header, 4);
    std::size_t count = 1;
    for (auto d : dims) {
        const char be[4] = {static_cast<char>(d >> 24), static_cast<char>(d >> 16), static_cast<char>(d >> 8), static_cast<char>(d)};
        out.write(be, 4);
        count *= d;
    }
    const std::string values(count, static_cast<char>(fill));
    out.write(values.data(), static_cast<std::streamsize>(values.size()));
}

}  // namespace

TEST_F(convert_cli, json_gives_the_issue_fields_and_the_cnn_accuracy_of_the_model) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
    const auto net_file = dir / "snn.json";
    const auto r = run_volley("convert " + torch_file + " --limit 24 --norm-images 200 --timesteps 8,32 --threads 2 --json --out " +
                                  net_file.string(),
                              dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    // The CNN's accuracy on the same 24 images, from the analog forward pass.
    namespace vc = volley::convert;
    const auto g = vc::read_cnn(torch_file);
    const auto test = vc::load_fashion_mnist(vc::default_fashion_mnist_dir, "test").head(24);
    vc::tensor<float> x({24, 1, 28, 28});
    x.values = test.pixels;
    const auto logits = vc::analog_forward(g, x);
    std::size_t ok = 0;
    for (std::size_t i = 0; i < 24; ++i)
        ok += static_cast<std::size_t>(std::max_element(logits.image(i), logits.image(i) + 10) - logits.image(i)) == test.labels[i];
    EXPECT_DOUBLE_EQ(j["cnn_accuracy"].get<double>(), static_cast<double>(ok) / 24);
    ASSERT_EQ(j["timesteps"].size(), 2u);
    EXPECT_EQ(j["timesteps"][0]["T"], 8);
    EXPECT_EQ(j["timesteps"][1]["T"], 32);
    for (const auto& t : j["timesteps"]) {
        for (const char* key : {"accuracy", "agreement", "spikes_per_image", "synops_per_image"})
            EXPECT_TRUE(t.contains(key)) << key;
        EXPECT_GE(t["accuracy"].get<double>(), 0.0);
        EXPECT_LE(t["agreement"].get<double>(), 1.0);
    }
    // Counts grow with T; at T = 32 the SNN already agrees with the CNN on most images.
    EXPECT_GT(j["timesteps"][1]["spikes_per_image"].get<double>(), 2 * j["timesteps"][0]["spikes_per_image"].get<double>());
    EXPECT_GE(j["timesteps"][1]["agreement"].get<double>(), 0.75);
    EXPECT_GT(j["wall_s"].get<double>(), 0.0);
    EXPECT_GT(j["synops_per_s"].get<double>(), 0.0);
    // The written network: three IF layers joined by two projections, a convolution first.
    const auto file = volley::snn::load_network_json(net_file);
    ASSERT_EQ(file.net.populations().size(), 3u);
    ASSERT_EQ(file.net.projections().size(), 2u);
    EXPECT_TRUE(std::holds_alternative<volley::snn::convolution>(file.net.projections()[0].rule));
}

// The integrate-and-fire and dense-row kernels have AVX-512, AVX2 and portable versions, chosen
// at run time (--cpu-isa avx2 and baseline cap the choice); their sums are integers, so all
// must give the same spikes and predictions, with either readout.
TEST_F(convert_cli, the_portable_kernels_give_the_same_figures) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
    for (const char* readout : {"count", "membrane"}) {
        const std::string args = "convert " + torch_file + " --limit 16 --norm-images 200 --timesteps 8,64 --threads 1 " +
                                 "--v0 0.5 --readout " + readout + " --json";
        const auto wide = run_volley(args, dir);
        ASSERT_EQ(wide.code, 0) << wide.err;
        const auto a = nlohmann::json::parse(wide.out);
        EXPECT_EQ(a["readout"], readout);
        ASSERT_EQ(a["timesteps"].size(), 2u);
        EXPECT_GT(a["timesteps"][1]["spikes_per_image"].get<double>(), 0.0);
        for (const char* isa : {"avx2", "baseline"}) {
            const auto portable = run_volley(args + " --cpu-isa " + isa, dir);
            ASSERT_EQ(portable.code, 0) << portable.err;
            const auto b = nlohmann::json::parse(portable.out);
            for (std::size_t c = 0; c < 2; ++c)
                for (const char* key : {"accuracy", "agreement", "spikes_per_image", "synops_per_image"})
                    EXPECT_EQ(a["timesteps"][c][key], b["timesteps"][c][key]) << key << ", readout " << readout << ", " << isa;
        }
    }
}

TEST_F(convert_cli, images_of_the_wrong_size_and_bad_options_exit_2_naming_the_problem) {
    write_idx(dir / "small-images-idx3-ubyte", {3, 10, 10}, 128);
    write_idx(dir / "small-labels-idx1-ubyte", {3}, 1);
    auto r = run_volley("convert " + torch_file + " --data idx:" + (dir / "small").string() + " --norm-images 3", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("image shape"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("(1, 1, 10, 10)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("fmnist_small_torch.h5"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --data idx:" + (dir / "missing").string(), dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("missing-images-idx3-ubyte"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --timesteps 16,8", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("ascending"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --input ttfs --ttfs-window 1", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("ttfs"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at least 2"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --max-pool max", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("gate or avg"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --readout votes", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("count or membrane"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("votes"), std::string::npos) << r.err;
    r = run_volley("convert " + torch_file + " --data mnist", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("mnist"), std::string::npos) << r.err;
}

TEST_F(convert_cli, the_portable_backend_gives_the_cpu_engines_figures) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
    if (!volley::snn::features().portable) GTEST_SKIP() << "this build has no portable backend";
    // Analog input through a convolution, IF layers, a folded average pool and a dense head,
    // image after image through reset() and set_input: every count of the device engine is the CPU's.
    const std::string args = "convert " + torch_file + " --limit 6 --norm-images 100 --timesteps 8,24 --json --threads 2";
    const auto cpu = run_volley(args + " --backend cpu", dir), portable = run_volley(args + " --backend portable", dir);
    ASSERT_EQ(cpu.code, 0) << cpu.err;
    ASSERT_EQ(portable.code, 0) << portable.err;
    const auto a = nlohmann::json::parse(cpu.out), b = nlohmann::json::parse(portable.out);
    EXPECT_EQ(b["backend"], "portable");
    EXPECT_GT(a["timesteps"][1]["spikes_per_image"].get<double>(), 1000.0);
    EXPECT_EQ(a["timesteps"], b["timesteps"]);  // accuracy, agreement, spikes and synaptic events per image
    EXPECT_EQ(a["layers"], b["layers"]);        // spikes per neuron and step of each layer
}

TEST_F(convert_cli, an_unknown_backend_is_an_error_naming_it) {
    const auto r = run_volley("convert " + torch_file + " --limit 2 --backend tpu", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("tpu"), std::string::npos) << r.err;
}

// A converted network that does not fit on the disk (a file-size limit here) is an error naming
// the file and its size, exit 2: the file is built in memory and written whole (hdf5_image.hpp),
// so HDF5 never meets the full disk (it once printed 40 lines of diagnostics, crashed with
// SIGSEGV and left an unreadable file under the final name), and a file there before is kept.
TEST_F(convert_cli, an_output_that_does_not_fit_is_an_error_and_leaves_no_damaged_file) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
    if (std::system("command -v prlimit >/dev/null 2>&1") != 0) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    std::ofstream(dir / "cut.h5") << "a file that was there before";
    const std::string cmd = "cd '" + dir.string() + "' && prlimit --fsize=100000 '" VOLLEY_CLI "' convert " + torch_file +
                            " --limit 4 --norm-images 20 --timesteps 8 --threads 1 --out cut.h5 >stdout.txt 2>stderr.txt </dev/null";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << "the conversion died instead of failing";
    EXPECT_EQ(WEXITSTATUS(status), 2);
    const auto err = volley::testing::read_text_file(dir / "stderr.txt");
    EXPECT_NE(err.find("cut.h5: cannot write its"), std::string::npos) << err;
    EXPECT_LT(err.size(), 400u) << "more than the one error line:\n" << err;
    EXPECT_EQ(volley::testing::read_text_file(dir / "cut.h5"), "a file that was there before");
    EXPECT_FALSE(std::filesystem::exists(dir / "cut.h5.tmp"));
    // The NIR export goes the same way.
    const std::string nir = "cd '" + dir.string() + "' && prlimit --fsize=20000 '" VOLLEY_CLI "' convert " + torch_file +
                            " --limit 4 --norm-images 20 --timesteps 8 --threads 1 --out cut.nir >stdout.txt 2>stderr.txt </dev/null";
    const int nir_status = std::system(nir.c_str());
    ASSERT_TRUE(WIFEXITED(nir_status)) << "the NIR export died instead of failing";
    EXPECT_EQ(WEXITSTATUS(nir_status), 2);
    EXPECT_NE(volley::testing::read_text_file(dir / "stderr.txt").find("cut.nir: cannot write its"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(dir / "cut.nir"));
}
