// `volley nir info` and `volley run FILE.nir --input CSV_OR_NPZ`: the LIF task through the CLI
// with CSV and NPZ input (the .npz written here by a small zip writer), the options it reports,
// the SONATA output, and errors that exit 2 naming the file, node or array.

#include <volley/snn/nir_file.hpp>
#include <volley/snn/sonata_spikes.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/npz_writer.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path nir_dir = fs::path(VOLLEY_TEST_DATA_DIR) / "nir";

struct result {
    int code;
    std::string out, err;
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class NirCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("volley_nir_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        // The input column of the LIF task (make_fixtures.py).
        std::ifstream in(nir_dir / "lif_trace_exact.csv");
        std::ofstream csv(dir_ / "input.csv");
        std::string line;
        while (std::getline(in, line)) {
            const double x = std::stod(line.substr(0, line.find(',')));
            input_.push_back(x);
            csv << x << "\n";
        }
    }
    void TearDown() override { fs::remove_all(dir_); }

    result volley(const std::string& args) {
        const auto out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
        const std::string cmd = "cd '" + dir_.string() + "' && '" VOLLEY_CLI "' " + args + " >'" + out.string() + "' 2>'" +
                                err.string() + "' </dev/null";
        const int status = std::system(cmd.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }

    fs::path dir_;
    std::vector<double> input_;
};

const std::vector<std::int64_t> lif_task_spikes{354, 736, 798, 887};

TEST_F(NirCli, InfoListsNodesShapesAndEdges) {
    const auto r = volley("nir info '" + (nir_dir / "cnn_conv_if.nir").string() + "' --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["edges"].size(), 14u);
    bool seen = false;
    for (const auto& n : j["nodes"])
        if (n["name"] == "1") {
            seen = true;
            EXPECT_EQ(n["type"], "IF");
            EXPECT_EQ(n["output_shape"], nlohmann::json({16, 16, 16}));
        }
    EXPECT_TRUE(seen);
    const auto text = volley("nir info '" + (nir_dir / "rnn_cuba.nir").string() + "'");
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("lif1.w_rec -> lif1.lif  (recurrent"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("CubaLIF"), std::string::npos);
}

TEST_F(NirCli, RunsTheLifTaskFromCsvAndReportsTheOptions) {
    const auto r = volley("run '" + (nir_dir / "lif_affine.nir").string() + "' --input input.csv --json --out rec.h5");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["options"]["dt_s"], 1e-4);
    EXPECT_EQ(j["options"]["discretisation"], "euler");
    EXPECT_EQ(j["options"]["reset"], "to-v-reset");
    EXPECT_EQ(j["steps"], 1000);
    ASSERT_EQ(j["outputs"].size(), 1u);
    EXPECT_EQ(j["outputs"][0]["spike_steps"].get<std::vector<std::int64_t>>(), lif_task_spikes);
    // The SONATA file holds the same four spikes, at the end of each step.
    const auto pops = volley::snn::read_sonata_spikes(dir_ / "rec.h5");
    ASSERT_EQ(pops.size(), 1u);
    ASSERT_EQ(pops[0].timestamps_ms.size(), 4u);
    EXPECT_NEAR(pops[0].timestamps_ms[0], 35.5, 1e-9);
    const auto text = volley("run '" + (nir_dir / "lif_affine.nir").string() +
                             "' --input input.csv --dt 1e-4 --discretisation exact --reset subtract --steps 500");
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("dt = 0.0001 s, discretisation exact, reset subtract, 500 steps"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Output 'output' (from '1'): 1 spikes"), std::string::npos) << text.out;
}

TEST_F(NirCli, RunsTheLifTaskFromNpzStoredAndDeflated) {
    for (bool deflate : {false, true}) {
        volley::test::write_zip((dir_ / "input.npz").string(), {{"x.npy", volley::test::npy_bytes({input_.size(), 1}, input_)}},
                                deflate);
        const auto r = volley("run '" + (nir_dir / "lif_affine.nir").string() + "' --input input.npz --json");
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(r.json()["outputs"][0]["spike_steps"].get<std::vector<std::int64_t>>(), lif_task_spikes);
    }
}

// allprims.nir is Input -> Linear -> Output: the Output is a readout whose value at
// each step is W x(t), computed here from the file's weight matrix.
TEST_F(NirCli, ReadoutOutputListsItsValuesPerStep) {
    const auto file = nir_dir / "allprims.nir";
    const auto graph = volley::snn::read_nir(file);
    const auto* lin = graph.find("lin");
    ASSERT_NE(lin, nullptr);
    const auto& w = lin->params.at("weight");
    ASSERT_EQ(w.shape, (std::vector<std::size_t>{3, 3}));
    const std::vector<std::vector<double>> x{{1, 0, 0}, {0, 2, 0}, {0.5, -1, 3}};
    {
        std::ofstream csv(dir_ / "x.csv");
        for (const auto& row : x) csv << row[0] << "," << row[1] << "," << row[2] << "\n";
    }
    const auto r = volley("run '" + file.string() + "' --input x.csv --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto out = r.json()["outputs"].at(0);
    ASSERT_TRUE(out.contains("values")) << out.dump();
    const auto& values = out["values"];
    ASSERT_EQ(values.size(), x.size());
    for (std::size_t t = 0; t < x.size(); ++t)
        for (std::size_t i = 0; i < 3; ++i) {
            double expected = 0;
            for (std::size_t j = 0; j < 3; ++j) expected += w.values[i * 3 + j] * x[t][j];
            EXPECT_NEAR(values[t][i].get<double>(), expected, 1e-6) << "step " << t << ", element " << i;
        }
}

// snnTorch's default reset by its framework name, a per-node reset, and the step warning: the
// corrected Norse file (tau = 10 ms) read with a 0.1 s step has dt/tau = 10 in both layers.
TEST_F(NirCli, ResetsByFrameworkNameAndWarnsOfATooLongStep) {
    const auto frameworks = nir_dir / "frameworks";
    const auto ref = nlohmann::json::parse(slurp(frameworks / "snntorch_leaky_subtract.json"));
    std::ofstream csv(dir_ / "spikes.csv");
    for (const auto& row : ref["input"]) {
        for (std::size_t k = 0; k < row.size(); ++k) csv << (k ? "," : "") << row[k].get<int>();
        csv << "\n";
    }
    csv.close();
    auto r = volley("run '" + (frameworks / "snntorch_leaky_subtract.nir").string() +
                    "' --input spikes.csv --reset snntorch --json");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = r.json();
    EXPECT_EQ(j["options"]["reset"], "subtract-delayed");
    EXPECT_EQ(j["warnings"], nlohmann::json::array());
    EXPECT_EQ(j["outputs"][0]["spikes"], ref["layers"]["3"].size());  // snnTorch's own count
    r = volley("run '" + (frameworks / "snntorch_leaky_subtract.nir").string() +
               "' --input spikes.csv --reset to-v-reset --reset 3=none --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.json()["options"]["node_reset"]["3"], "none");
    r = volley("run '" + (frameworks / "snntorch_leaky_subtract.nir").string() + "' --input spikes.csv --reset 0=none");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("node '0' is a Affine"), std::string::npos) << r.err;
    r = volley("run '" + (frameworks / "snntorch_leaky_subtract.nir").string() + "' --input spikes.csv --reset snntorch-subtract");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("subtract-delayed"), std::string::npos) << r.err;

    const std::string norse = "'" + (frameworks / "norse_lifbox.nir").string() + "'";
    r = volley("nir info " + norse + " --dt 0.1 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    j = r.json();
    ASSERT_EQ(j["warnings"].size(), 2u);
    EXPECT_EQ(j["warnings"][0]["node"], "1");
    EXPECT_EQ(j["warnings"][0]["parameter"], "tau");
    EXPECT_NEAR(j["warnings"][0]["dt_over_tau"].get<double>(), 10, 1e-5);
    EXPECT_NE(r.err.find("warning: LIF node '1': dt/tau = 10"), std::string::npos) << r.err;
    r = volley("run " + norse + " --input spikes.csv --dt 0.1 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.json()["warnings"].size(), 2u);
    EXPECT_NE(r.err.find("warning: LIF node '3'"), std::string::npos) << r.err;
    r = volley("nir info " + norse + " --json");
    EXPECT_EQ(r.json()["warnings"], nlohmann::json::array());
    EXPECT_EQ(r.err, "");
}

TEST_F(NirCli, BadInputsExitTwoNamingTheProblem) {
    const std::string lif = "'" + (nir_dir / "lif_affine.nir").string() + "'";
    auto r = volley("run " + lif);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--input"), std::string::npos) << r.err;
    std::ofstream(dir_ / "wide.csv") << "1,2\n0,0\n";
    r = volley("run " + lif + " --input wide.csv");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("wide.csv"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Input 'input'"), std::string::npos) << r.err;
    volley::test::write_zip((dir_ / "y.npz").string(), {{"y.npy", volley::test::npy_bytes({2, 1}, {0, 1})}}, false);
    r = volley("run " + lif + " --input y.npz");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("'x'"), std::string::npos) << r.err;
    r = volley("run " + lif + " --input input.csv --discretisation rk4");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("rk4"), std::string::npos) << r.err;
    std::ofstream(dir_ / "fake.nir") << "not hdf5";
    r = volley("run fake.nir --input input.csv");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("fake.nir"), std::string::npos) << r.err;
    r = volley("nir info '" + (nir_dir / "rnn_cuba_subgraph.nir").string() + "'");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("'lif'"), std::string::npos) << r.err;
}

}  // namespace
