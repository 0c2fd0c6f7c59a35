// examples/networks: every file runs with the command its README gives, with the figures the
// README states (CUBA's rate from Brette et al. 2007, the LIF task's spike steps computed by the
// fixture's generator from the closed form, the evolved controller's whole episodes).

#include "../support/cli_runner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

using volley::testing::run_volley_in;

class ExamplesCli : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = std::filesystem::temp_directory_path() / ("volley_examples_" + std::to_string(::getpid()) + "_" +
                                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    /// The file's absolute path, quoted for the shell.
    std::string path(const std::string& relative) const {
        std::string quoted(1, '\'');
        quoted += (root / relative).string();
        quoted += '\'';
        return quoted;
    }
    const std::filesystem::path root = std::filesystem::path(VOLLEY_SOURCE_DIR);
    std::filesystem::path dir;
};

TEST_F(ExamplesCli, CubaFiresAtAFewHertz) {
    const auto r = run_volley_in(dir, "run " + path("examples/networks/cuba.json") + " --plot raster.svg --json --threads 2");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    ASSERT_TRUE(j.contains("mean_rate_hz")) << j.dump();
    EXPECT_GT(j["mean_rate_hz"].get<double>(), 3.0);
    EXPECT_LT(j["mean_rate_hz"].get<double>(), 10.0);
    EXPECT_TRUE(std::filesystem::exists(dir / "raster.svg"));
}

TEST_F(ExamplesCli, TheNirLifTaskSpikesWhereItsClosedFormSays) {
    const auto r = run_volley_in(dir, "run " + path("tests/data/nir/lif_affine.nir") + " --input " +
                                          path("examples/networks/lif_input.csv") + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.json()["outputs"][0]["spike_steps"].get<std::vector<long long>>(),
              (std::vector<long long>{354, 736, 798, 887}));
}

TEST_F(ExamplesCli, TheEvolvedControllerBalancesWholeEpisodes) {
    const auto r = run_volley_in(dir, "control cartpole --network " + path("examples/networks/cartpole_medium_risp1.json") +
                                          " --setting medium --episodes 5 --plot episode.svg --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["survived"].get<int>(), 5) << j.dump();
    EXPECT_EQ(j["min_steps"].get<int>(), 15000);
    EXPECT_TRUE(std::filesystem::exists(dir / "episode.svg"));
}

}  // namespace
