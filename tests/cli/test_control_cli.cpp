// `volley control cartpole` and `volley evolve --task cartpole` (docs/control.md): a network of
// our own acts as the same policy written directly in the test; the plot is an SVG with the
// traces; bad settings, starts and networks are errors naming the file, the key and the value;
// the evolution gives the same result on 1 and 2 threads, resumes from its checkpoint (in its
// stage and validation round) to the result of the run straight through, and writes a network
// that `control` runs as evolved.

#include "../support/cli_runner.hpp"

#include <volley/temporal/cartpole_setting.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using volley::testing::read_text_file;
using volley::testing::run_volley_in;
using namespace volley::temporal;

class ControlCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir = std::filesystem::temp_directory_path() /
              ("volley_control_cli_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir);
        // RISP-1+: θ+ (5) and θ̇+ (7) to "right" (9), θ− (4) and θ̇− (6) to "left" (8), delays
        // 1 and 2: right iff n(θ+) + n(θ̇+) > n(θ−) + n(θ̇−).
        std::ofstream(dir / "net.json") << R"({
  "Properties": {"node_properties": [{"name": "Threshold", "type": 73, "index": 0, "size": 1, "min_value": 1, "max_value": 1}],
                 "edge_properties": [{"name": "Weight", "type": 73, "index": 0, "size": 1, "min_value": 1, "max_value": 1},
                                     {"name": "Delay", "type": 73, "index": 1, "size": 1, "min_value": 1, "max_value": 15}],
                 "network_properties": []},
  "Nodes": [{"id": 0, "values": [1]}, {"id": 1, "values": [1]}, {"id": 2, "values": [1]}, {"id": 3, "values": [1]},
            {"id": 4, "values": [1]}, {"id": 5, "values": [1]}, {"id": 6, "values": [1]}, {"id": 7, "values": [1]},
            {"id": 8, "values": [1]}, {"id": 9, "values": [1]}],
  "Edges": [{"from": 5, "to": 9, "values": [1, 1]}, {"from": 7, "to": 9, "values": [1, 2]},
            {"from": 4, "to": 8, "values": [1, 1]}, {"from": 6, "to": 8, "values": [1, 2]}],
  "Inputs": [0, 1, 2, 3, 4, 5, 6, 7], "Outputs": [8, 9], "Network_Values": [],
  "Associated_Data": {"proc_params": {"min_weight": 1, "max_weight": 1, "min_threshold": 1, "max_threshold": 1,
                                      "min_potential": 0, "max_delay": 15, "leak_mode": "none", "discrete": true}}})";
    }
    std::filesystem::path dir;

    /// Splits `volley evolve OPTIONS` of `generations` after every generation g (a --checkpoint
    /// run of g, then a --resume run of the rest) and expects each split to end where the run
    /// straight through (`straight`, which wrote straight.json) ends: the same history, the same
    /// report `keys` and the same network written.
    void expect_splits_end_as_straight(const std::string& options, int generations, const nlohmann::json& straight,
                                       const std::vector<std::string>& keys = {}) {
        for (int g = 1; g < generations; ++g) {
            const std::string ck = "split" + std::to_string(g) + ".json";
            auto a = run_volley_in(dir, "evolve --generations " + std::to_string(g) + " --checkpoint " + ck + " --out a.json" + options);
            ASSERT_EQ(a.code, 0) << a.err;
            auto b = run_volley_in(dir, "evolve --generations " + std::to_string(generations - g) + " --resume " + ck +
                                            " --out b.json" + options);
            ASSERT_EQ(b.code, 0) << b.err;
            EXPECT_EQ(b.json()["history"], straight["history"]) << "split after generation " << g;
            for (const auto& k : keys) EXPECT_EQ(b.json()[k], straight[k]) << k << ", split after generation " << g;
            EXPECT_EQ(read_text_file(dir / "b.json"), read_text_file(dir / "straight.json")) << "split after generation " << g;
        }
    }
};

/// Steps survived by the policy of net.json written directly, from `start`, at most `steps`.
int policy_steps(cartpole_state s, int steps) {
    const auto setting = cartpole_setting::load("easy");
    for (int k = 0; k < steps; ++k) {
        const auto c = encode_observation(setting.observe(s), setting.coding);
        s = cartpole_step(s, c[5] + c[7] > c[4] + c[6] ? 10.0 : -10.0);
        if (cartpole_failed(s)) return k;
    }
    return steps;
}

TEST_F(ControlCli, TheNetworkActsAsThePolicyWrittenDirectly) {
    auto r = run_volley_in(dir, "control cartpole --network net.json --start 0.1,0.2,-0.03,0.1 --steps 2000 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.json()["episodes"][0]["steps"], policy_steps({0.1, 0.2, -0.03, 0.1}, 2000));
    // A file of starts, one per line, with comments.
    std::ofstream(dir / "starts.txt") << "# x, x_dot, theta, theta_dot\n0.1,0.2,-0.03,0.1\n\n-0.5, 0, 0.05, -0.2  # two\n";
    r = run_volley_in(dir, "control cartpole --network net.json --starts starts.txt --steps 1500 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_EQ(r.json()["episodes"].size(), 2u);
    EXPECT_EQ(r.json()["episodes"][1]["steps"], policy_steps({-0.5, 0, 0.05, -0.2}, 1500));
    // The default starts are the held-out test stream's.
    r = run_volley_in(dir, "control cartpole --network net.json --episodes 3 --steps 800 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto setting = cartpole_setting::load("easy");
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(r.json()["episodes"][i]["steps"],
                  policy_steps(cartpole_start(setting.starts, test_start_seed, static_cast<std::uint64_t>(i)), 800));
}

TEST_F(ControlCli, ThePlotShowsTheEpisodeAndTheRaster) {
    auto r = run_volley_in(dir, "control cartpole --network net.json --episodes 1 --steps 300 --plot ep.svg");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto svg = read_text_file(dir / "ep.svg");
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("<polyline"), std::string::npos);
    EXPECT_NE(svg.find("raster of the first 40 steps"), std::string::npos);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST_F(ControlCli, BadInputIsAnErrorNamingTheFileTheKeyAndTheValue) {
    auto setting = cartpole_setting::load("easy").to_json();
    setting["observations"][2]["value"] = "omega";
    std::ofstream(dir / "bad.json") << setting.dump();
    auto r = run_volley_in(dir, "control cartpole --network net.json --setting bad.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("observations[2].value"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("omega"), std::string::npos) << r.err;
    r = run_volley_in(dir, "control cartpole --network net.json --setting hard");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("net.json"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("inputs"), std::string::npos) << r.err;
    r = run_volley_in(dir, "control cartpole --network net.json --start 3,0,0,0");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("3,0,0,0"), std::string::npos) << r.err;
    r = run_volley_in(dir, "control cartpole --network net.json --preset risp-3");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("risp-3"), std::string::npos) << r.err;
    // A RISP parameter file: read and checked as the RISP processor checks it.
    std::ofstream(dir / "risp.json") << R"({"discrete": true, "min_weight": -1, "max_weight": 1, "min_threshold": 1,
                                            "max_threshold": 1, "min_potential": -1, "max_delay": 15, "max_wieght": 3})";
    r = run_volley_in(dir, "control cartpole --network net.json --preset risp.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("risp.json"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("max_wieght"), std::string::npos) << r.err;
    r = run_volley_in(dir, "control cartpole --network net.json --preset missing.json");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
    // The file holding risp-1+'s parameters acts as the preset of that name.
    std::ofstream(dir / "risp1p.json") << R"({"discrete": true, "leak_mode": "none", "min_weight": 1, "max_weight": 1,
                                              "min_threshold": 1, "max_threshold": 1, "min_potential": 0, "max_delay": 15})";
    const auto named = run_volley_in(dir, "control cartpole --network net.json --preset risp-1+ --episodes 2 --steps 500 --json");
    const auto file = run_volley_in(dir, "control cartpole --network net.json --preset risp1p.json --episodes 2 --steps 500 --json");
    ASSERT_EQ(named.code, 0) << named.err;
    ASSERT_EQ(file.code, 0) << file.err;
    EXPECT_EQ(named.json()["episodes"], file.json()["episodes"]);
    std::ofstream(dir / "log.txt") << "# Step 0000. Observations: 0.1 0.2 0.3 0.4\nAS 0 0 1\n";
    r = run_volley_in(dir, "control cartpole --network net.json --replay log.txt");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("log.txt"), std::string::npos) << r.err;
}

const std::string evolve_small =
    " --task cartpole --setting easy --preset risp-1+ --population 20 --episodes 3 --training-steps 300 --compare-episodes 1"
    " --quiet --json";

TEST_F(ControlCli, EvolutionIsTheSameOnOneAndTwoThreadsAndResumes) {
    auto one = run_volley_in(dir, "evolve --generations 6 --threads 1 --out one.json" + evolve_small);
    ASSERT_EQ(one.code, 0) << one.err;
    auto two = run_volley_in(dir, "evolve --generations 6 --threads 2 --out two.json" + evolve_small);
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(one.json()["history"], two.json()["history"]);
    EXPECT_EQ(one.json()["test"], two.json()["test"]);
    EXPECT_EQ(read_text_file(dir / "one.json"), read_text_file(dir / "two.json"));
    auto first = run_volley_in(dir, "evolve --generations 3 --checkpoint pop.json --out first.json" + evolve_small);
    ASSERT_EQ(first.code, 0) << first.err;
    auto rest = run_volley_in(dir, "evolve --generations 3 --resume pop.json --out rest.json" + evolve_small);
    ASSERT_EQ(rest.code, 0) << rest.err;
    EXPECT_EQ(rest.json()["history"], one.json()["history"]);
    // The written network carries its processor parameters: control runs it as evolved.
    const auto evolved = one.json();
    auto again = run_volley_in(dir, "control cartpole --network one.json --episodes 20 --json");
    ASSERT_EQ(again.code, 0) << again.err;
    const auto replayed = again.json();
    for (int i = 0; i < 20; ++i) EXPECT_EQ(replayed["episodes"][i]["steps"], evolved["test"]["steps"][i]);
    EXPECT_EQ(evolved["same_actions_on"]["danna2"]["episodes"], 1);
}

TEST_F(ControlCli, StagedEvolutionResumesInItsStage) {
    // Stage 1: episodes of 20 steps, reached at once by some network; stage 2: 400 steps. The
    // run split at every generation boundary ends where the run straight through ends.
    const std::string staged =
        " --task cartpole --setting easy --preset risp-1+ --population 20 --episodes 2 --training-steps 20,400"
        " --validation-starts 0 --no-corner-starts"
        " --compare-episodes 0 --quiet --json";
    auto straight = run_volley_in(dir, "evolve --generations 8 --out straight.json" + staged);
    ASSERT_EQ(straight.code, 0) << straight.err;
    const auto s = straight.json();
    ASSERT_EQ(s["stages"], 2);
    ASSERT_EQ(s["stage"], 2) << "the first stage is reached within 8 generations";
    expect_splits_end_as_straight(staged, 8, s);
    auto bad = run_volley_in(dir, "evolve --task cartpole --generations 1 --out c.json --training-steps 20,x");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("20,x"), std::string::npos) << bad.err;
}

// The cart-pole's parents are chosen by lexicase unless the config or --selection says
// otherwise (bench/macro/eons/README.md, fourth round); the report says which.
TEST_F(ControlCli, CartPoleSelectsByLexicaseUnlessToldOtherwise) {
    const std::string small = " --task cartpole --setting easy --preset risp-1 --population 8 --episodes 2"
                              " --training-steps 20 --validation-starts 0 --no-corner-starts --compare-episodes 0"
                              " --generations 2 --quiet --json --out c.json";
    auto r = run_volley_in(dir, "evolve" + small);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.json()["selection"], "lexicase");
    r = run_volley_in(dir, "evolve --selection tournament" + small);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.json()["selection"], "tournament");
    std::ofstream(dir / "t.json") << R"({"selection": "tournament"})";
    r = run_volley_in(dir, "evolve --config t.json" + small);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.json()["selection"], "tournament");
    r = run_volley_in(dir, "evolve --selection roulette" + small);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--selection"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("roulette"), std::string::npos) << r.err;
}

TEST_F(ControlCli, ValidationRoundsResumeWhereTheyStood) {
    // Episodes of 20 steps: the best network soon survives both training starts, then fails
    // validation starts, two of which join the training starts each round. The run split at
    // every generation boundary (the checkpoint holds the mined starts) ends where the run
    // straight through ends.
    const std::string mining =
        " --task cartpole --setting easy --preset risp-1+ --population 20 --episodes 2 --training-steps 20"
        " --validation-starts 30 --no-corner-starts --mined-per-round 2 --compare-episodes 0 --quiet --json";
    auto straight = run_volley_in(dir, "evolve --generations 10 --out straight.json" + mining);
    ASSERT_EQ(straight.code, 0) << straight.err;
    const auto s = straight.json();
    ASSERT_GE(s["mined_starts"].size(), 4u) << "two rounds or more within 10 generations";
    for (const auto& i : s["mined_starts"]) EXPECT_LT(i.get<int>(), 30) << "positions in the pool of 30";
    expect_splits_end_as_straight(mining, 10, s, {"mined_starts"});
    auto bad = run_volley_in(dir, "evolve --task cartpole --generations 1 --out c.json --mined-per-round 0");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("mined_per_round"), std::string::npos) << bad.err;
    // A pool too large to hold is refused before it is drawn, naming the value and the bound.
    auto huge = run_volley_in(dir, "evolve --task cartpole --generations 1 --out c.json --validation-starts 2000000000");
    EXPECT_EQ(huge.code, 2);
    EXPECT_NE(huge.err.find("validation_starts"), std::string::npos) << huge.err;
    EXPECT_NE(huge.err.find("2000000000"), std::string::npos) << huge.err;
    EXPECT_NE(huge.err.find("100000"), std::string::npos) << huge.err;
    auto episodes = run_volley_in(dir, "evolve --task cartpole --generations 1 --out c.json --episodes 2000000000");
    EXPECT_EQ(episodes.code, 2);
    EXPECT_NE(episodes.err.find("training_episodes"), std::string::npos) << episodes.err;
}

}  // namespace
