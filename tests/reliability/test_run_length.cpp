// How long a run may be (tests/reliability, docs/errors.md): `--duration inf` once reached the
// engine as -922337203685477632 ms, and NIR `--steps 9223372036854775807` overflowed to a run of
// no steps and exited 0. Every length is checked before it is converted: the message names the
// value as written. And a resumed run's summary covers its own span: spikes, events and rates of
// the resumed part only (it once counted from t = 0 and divided by the resumed duration); the
// temporary file of a checkpoint killed while it was written goes when the checkpoint is read.

#include "../support/cli_runner.hpp"

#include <volley/error.hpp>
#include <volley/snn/run_length.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace {

using volley::testing::run_volley_in;
namespace vs = volley::snn;

struct RunLength : ::testing::Test {
    std::filesystem::path dir;
    void SetUp() override {
        dir = std::filesystem::temp_directory_path() / ("volley_run_length_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        // Poisson drive into LIF cells: enough spikes to count, a second of simulation in well under one.
        std::ofstream(dir / "net.json") << R"({"format": "volley-network", "version": 1, "run": {"dt_ms": 0.1, "duration_ms": 200},
            "populations": [{"name": "in", "size": 50, "model": "poisson_source", "params": {"rate_hz": 40}},
                            {"name": "cells", "size": 40, "model": "lif_exp"}],
            "projections": [{"source": "in", "target": "cells", "connector": {"type": "fixed_probability", "p": 0.3},
                             "weight": 3.0, "delay_ms": 1.0}]})";
        std::ofstream(dir / "in.csv") << "0\n1\n0\n";
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
};

TEST_F(RunLength, TheLibraryRefusesDurationsThatAreNotFiniteOrOverflowNamingThem) {
    EXPECT_EQ(vs::duration_steps(100.0, 0.1, "x"), 1000);
    EXPECT_EQ(vs::duration_steps(0.0, 0.1, "x"), 0);
    for (const auto& [d, shown] : {std::pair{std::numeric_limits<double>::infinity(), std::string("inf")},
                                   std::pair{1e300, std::string("1.0000000000000001e+300")},
                                   std::pair{-1.0, std::string("-1")},
                                   std::pair{std::nan(""), std::string("nan")}}) {
        try {
            vs::duration_steps(d, 0.1, "x");
            ADD_FAILURE() << shown << " accepted";
        } catch (const volley::invalid_parameter& e) {
            EXPECT_EQ(e.value(), shown) << e.what();
        }
    }
    EXPECT_THROW(vs::check_run_steps(vs::max_run_steps, "x", "steps", 3), volley::invalid_parameter);
    EXPECT_NO_THROW(vs::check_run_steps(vs::max_run_steps - 3, "x", "steps", 3));
    vs::network net;
    net.add_population("a", 2, vs::lif_exp{});
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.1});
    EXPECT_THROW(sim.run(std::numeric_limits<double>::infinity()), volley::invalid_parameter);
    EXPECT_THROW(sim.run(1e300), volley::invalid_parameter);
    EXPECT_EQ(sim.current_step().value, 0);
}

TEST_F(RunLength, TheCliNamesTheDurationAndTheStepsAsWritten) {
    for (const auto& [args, shown] : {std::pair{std::string("run net.json --duration inf"), std::string("duration = inf")},
                                      std::pair{std::string("run net.json --duration 1e300"), std::string("1.0000000000000001e+300")},
                                      std::pair{std::string("run net.json --duration -5"), std::string("duration = -5")}}) {
        const auto r = run_volley_in(dir, args + " --quiet");
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(shown), std::string::npos) << args << "\n" << r.err;
        EXPECT_EQ(r.err.find("-922337203685477632"), std::string::npos) << r.err;
    }
    const std::string nir = std::string(VOLLEY_TEST_DATA_DIR) + "/nir/lif_affine.nir";
    const auto r = run_volley_in(dir, "run '" + nir + "' --input in.csv --steps 9223372036854775807");
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("steps = 9223372036854775807"), std::string::npos) << r.err;
}

TEST_F(RunLength, AResumedRunCountsOnlyWhatItRan) {
    const auto whole = run_volley_in(dir, "run net.json --duration 200 --json --threads 1");
    ASSERT_EQ(whole.code, 0) << whole.err;
    const auto first = run_volley_in(dir, "run net.json --duration 100 --checkpoint ck.h5 --json --threads 1");
    ASSERT_EQ(first.code, 0) << first.err;
    std::ofstream(dir / "ck.h5.tmp") << "the remains of a checkpoint killed while it was written";
    const auto rest = run_volley_in(dir, "run net.json --resume ck.h5 --duration 100 --json --threads 1");
    EXPECT_FALSE(std::filesystem::exists(dir / "ck.h5.tmp")) << "a resumed run left the stale temporary file";
    ASSERT_EQ(rest.code, 0) << rest.err;
    const auto w = whole.json(), a = first.json(), b = rest.json();
    const auto spikes = [](const nlohmann::json& j) { return j["populations"][1]["spikes"].get<long long>(); };
    ASSERT_GT(spikes(a), 0);
    EXPECT_EQ(spikes(b), spikes(w) - spikes(a));
    EXPECT_EQ(b["synaptic_events"].get<long long>(), w["synaptic_events"].get<long long>() - a["synaptic_events"].get<long long>());
    EXPECT_DOUBLE_EQ(b["start_ms"].get<double>(), 100.0);
    EXPECT_DOUBLE_EQ(b["duration_ms"].get<double>(), 100.0);
    EXPECT_NEAR(b["populations"][1]["mean_rate_hz"].get<double>(), static_cast<double>(spikes(b)) / (0.1 * 40), 1e-9);
}

// A weight of 1e308 was accepted and its summed input overflowed to an infinite current: every
// weight is bounded (max 1e288) so that a step's input, summed in the engines' fixed point, stays
// finite; the error names the projection and the weight as given, in the library and the CLI.
TEST_F(RunLength, AWeightWhoseSummedInputWouldOverflowIsRefusedNamingIt) {
    vs::network net;
    const auto a = net.add_population("a", 2, vs::lif_exp{});
    EXPECT_NO_THROW(net.connect(a, a, vs::all_to_all{}, {.weight = 1e288}));
    for (const auto& [w, shown] : {std::pair{vs::value_spec{1e308}, std::string("1e+308")},
                                   std::pair{vs::value_spec{std::vector<double>{1, -1e303, 3, 4}}, std::string("-1e+303")},
                                   std::pair{vs::value_spec{vs::uniform{0, 1e303}}, std::string("uniform(0, 1e+303)")}}) {
        try {
            net.connect(a, a, vs::all_to_all{}, {.weight = w});
            ADD_FAILURE() << shown << " accepted";
        } catch (const volley::invalid_parameter& e) {
            EXPECT_EQ(e.value(), shown) << e.what();
            EXPECT_NE(std::string(e.what()).find("must stay finite"), std::string::npos) << e.what();
        }
    }
    // A convolution's kernel holds its weights: the same bound, named as the kernel's element.
    const auto in = net.add_population("in", 9, vs::lif_exp{}), out = net.add_population("out", 4, vs::lif_exp{});
    vs::convolution cv{.in_channels = 1, .in_height = 3, .in_width = 3, .out_channels = 1, .kernel_height = 2,
                       .kernel_width = 2, .kernel = {0.5, 1e288, -2, 1}};
    EXPECT_NO_THROW(net.connect(in, out, cv, {.weight = 1.0}));
    cv.kernel[2] = -1e303;
    try {
        net.connect(in, out, cv, {.weight = 1.0});
        ADD_FAILURE() << "a kernel value of -1e303 accepted";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "convolution kernel[2]") << e.what();
        EXPECT_EQ(e.value(), "-1e+303") << e.what();
    }
    auto text = volley::testing::read_text_file(dir / "net.json");
    text.replace(text.find("\"weight\": 3.0"), 13, "\"weight\": 1e308");
    std::ofstream(dir / "huge.json") << text;
    const auto r = run_volley_in(dir, "run huge.json --quiet");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("huge.json"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1e+308"), std::string::npos) << r.err;
}

}  // namespace
