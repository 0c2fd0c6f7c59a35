// `volley run --checkpoint FILE [--checkpoint-every MS]` and `--resume FILE`: 2·T in one process
// equals T, a checkpoint, a new process resumed from it and T more, spike for spike (CUBA and a
// plastic network); bad uses are CLI errors naming the option and the value.

#include "../support/cli_runner.hpp"

#include <volley/snn/network_json.hpp>
#include <volley/snn/spike_csv.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace {

namespace vs = volley::snn;
using volley::testing::run_volley_in;

std::filesystem::path work_dir(const std::string& name) {
    const auto d = std::filesystem::temp_directory_path() / ("volley_checkpoint_cli_" + std::to_string(::getpid())) / name;
    std::filesystem::create_directories(d);
    return d;
}

/// (population, node, time) of every spike after `after_ms`, sorted.
std::vector<std::tuple<std::string, std::uint64_t, double>> spikes_after(const std::filesystem::path& csv, double after_ms) {
    std::vector<std::tuple<std::string, std::uint64_t, double>> out;
    for (const auto& p : vs::read_spike_csv(csv))
        for (std::size_t i = 0; i < p.node_ids.size(); ++i)
            if (p.timestamps_ms[i] > after_ms + 1e-9) out.emplace_back(p.population, p.node_ids[i], p.timestamps_ms[i]);
    std::sort(out.begin(), out.end());
    return out;
}

void expect_resumed_run_matches(const vs::network& net, const std::filesystem::path& dir, int threads) {
    vs::save_network_json(net, dir / "net.json", {.dt_ms = 0.1, .duration_ms = 100, .seed = 7});
    const std::string t = " --threads " + std::to_string(threads) + " --quiet";
    auto full = run_volley_in(dir, "run net.json --duration 200 --out full.csv" + t);
    ASSERT_EQ(full.code, 0) << full.err;
    auto first = run_volley_in(dir, "run net.json --duration 100 --checkpoint state.h5 --checkpoint-every 30" + t);
    ASSERT_EQ(first.code, 0) << first.err;
    auto second = run_volley_in(dir, "run net.json --resume state.h5 --duration 100 --out rest.csv --json" + t);
    ASSERT_EQ(second.code, 0) << second.err;
    const auto figures = second.json();
    EXPECT_DOUBLE_EQ(figures["start_ms"].get<double>(), 100.0);
    EXPECT_DOUBLE_EQ(figures["duration_ms"].get<double>(), 100.0);
    const auto expected = spikes_after(dir / "full.csv", 100);
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(spikes_after(dir / "rest.csv", 0), expected);
}

TEST(CheckpointCli, CubaResumedInANewProcessGivesTheSameSpikes) {
    expect_resumed_run_matches(vs::cuba_network(1500), work_dir("cuba"), 2);
}

TEST(CheckpointCli, PlasticNetworkResumedInANewProcessGivesTheSameSpikes) {
    vs::network net;
    const auto in = net.add_population("in", 200, vs::poisson_source{{.rate_hz = 20}});
    const auto exc = net.add_population("exc", 100, vs::lif_exp{});
    net.initialise(exc, "v_mv", vs::uniform{-60, -50});
    net.connect(in, exc, vs::fixed_probability{0.2},
                {.weight = vs::uniform{0, 2.0}, .delay_ms = 1.0,
                 .plasticity = vs::stdp_pair{.a_plus = 0.02, .a_minus = 0.021, .w_min = 0, .w_max = 2.0}});
    expect_resumed_run_matches(net, work_dir("plastic"), 1);
}

TEST(CheckpointCli, BadUsesAreErrorsNamingTheOptionAndTheValue) {
    const auto dir = work_dir("errors");
    vs::save_network_json(vs::cuba_network(300), dir / "a.json", {.dt_ms = 0.1, .duration_ms = 10, .seed = 1});
    vs::save_network_json(vs::cuba_network(400), dir / "b.json", {.dt_ms = 0.1, .duration_ms = 10, .seed = 1});
    auto r = run_volley_in(dir, "run a.json --checkpoint-every 5 --quiet");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("--checkpoint"), std::string::npos) << r.err;
    r = run_volley_in(dir, "run a.json --checkpoint a.h5 --checkpoint-every -1 --quiet");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("-1"), std::string::npos) << r.err;
    ASSERT_EQ(run_volley_in(dir, "run a.json --checkpoint a.h5 --quiet").code, 0);
    r = run_volley_in(dir, "run b.json --resume a.h5 --out b.csv --quiet");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("network_sha256"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "b.csv")) << "no output is opened for a refused checkpoint";
    r = run_volley_in(dir, "run a.json --resume absent.h5 --quiet");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("absent.h5"), std::string::npos) << r.err;
}

}  // namespace
