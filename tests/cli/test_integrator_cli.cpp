// `volley run --integrator`: it sets the scheme of every ODE population of a network file (the
// same spikes as the library with network::set_integrator), --json names it per population, a
// fixed-step run resumed from a checkpoint in a new process gives the spikes of the whole run,
// and a scheme a model lacks, or a network without an ODE population, exits 2 naming both.
// `volley bench peers --network coba --integrator S` runs Volley with that scheme.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <volley/snn.hpp>

#include "../support/cli_runner.hpp"

namespace {

namespace vs = volley::snn;
using volley::testing::run_volley_in;

std::filesystem::path work_dir(const std::string& name) {
    const auto d = std::filesystem::temp_directory_path() / ("volley_integrator_cli_" + std::to_string(::getpid())) / name;
    std::filesystem::create_directories(d);
    return d;
}

std::size_t spikes_after(const std::filesystem::path& csv, double after_ms) {
    std::size_t n = 0;
    for (const auto& p : vs::read_spike_csv(csv))
        n += static_cast<std::size_t>(std::count_if(p.timestamps_ms.begin(), p.timestamps_ms.end(),
                                                    [&](double t) { return t > after_ms + 1e-9; }));
    return n;
}

TEST(IntegratorCli, SetsEverySchemeAndMatchesTheLibrary) {
    const auto dir = work_dir("coba");
    auto net = vs::coba_network(800);
    vs::save_network_json(net, dir / "net.json", {.dt_ms = 0.1, .duration_ms = 200, .seed = 5});
    const auto r = run_volley_in(dir, "run net.json --integrator rk4 --threads 1 --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto f = r.json();
    std::uint64_t cli_spikes = 0;
    for (const auto& p : f["populations"]) {
        EXPECT_EQ(p["integrator"], "rk4");
        cli_spikes += p["spikes"].get<std::uint64_t>();
    }
    for (const char* name : {"exc", "inh"}) net.set_integrator(net.find(name), {.scheme = vs::ode_scheme::rk4});
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.1, .seed = 5});
    auto exc = sim.record_spikes(net.find("exc"));
    auto inh = sim.record_spikes(net.find("inh"));
    sim.run(200);
    EXPECT_GT(cli_spikes, 100u);
    EXPECT_EQ(cli_spikes, exc.size() + inh.size());
}

TEST(IntegratorCli, AFixedStepRunResumesFromACheckpoint) {
    const auto dir = work_dir("resume");
    vs::save_network_json(vs::coba_network(800), dir / "net.json", {.dt_ms = 0.1, .duration_ms = 100, .seed = 7});
    const std::string t = " --integrator exponential_euler --threads 2 --quiet";
    ASSERT_EQ(run_volley_in(dir, "run net.json --duration 200 --out full.csv" + t).code, 0);
    ASSERT_EQ(run_volley_in(dir, "run net.json --duration 100 --checkpoint state.h5" + t).code, 0);
    const auto second = run_volley_in(dir, "run net.json --resume state.h5 --duration 100 --out rest.csv" + t);
    ASSERT_EQ(second.code, 0) << second.err;
    const auto expected = spikes_after(dir / "full.csv", 100);
    ASSERT_GT(expected, 100u);
    EXPECT_EQ(spikes_after(dir / "rest.csv", 0), expected);
}

TEST(IntegratorCli, AnUnsupportedSchemeOrNoOdePopulationExitsTwoNamingBoth) {
    const auto dir = work_dir("errors");
    vs::network izh;
    izh.add_population("iz", 3, vs::izhikevich{});
    vs::save_network_json(izh, dir / "izh.json", {.dt_ms = 0.1, .duration_ms = 10, .seed = 1});
    auto r = run_volley_in(dir, "run izh.json --integrator exponential_euler --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("izhikevich"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("exponential_euler"), std::string::npos) << r.err;
    vs::save_network_json(vs::cuba_network(100), dir / "cuba.json", {.dt_ms = 0.1, .duration_ms = 10, .seed = 1});
    r = run_volley_in(dir, "run cuba.json --integrator rk4 --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("no ODE population"), std::string::npos) << r.err;
    r = run_volley_in(dir, "run izh.json --integrator rk45 --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("rk45"), std::string::npos) << r.err;
}

TEST(IntegratorCli, BenchPeersRunsCobaWithTheScheme) {
    const auto dir = work_dir("peers");
    // Volley's run inside `bench peers` must be `bench coba` with the same scheme and seed: the
    // rates agree to the last digit. Brian2 has no adaptive scheme, so it is skipped, naming why;
    // NEST is left out (a Python that does not exist).
    const std::string common = " --neurons 400 --duration 100 --seed 42";
    for (const char* scheme : {"rk2", "adaptive"}) {
        const auto peers = run_volley_in(dir, std::string("bench peers --network coba --integrator ") + scheme +
                                                  " --sizes 400 --duration 100 --repeats 1 --seed 42 --peers brian2,nest"
                                                  " --nest-python /nonexistent/python3 --python /nonexistent/python3 --json");
        ASSERT_EQ(peers.code, 0) << peers.err;
        const auto report = peers.json();
        EXPECT_EQ(report["network"], "coba");
        EXPECT_EQ(report["integrator"], scheme);
        EXPECT_TRUE(report["skipped"].contains("brian2"));
        if (std::string(scheme) == "adaptive") {
            EXPECT_NE(report["skipped"]["brian2"].get<std::string>().find("no adaptive scheme"), std::string::npos);
        }
        const auto direct = run_volley_in(dir, std::string("bench coba --threads 1 --json --quiet --integrator ") + scheme + common);
        ASSERT_EQ(direct.code, 0) << direct.err;
        EXPECT_EQ(report["sizes"][0]["volley"]["mean_rate_hz"].get<double>(), direct.json()["mean_rate_hz"].get<double>())
            << scheme;
    }
    const auto r = run_volley_in(dir, "bench peers --network cuba --integrator rk4 --sizes 400");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("coba and cobahh only"), std::string::npos) << r.err;
}

}  // namespace
