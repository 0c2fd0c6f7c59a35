// `volley demo` at tiny sizes: the files it writes, results.h5 read back with the HDF5 C API and
// checked for consistency, the model cache (reused when the checksum matches, retrained when the
// file is corrupted or the settings change), and one image's recorded spikes against the
// evaluation's spike count.

#include <volley/snn/sonata_spikes.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "../support/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

using result = volley::testing::cli_result;
using volley::testing::read_text_file;

/// SHA-256 of a file by the system's sha256sum (independent of Volley's), or "" without it.
std::string system_sha256(const fs::path& file) {
    const std::string cmd = "sha256sum '" + file.string() + "' 2>/dev/null";
    std::FILE* p = popen(cmd.c_str(), "r");
    if (!p) return "";
    char buf[128] = {};
    const std::size_t got = std::fread(buf, 1, 64, p);
    pclose(p);
    return got == 64 ? std::string(buf, 64) : "";
}

/// Reads a whole numeric dataset (any rank) of `file`, converted to T by HDF5.
template <class T>
std::vector<T> read_numbers(hid_t file, const std::string& path, hid_t mem_type) {
    const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    if (d < 0) return {};
    const hid_t space = H5Dget_space(d);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<T> v(n);
    EXPECT_GE(H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0) << path;
    H5Sclose(space);
    H5Dclose(d);
    return v;
}

std::vector<std::string> read_strings(hid_t file, const std::string& path) {
    const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    if (d < 0) return {};
    const hid_t space = H5Dget_space(d);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    std::vector<char*> raw(n);
    EXPECT_GE(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()), 0) << path;
    std::vector<std::string> out(raw.begin(), raw.end());
    H5Dvlen_reclaim(type, space, H5P_DEFAULT, raw.data());
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(d);
    return out;
}

std::string read_string_attribute(hid_t object, const std::string& name) {
    const hid_t a = H5Aopen(object, name.c_str(), H5P_DEFAULT);
    EXPECT_GE(a, 0) << name;
    if (a < 0) return "";
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    char* text = nullptr;
    EXPECT_GE(H5Aread(a, type, &text), 0) << name;
    std::string s = text ? text : "";
    H5free_memory(text);
    H5Tclose(type);
    H5Aclose(a);
    return s;
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

/// An SVG document: an optional XML declaration, then <svg ...> ... </svg> with one root element.
bool is_svg(const std::string& text) {
    std::size_t start = 0;
    if (text.rfind("<?xml", 0) == 0) start = text.find_first_not_of(" \n\r\t", text.find("?>") + 2);
    const auto end = text.find_last_not_of(" \n\r\t");
    return start != std::string::npos && text.compare(start, 4, "<svg") == 0 && end != std::string::npos &&
           end >= 5 && text.compare(end - 5, 6, "</svg>") == 0 && count_of(text, "<svg") == 1 &&
           count_of(text, "</svg>") == 1;
}

class Demo : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fs::exists("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"))
            GTEST_SKIP() << "Fashion-MNIST is not installed (scripts/setup installs it)";
        dir_ = fs::temp_directory_path() / ("volley_demo_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        if (!dir_.empty()) fs::remove_all(dir_);
    }

    result volley(const std::string& args) {
        return volley::testing::run_volley_in(dir_, args);
    }

    fs::path dir_;
};

// Tiny training (1 epoch on 2,000 images) and evaluation (20 images).
const std::string tiny =
    "demo --out o --epochs 1 --train-limit 2000 --norm-images 500 --threads 2 --temporal-sequences 0 --json ";

}  // namespace

TEST_F(Demo, WritesConsistentResultsAndReusesOrRetrainsTheCachedModel) {
    // First run: no cache, so it trains.
    const auto first = volley(tiny + "--limit 20 --timesteps 8,32,128 --raster-steps 32");
    ASSERT_EQ(first.code, 0) << first.err;
    const auto j = first.json();
    EXPECT_EQ(j["model"]["source"], "trained");
    EXPECT_NE(j["model"]["reason"].get<std::string>().find("no cached model"), std::string::npos) << j["model"]["reason"];
    const fs::path out = dir_ / "o", model = out / "cache" / "small_cnn.h5";
    for (const auto& f : {out / "accuracy_vs_T.svg", out / "raster.svg", out / "results.h5", model,
                          fs::path(model.string() + ".json")})
        ASSERT_TRUE(fs::exists(f)) << f;
    const auto acc_svg = read_text_file(out / "accuracy_vs_T.svg");
    EXPECT_TRUE(is_svg(acc_svg));
    EXPECT_EQ(count_of(acc_svg, "<circle"), 3u);  // one point per T
    EXPECT_TRUE(is_svg(read_text_file(out / "raster.svg")));

    // The recorded checksum is the file's SHA-256 (by the system's sha256sum when present).
    const std::string sha = j["model"]["sha256"];
    ASSERT_EQ(sha.size(), 64u);
    const auto record = nlohmann::json::parse(read_text_file(model.string() + ".json"));
    EXPECT_EQ(record["sha256"], sha);
    if (const auto sys = system_sha256(model); !sys.empty()) {
        EXPECT_EQ(sys, sha);
    }

    // results.h5, read with the HDF5 C API.
    const hid_t h5 = H5Fopen((out / "results.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(h5, 0);
    EXPECT_EQ(read_string_attribute(h5, "model_sha256"), sha);
    EXPECT_EQ(read_string_attribute(h5, "model_source"), "trained");
    const auto ts = read_numbers<std::int64_t>(h5, "/results/timesteps", H5T_NATIVE_INT64);
    EXPECT_EQ(ts, (std::vector<std::int64_t>{8, 32, 128}));
    const auto acc = read_numbers<double>(h5, "/results/snn_accuracy", H5T_NATIVE_DOUBLE);
    const auto agree = read_numbers<double>(h5, "/results/agreement", H5T_NATIVE_DOUBLE);
    const auto spikes = read_numbers<double>(h5, "/results/spikes_per_image", H5T_NATIVE_DOUBLE);
    const auto synops = read_numbers<double>(h5, "/results/synops_per_image", H5T_NATIVE_DOUBLE);
    const double cnn = read_numbers<double>(h5, "/results/cnn_accuracy", H5T_NATIVE_DOUBLE).at(0);
    EXPECT_EQ(read_numbers<std::uint64_t>(h5, "/results/images", H5T_NATIVE_UINT64).at(0), 20u);
    ASSERT_EQ(acc.size(), 3u);
    ASSERT_EQ(agree.size(), 3u);
    EXPECT_GE(cnn, 0.0);
    EXPECT_LE(cnn, 1.0);
    EXPECT_DOUBLE_EQ(cnn * 20, std::round(cnn * 20));
    for (std::size_t c = 0; c < 3; ++c) {
        EXPECT_GE(acc[c], 0.0);
        EXPECT_LE(acc[c], 1.0);
        EXPECT_DOUBLE_EQ(acc[c] * 20, std::round(acc[c] * 20));  // k of 20 images
        EXPECT_GE(agree[c], 0.0);
        EXPECT_LE(agree[c], 1.0);
        // Images where SNN and CNN agree are right or wrong for both, so the accuracies can
        // differ by at most the fraction where they disagree.
        EXPECT_LE(std::abs(acc[c] - cnn), 1 - agree[c] + 1e-12) << "T = " << ts[c];
        EXPECT_DOUBLE_EQ(acc[c], j["timesteps"][c]["accuracy"].get<double>());
        if (c > 0) {  // counts over the first T steps grow with T
            EXPECT_GT(spikes[c], spikes[c - 1]);
            EXPECT_GT(synops[c], synops[c - 1]);
        }
    }
    // A trained CNN converted with p99.9 agrees with its SNN on most images at T = 128.
    EXPECT_GE(agree[2], 0.7);
    const auto names = read_strings(h5, "/results/layer_names");
    const auto neurons = read_numbers<std::uint64_t>(h5, "/results/layer_neurons", H5T_NATIVE_UINT64);
    const auto rates = read_numbers<double>(h5, "/results/layer_rate", H5T_NATIVE_DOUBLE);
    const auto lambda = read_numbers<double>(h5, "/results/layer_lambda", H5T_NATIVE_DOUBLE);
    // conv16 (16x28x28), conv32 (32x14x14), dense10.
    EXPECT_EQ(neurons, (std::vector<std::uint64_t>{16 * 28 * 28, 32 * 14 * 14, 10}));
    ASSERT_EQ(names.size(), 3u);
    for (std::size_t l = 0; l < 3; ++l) {
        EXPECT_GT(rates.at(l), 0.0);
        EXPECT_LE(rates.at(l), 1.0);
        EXPECT_GT(lambda.at(l), 0.0);
    }
    // The 8-bit classifier head (dense, fed by conv32's 6,272 neurons) on danna2 and RISP at
    // T = 32: it must give the engine's integer-mode predictions and output fire counts on every
    // image; each image runs T + 1 cycles (one head layer); the network has 6,272 inputs, one
    // bias input and 10 outputs.
    const auto& hwj = j["hardware"];
    ASSERT_TRUE(hwj["available"].get<bool>()) << hwj.dump();
    EXPECT_EQ(hwj["images"], 20);
    EXPECT_EQ(hwj["T"], 32);
    for (const char* p : {"danna2", "risp"}) {
        EXPECT_DOUBLE_EQ(hwj[p]["agreement"].get<double>(), 1.0) << p;
        EXPECT_DOUBLE_EQ(hwj[p]["same_counts"].get<double>(), 1.0) << p;
        EXPECT_DOUBLE_EQ(hwj[p]["cycles_per_image"].get<double>(), 33.0) << p;
        EXPECT_EQ(hwj[p]["neurons"], 6272 + 1 + 10) << p;
        EXPECT_GT(hwj[p]["energy_j_per_image"].get<double>(), 0.0) << p;
        EXPECT_TRUE(fs::exists(out / (std::string("head_") + p + ".json"))) << p;
        const hid_t g = H5Gopen2(h5, (std::string("/hardware/") + p).c_str(), H5P_DEFAULT);
        ASSERT_GE(g, 0) << p;
        double agreement = -1;
        const hid_t a = H5Aopen(g, "agreement", H5P_DEFAULT);
        H5Aread(a, H5T_NATIVE_DOUBLE, &agreement);
        H5Aclose(a);
        H5Gclose(g);
        EXPECT_DOUBLE_EQ(agreement, 1.0) << p;
    }
    H5Fclose(h5);
    EXPECT_FALSE(j["temporal"]["available"].get<bool>()) << "--temporal-sequences 0 skips the stage";

    // The one-image spikes in the SONATA layout: a population per layer, ids and times in range.
    const auto pops = volley::snn::read_sonata_spikes(out / "results.h5");
    ASSERT_EQ(pops.size(), 3u);
    std::uint64_t total = 0;
    for (std::size_t l = 0; l < 3; ++l) {
        EXPECT_EQ(pops[l].population, names[l]);
        EXPECT_FALSE(pops[l].node_ids.empty()) << names[l];
        for (std::size_t k = 0; k < pops[l].node_ids.size(); ++k) {
            ASSERT_LT(pops[l].node_ids[k], neurons[l]);
            ASSERT_GE(pops[l].timestamps_ms[k], 0.0);
            ASSERT_LE(pops[l].timestamps_ms[k], 32.0);
        }
        total += pops[l].node_ids.size();
    }
    EXPECT_EQ(j["raster"]["spikes"].get<std::uint64_t>(), total);

    // Second run, same settings: the cached model is reused.
    const auto second = volley(tiny + "--limit 20 --timesteps 8,32,128 --raster-steps 32");
    ASSERT_EQ(second.code, 0) << second.err;
    const auto j2 = second.json();
    EXPECT_EQ(j2["model"]["source"], "cache");
    EXPECT_EQ(j2["model"]["sha256"], sha);
    EXPECT_TRUE(j2["stages"].contains("cache_check_s"));
    EXPECT_FALSE(j2["stages"].contains("train_s"));
    for (std::size_t c = 0; c < 3; ++c)  // the same model and images give the same SNN figures
        EXPECT_EQ(j2["timesteps"][c]["accuracy"], j["timesteps"][c]["accuracy"]);

    // Corrupt one byte of the cached model: the checksum no longer matches, it is retrained.
    {
        std::fstream f(model, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(static_cast<std::streamoff>(fs::file_size(model) / 2));
        char c = 0;
        f.read(&c, 1);
        c = static_cast<char>(c ^ 0x5a);
        f.seekp(static_cast<std::streamoff>(fs::file_size(model) / 2));
        f.write(&c, 1);
    }
    const auto third = volley(tiny + "--limit 20 --timesteps 8,32,128 --raster-steps 32");
    ASSERT_EQ(third.code, 0) << third.err;
    const auto j3 = third.json();
    EXPECT_EQ(j3["model"]["source"], "trained");
    EXPECT_NE(j3["model"]["reason"].get<std::string>().find("checksum mismatch"), std::string::npos)
        << j3["model"]["reason"];
    const auto record3 = nlohmann::json::parse(read_text_file(model.string() + ".json"));
    EXPECT_EQ(record3["sha256"], j3["model"]["sha256"]);
    if (const auto sys = system_sha256(model); !sys.empty()) {
        EXPECT_EQ(sys, j3["model"]["sha256"].get<std::string>());
    }

    // Other training settings do not match the cache either.
    const auto fourth = volley(tiny + "--train-seed 2 --limit 20 --timesteps 8,32,128 --raster-steps 32");
    ASSERT_EQ(fourth.code, 0) << fourth.err;
    const auto j4 = fourth.json();
    EXPECT_EQ(j4["model"]["source"], "trained");
    EXPECT_NE(j4["model"]["reason"].get<std::string>().find("other settings"), std::string::npos) << j4["model"]["reason"];
}

TEST_F(Demo, RecordedImageMatchesItsEvaluation) {
    // One image, raster over the same T as the evaluation: two separate engine runs of image 0
    // must give the same spike count and the same class.
    const auto r = volley(tiny + "--limit 1 --raster-image 0 --timesteps 48 --raster-steps 48");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["raster"]["spikes"].get<double>(), j["timesteps"][0]["spikes_per_image"].get<double>());
    const bool right = j["raster"]["prediction"] == j["raster"]["label"];
    EXPECT_EQ(j["timesteps"][0]["accuracy"].get<double>(), right ? 1.0 : 0.0);
    const auto pops = volley::snn::read_sonata_spikes(dir_ / "o" / "results.h5");
    std::uint64_t total = 0;
    for (const auto& p : pops) total += p.node_ids.size();
    EXPECT_EQ(total, j["raster"]["spikes"].get<std::uint64_t>());
}

TEST_F(Demo, BadOptionsExitWithTwo) {
    const auto descending = volley("demo --out o --timesteps 32,8 --quiet");
    EXPECT_EQ(descending.code, 2);
    EXPECT_NE(descending.err.find("ascending"), std::string::npos) << descending.err;
    const auto image = volley("demo --out o --raster-image 10000 --quiet");
    EXPECT_EQ(image.code, 2);
    EXPECT_NE(image.err.find("raster_image = 10000"), std::string::npos) << image.err;
    EXPECT_EQ(volley("demo --out o --limit 0 --quiet").code, 2);
}

// The temporal stage at a small size: three questions on danna2. With winner coding the
// hand-built network applies exact temporal logic to the CNN's per-frame predictions, so its
// accuracy simulated on danna2 must equal the ideal bound computed from the predictions alone;
// an evolved network placed on the DANNA grid answers as on danna2.
TEST_F(Demo, TheTemporalStageRunsTheCnnOutputThroughDanna2) {
    const auto r = volley("demo --out o --epochs 1 --train-limit 2000 --norm-images 500 --threads 2 --json "
                          "--limit 20 --timesteps 32 --raster-steps 16 --hardware-timesteps 0 "
                          "--temporal-sequences 40 --temporal-generations 2");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto t = r.json()["temporal"];
    ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
    ASSERT_EQ(t["questions"].size(), 3u);
    for (const auto& q : t["questions"]) {
        const auto name = q["question"].get<std::string>();
        EXPECT_DOUBLE_EQ(q["hand_built"].get<double>(), q["ideal_bound"].get<double>()) << name;
        EXPECT_GT(q["ideal_bound"].get<double>(), 0.5) << name;
        EXPECT_GE(q["gru"].get<double>(), 0.0) << name;
        EXPECT_LE(q["neurons"].get<int>(), 64) << name;
        // Where place and route fits the network on the grid (the change network's delay-1
        // synapses leave no time for routing hops), the grid answers as danna2 does.
        if (q["grid_placed"].get<bool>()) {
            EXPECT_EQ(q["grid_differences"].get<int>(), 0) << name;
        }
    }
    EXPECT_TRUE(t["questions"][0]["grid_placed"].get<bool>()) << "the order network fits the grid";
    for (const char* f : {"temporal_raster.svg", "temporal_layout.svg", "fitness_order.svg", "sequence_raster.svg"})
        EXPECT_TRUE(fs::exists(dir_ / "o" / f)) << f;
    // One sequence through the whole stack: the CNN's layers and the DANNA network in one plot.
    const auto stack = read_text_file(dir_ / "o" / "sequence_raster.svg");
    EXPECT_NE(stack.find("CNN "), std::string::npos);
    EXPECT_NE(stack.find("DANNA output"), std::string::npos);
}
