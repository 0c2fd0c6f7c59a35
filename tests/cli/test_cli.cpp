// The `volley` command line: exit codes, --json figures, outputs read back independently.

#include <volley/snn/network_json.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
namespace vs = volley::snn;

namespace {

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

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("volley_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    result volley(const std::string& args) { return shell("\"$VOLLEY\" " + args); }

    /// Runs a shell script in the test's directory, with $VOLLEY naming the CLI.
    result shell(const std::string& script) {
        const auto out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
        const std::string cmd = "cd '" + dir_.string() + "' && { VOLLEY='" VOLLEY_CLI "'; " + script + "; } >'" +
                                out.string() + "' 2>'" + err.string() + "' </dev/null";
        const int status = std::system(cmd.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }

    fs::path dir_;
};

}  // namespace

TEST_F(Cli, InfoJsonListsFeatures) {
    const auto r = volley("info --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    for (const char* key : {"version", "build_type", "openmp_threads", "cuda", "mpi", "hdf5"}) EXPECT_TRUE(j.contains(key)) << key;
}

TEST_F(Cli, info_json_says_which_backends_are_built_and_lists_cuda_devices) {
    const auto r = volley("info --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    for (const char* key : {"portable", "cuda_devices", "cuda_note"}) EXPECT_TRUE(j.contains(key)) << key;
    if (j["cuda_devices"].empty()) {
        EXPECT_FALSE(j["cuda_note"].get<std::string>().empty()) << "no device and no reason";
    }
}

TEST_F(Cli, bench_cuba_on_the_portable_backend_gives_the_cpu_backends_raster) {
    const auto info = volley("info --json");
    ASSERT_EQ(info.code, 0) << info.err;
    if (!info.json()["portable"].get<bool>()) GTEST_SKIP() << "this build has no portable backend";
    const auto r = volley("bench cuba --neurons 1000 --duration 200 --threads 1 --backend portable --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["backend"], "portable");
    EXPECT_GT(j["spikes"].get<std::uint64_t>(), 100u);
    EXPECT_TRUE(j["raster_matches_cpu"].get<bool>());
    EXPECT_GT(j["speedup_over_cpu"].get<double>(), 0.0);
}

TEST_F(Cli, an_unknown_backend_is_refused_naming_the_choices) {
    const auto r = volley("bench cuba --neurons 100 --duration 10 --backend tpu");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("cpu, portable or cuda"), std::string::npos) << r.err;
}

TEST_F(Cli, BenchCubaReportsEveryFigureAndIsDeterministicAcrossThreads) {
    const auto one = volley("bench cuba --neurons 4000 --duration 1000 --threads 1 --json");
    ASSERT_EQ(one.code, 0) << one.err;
    const auto j = one.json();
    for (const char* key : {"neurons", "synapses", "spikes", "synaptic_events", "mean_rate_hz", "build_s", "sim_s", "events_per_s",
                            "peak_rss_bytes", "bytes_per_synapse", "threads", "spike_checksum", "populations"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["neurons"], 4000);
    EXPECT_GE(j["mean_rate_hz"].get<double>(), 4.5);
    EXPECT_LE(j["mean_rate_hz"].get<double>(), 7.5);
    EXPECT_LE(j["bytes_per_synapse"].get<double>(), 8.25);
    EXPECT_EQ(j["spike_checksum"].get<std::string>().size(), 64u);
    const auto two = volley("bench cuba --neurons 4000 --duration 1000 --threads 2 --json");
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(two.json()["spike_checksum"], j["spike_checksum"]);
    EXPECT_EQ(two.json()["synaptic_events"], j["synaptic_events"]);
}

// The LIF kernels are compiled for the baseline ISA, AVX2 and AVX-512 and chosen at run time;
// all three must round identically (no FMA contraction), so the raster cannot depend on the CPU.
// Each kernel also steps in pairs (--step-pairs on; see tests/validation/test_step_pairs.cpp).
TEST_F(Cli, LifKernelsOfEveryInstructionSetGiveTheSameRaster) {
    std::string checksum;
    for (const char* isa : {"baseline", "avx2", "best"})
        for (const char* pairs : {"off", "on"}) {
            const auto r = shell(std::string("\"$VOLLEY\" bench cuba --neurons 4000 --duration 300 --json --cpu-isa ") +
                                 isa + " --step-pairs " + pairs);
            ASSERT_EQ(r.code, 0) << r.err;
            const auto sum = r.json()["spike_checksum"].get<std::string>();
            if (checksum.empty()) checksum = sum;
            EXPECT_EQ(sum, checksum) << "--cpu-isa " << isa << " --step-pairs " << pairs;
        }
}

// --count-only keeps no raster: the same counts and rate as a recorded run, no checksum, and
// outputs that would need the raster are refused.
TEST_F(Cli, BenchCountOnlyReportsTheRecordedCountsWithoutARaster) {
    const auto recorded = volley("bench cuba --neurons 2000 --duration 200 --threads 1 --json");
    const auto counted = volley("bench cuba --neurons 2000 --duration 200 --threads 1 --json --count-only");
    ASSERT_EQ(recorded.code, 0) << recorded.err;
    ASSERT_EQ(counted.code, 0) << counted.err;
    const auto r = recorded.json(), c = counted.json();
    EXPECT_FALSE(c.contains("spike_checksum"));
    ASSERT_GT(r["spikes"].get<std::uint64_t>(), 100u);
    EXPECT_EQ(c["spikes"], r["spikes"]);
    EXPECT_DOUBLE_EQ(c["mean_rate_hz"].get<double>(), r["mean_rate_hz"].get<double>());
    for (std::size_t p = 0; p < 2; ++p) EXPECT_EQ(c["populations"][p]["spikes"], r["populations"][p]["spikes"]);
    const auto refused = volley("bench cuba --neurons 2000 --duration 10 --count-only --plot raster.svg");
    EXPECT_NE(refused.code, 0);
    EXPECT_NE(refused.err.find("--count-only"), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(dir_ / "raster.svg"));
}

TEST_F(Cli, RunWritesSonataSpikesThatMatchTheReportedCounts) {
    vs::save_network_json(vs::cuba_network(1000), dir_ / "net.json", {.dt_ms = 0.1, .duration_ms = 300, .seed = 5});
    const auto r = volley("run net.json --out rec.h5 --plot raster.svg --state exc:v_mv:1 --json --threads 2");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    const auto pops = vs::read_sonata_spikes(dir_ / "rec.h5");
    ASSERT_EQ(pops.size(), 2u);
    std::uint64_t total = 0;
    for (std::size_t p = 0; p < pops.size(); ++p) {
        EXPECT_EQ(pops[p].population, j["populations"][p]["name"]);
        EXPECT_EQ(pops[p].node_ids.size(), j["populations"][p]["spikes"].get<std::uint64_t>());
        for (double t : pops[p].timestamps_ms) {
            EXPECT_GT(t, 0.0);
            EXPECT_LE(t, 300.0 + 1e-9);
        }
        total += pops[p].node_ids.size();
    }
    EXPECT_EQ(total, j["spikes"].get<std::uint64_t>());
    const auto reports = vs::read_sonata_report(dir_ / "rec.h5");
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].node_ids.size(), 800u);
    EXPECT_EQ(reports[0].samples, 301u);  // t = 0, 1, ..., 300 ms
    for (double v : reports[0].data) EXPECT_LT(v, -50.0);  // below threshold once integrated
    const auto svg = slurp(dir_ / "raster.svg");
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("exc"), std::string::npos);
}

TEST_F(Cli, RunWritesCsv) {
    vs::save_network_json(vs::cuba_network(500), dir_ / "net.json", {.dt_ms = 0.1, .duration_ms = 100, .seed = 5});
    const auto r = volley("run net.json --out rec.csv --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto csv = slurp(dir_ / "rec.csv");
    const auto lines = static_cast<std::uint64_t>(std::count(csv.begin(), csv.end(), '\n'));
    EXPECT_EQ(lines, r.json()["spikes"].get<std::uint64_t>() + 1);  // plus the header
}

TEST_F(Cli, MissingNetworkFileExitsTwoAndNamesIt) {
    const auto r = volley("run does_not_exist.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("does_not_exist.json"), std::string::npos);
}

TEST_F(Cli, MalformedNetworkExitsTwoWithThePath) {
    std::ofstream(dir_ / "bad.json") << R"({"format": "volley-network", "version": 1, "populations": [{"name": "a", "size": 0, "model": "lif_exp"}]})";
    const auto r = volley("run bad.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("bad.json"), std::string::npos);
    EXPECT_NE(r.err.find("/populations/0"), std::string::npos);
    EXPECT_NE(r.err.find("size"), std::string::npos);
}

TEST_F(Cli, FailedRunDoesNotTouchAnExistingOutput) {
    std::ofstream(dir_ / "rec.h5") << "precious";
    std::ofstream(dir_ / "bad.json") << R"({"format": "volley-network", "version": 1, "populations": [{"name": "a", "size": 3, "model": "lif_exp"}],
      "projections": [{"source": "a", "target": "a", "connector": {"type": "all_to_all"}, "delay_ms": 0.01}]})";
    const auto r = volley("run bad.json --out rec.h5");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("below dt"), std::string::npos);
    EXPECT_EQ(slurp(dir_ / "rec.h5"), "precious");
}

TEST_F(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(volley("no-such-command").code, 2);
    EXPECT_EQ(volley("bench cuba --neurons lots").code, 2);
    EXPECT_EQ(volley("run").code, 2);
}

TEST_F(Cli, InterruptedRunKeepsAValidRecording) {
    // SIGINT after 2 s of a run that would take minutes: the run stops at the next progress
    // check, writes what it recorded, and exits 1.
    const auto r = shell("\"$VOLLEY\" bench cuba --neurons 20000 --duration 1000000 --threads 1 --quiet --out rec.h5 --json & "
                         "pid=$!; sleep 2; kill -INT $pid; wait $pid");
    EXPECT_EQ(r.code, 1) << r.err;
    const auto j = r.json();
    EXPECT_FALSE(j["completed"].get<bool>());
    const double stopped_at = j["duration_ms"].get<double>();
    EXPECT_GT(stopped_at, 0.0);
    EXPECT_LT(stopped_at, 1000000.0);
    const auto pops = vs::read_sonata_spikes(dir_ / "rec.h5");
    ASSERT_EQ(pops.size(), 2u);
    EXPECT_EQ(pops[0].node_ids.size() + pops[1].node_ids.size(), j["spikes"].get<std::uint64_t>());
    for (const auto& p : pops)
        for (double t : p.timestamps_ms) EXPECT_LE(t, stopped_at + 1e-9);
}
