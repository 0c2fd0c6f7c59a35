// `volley evolve`: the same seed gives the same best network and history on 1 and 2 threads; a
// run resumed from its population checkpoint equals the run straight through; seeded with the
// hand-built network it answers every oracle test sequence right (the labels' ground truth);
// on danna2 the best network placed on the DANNA grid gives the same answers; bad input is an
// error naming the key and the value.

#include "../support/cli_runner.hpp"

#include <volley/convert/image_dataset.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace {

using volley::testing::read_text_file;
using volley::testing::run_volley_in;

class EvolveCli : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::filesystem::exists(std::filesystem::path(volley::convert::default_fashion_mnist_dir) /
                                     "train-labels-idx1-ubyte.gz"))
            GTEST_SKIP() << "Fashion-MNIST is not installed (scripts/setup)";
        dir = std::filesystem::temp_directory_path() /
              ("volley_evolve_cli_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir);
    }
    std::filesystem::path dir;
    const std::string small = " --population 24 --train-sequences 60 --test-sequences 60 --quiet --json";
};

TEST_F(EvolveCli, TheResultDoesNotDependOnTheThreadCount) {
    auto one = run_volley_in(dir, "evolve --task change --generations 5 --threads 1 --out one.json" + small);
    ASSERT_EQ(one.code, 0) << one.err;
    auto two = run_volley_in(dir, "evolve --task change --generations 5 --threads 2 --out two.json" + small);
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_EQ(one.json()["history"], two.json()["history"]);
    EXPECT_EQ(one.json()["evolved"]["accuracy"], two.json()["evolved"]["accuracy"]);
    auto a = nlohmann::json::parse(read_text_file(dir / "one.json")), b = nlohmann::json::parse(read_text_file(dir / "two.json"));
    EXPECT_EQ(a["Nodes"], b["Nodes"]);
    EXPECT_EQ(a["Edges"], b["Edges"]);
}

TEST_F(EvolveCli, AResumedEvolutionEqualsTheRunStraightThrough) {
    auto straight = run_volley_in(dir, "evolve --task order --generations 6 --out straight.json --plot fit.svg" + small);
    ASSERT_EQ(straight.code, 0) << straight.err;
    auto first = run_volley_in(dir, "evolve --task order --generations 3 --checkpoint pop.json --out first.json" + small);
    ASSERT_EQ(first.code, 0) << first.err;
    auto rest = run_volley_in(dir, "evolve --task order --generations 3 --resume pop.json --out rest.json" + small);
    ASSERT_EQ(rest.code, 0) << rest.err;
    EXPECT_EQ(rest.json()["history"], straight.json()["history"]);
    const auto a = nlohmann::json::parse(read_text_file(dir / "straight.json"));
    const auto b = nlohmann::json::parse(read_text_file(dir / "rest.json"));
    EXPECT_EQ(a["Nodes"], b["Nodes"]);
    EXPECT_EQ(a["Edges"], b["Edges"]);
    EXPECT_NE(read_text_file(dir / "fit.svg").find("<polyline"), std::string::npos);
}

TEST_F(EvolveCli, SeededWithTheHandBuiltNetworkEveryOracleAnswerIsRight) {
    for (const char* task : {"order", "count", "change"}) {
        auto r = run_volley_in(dir, std::string("evolve --task ") + task + " --generations 2 --seed-hand-built --out seeded.json" + small);
        ASSERT_EQ(r.code, 0) << r.err;
        const auto f = r.json();
        EXPECT_EQ(f["evolved"]["accuracy"].get<double>(), 1.0) << task;
        EXPECT_EQ(f["hand_built"]["accuracy"].get<double>(), 1.0) << task;
        EXPECT_EQ(f["ideal_bound"].get<double>(), 1.0) << task;
        EXPECT_LE(f["evolved"]["neurons"].get<int>(), 64) << task;
        // Fitness 1 from the first generation: the run stops there and says so.
        EXPECT_EQ(f["generations"].get<int>(), 1) << task;
        EXPECT_TRUE(f["reached_fitness_1"].get<bool>()) << task;
    }
    auto text = run_volley_in(dir, "evolve --task count --generations 3 --seed-hand-built --out seeded.json --population 24 "
                                   "--train-sequences 60 --test-sequences 60 --quiet");
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("stopped after generation 1 of 3"), std::string::npos) << text.out;
}

// Defaults that do not surprise: no file is written where none was named, a population that
// cannot evolve is refused rather than replaced, and --help gives the default generations.
TEST_F(EvolveCli, NoSilentDefaults) {
    auto r = run_volley_in(dir, "evolve --task count --generations 1" + small);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "best.json"));
    for (const char* bad : {"0", "-5", "1"}) {
        r = run_volley_in(dir, std::string("evolve --task count --generations 1 --out p.json --train-sequences 60 "
                                           "--test-sequences 60 --quiet --population ") + bad);
        EXPECT_EQ(r.code, 2) << bad;
        EXPECT_NE(r.err.find("population"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir / "p.json")) << bad;
    }
    r = run_volley_in(dir, "evolve --help");
    EXPECT_NE(r.out.find("--generations INT=50"), std::string::npos) << r.out;
}

// Every question, change included: on danna2 the hand-built seed takes delays the grid can route.
TEST_F(EvolveCli, OnDanna2TheBestNetworkGivesTheSameAnswersOnTheGrid) {
    for (const char* task : {"order", "count", "change"}) {
        auto r = run_volley_in(dir, std::string("evolve --task ") + task +
                                        " --processor danna2 --generations 1 --seed-hand-built --out grid.json" + small);
        ASSERT_EQ(r.code, 0) << r.err;
        const auto grid = r.json()["danna_grid"];
        ASSERT_TRUE(grid.contains("sequences_differing_from_danna2")) << task << " " << grid.dump();
        EXPECT_EQ(grid["sequences_differing_from_danna2"].get<int>(), 0) << task;
        EXPECT_EQ(grid["accuracy"].get<double>(), 1.0) << task;
    }
}

// The network file `volley evolve` writes names its processor (Associated_Data: proc_name risp
// and its proc_params), and every way into a processor reads it alike: the hand-built order
// network, fed A (class 7) at cycle 0 and B (class 8) at cycle 20, fires at b + 1 = 21 (its
// design, docs/temporal.md) on `danna run` (danna2 and the grid), and through the
// processor_tool command language on danna2 and RISP. `danna run` once gave it DANNA's default
// refractory period and it did not fire.
TEST_F(EvolveCli, AnEvolvedNetworkFiresAlikeOnEveryWayIntoAProcessor) {
    auto r = run_volley_in(dir, "evolve --task order --processor danna2 --generations 1 --seed-hand-built --out order.json" +
                                    small);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto net = nlohmann::json::parse(read_text_file(dir / "order.json"));
    ASSERT_EQ(net["Associated_Data"]["other"]["proc_name"], "risp");
    const double w = net["Associated_Data"]["proc_params"]["spike_value_factor"].get<double>();
    std::ofstream(dir / "in.csv") << "7,0," << w << "\n8,20," << w << "\n";
    for (const std::string where : {"--model danna2", "--model danna --preset fpga2014"}) {
        r = run_volley_in(dir, "danna run order.json " + where + " --inputs in.csv --cycles 60 --json");
        ASSERT_EQ(r.code, 0) << where << "\n" << r.err;
        EXPECT_EQ(r.json()["outputs"][0]["fires"], nlohmann::json::array({21})) << where;
    }
    std::ofstream(dir / "tool.txt") << "ML " << (dir / "order.json").string() << "\nAS 7 0 1\nAS 8 20 1\nRUN 60\nOT\n";
    for (const std::string tool : {"danna --model danna2", "risp"}) {
        const auto t = volley::testing::run_volley(tool + " < '" + (dir / "tool.txt").string() + "'", dir);
        ASSERT_EQ(t.code, 0) << tool << "\n" << t.err;
        EXPECT_NE(t.out.find("21"), std::string::npos) << tool << "\n" << t.out;
    }
}

// --leak: the networks run on RISP with leak_mode "all", which the written network carries;
// the DANNA models have no such leak, so --leak on them is refused.
TEST_F(EvolveCli, LeakIsRispsLeakModeAllAndOnlyOnRisp) {
    auto r = run_volley_in(dir, "evolve --task count --leak --generations 1 --out leak.json" + small);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto net = nlohmann::json::parse(read_text_file(dir / "leak.json"));
    EXPECT_EQ(net["Associated_Data"]["proc_params"]["leak_mode"], "all");
    r = run_volley_in(dir, "evolve --task count --generations 1 --out plain.json" + small);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(read_text_file(dir / "plain.json"))["Associated_Data"]["proc_params"]["leak_mode"], "none");
    r = run_volley_in(dir, "evolve --task count --leak --processor danna2 --generations 1 --out d.json" + small);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--leak"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("danna2"), std::string::npos) << r.err;
    r = run_volley_in(dir, "evolve --task cartpole --leak --generations 1 --out c.json --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--leak"), std::string::npos) << r.err;
}

TEST_F(EvolveCli, BadInputIsAnErrorNamingTheKeyAndTheValue) {
    auto r = run_volley_in(dir, "evolve --task sorting --generations 1 --out bad.json" + small);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("sorting"), std::string::npos) << r.err;
    r = run_volley_in(dir, "evolve --processor loihi --generations 1 --out bad.json" + small);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("loihi"), std::string::npos) << r.err;
    std::ofstream(dir / "bad.json") << R"({"population": 10, "mutation_rat": 0.5})";
    r = run_volley_in(dir, "evolve --config bad.json --generations 1 --out bad.json" + small);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("mutation_rat"), std::string::npos) << r.err;
    std::ofstream(dir / "rate.json") << R"({"crossover_rate": 1.5})";
    r = run_volley_in(dir, "evolve --config rate.json --generations 1 --out bad.json" + small);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("crossover_rate"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1.5"), std::string::npos) << r.err;
    // A population checkpoint of the risp task does not resume on another shape of network.
    ASSERT_EQ(run_volley_in(dir, "evolve --task order --generations 1 --checkpoint pop.json --out bad.json" + small).code, 0);
    r = run_volley_in(dir, "evolve --task order --generations 1 --resume pop.json --cycles-per-frame 20 --out bad.json" + small);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("pop.json"), std::string::npos) << r.err;
}

}  // namespace
