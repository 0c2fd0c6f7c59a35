// Thread counts a user gives (tests/reliability, docs/errors.md): 65,536 OpenMP threads once
// crashed inside the runtime and 20,000 ran for minutes. Every count is checked against
// volley::max_thread_count() before a thread starts: the library's typed error, and the CLI's
// exit status 2 with the bound in its message.

#include "../support/cli_runner.hpp"

#include <volley/snn/context.hpp>
#include <volley/thread_limit.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace {

using volley::testing::run_volley_in;

TEST(ThreadLimit, TheBoundIsSixteenPerCoreAndNeverBelow64) {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    EXPECT_EQ(volley::max_thread_count(), std::max(64, 16 * cores));
    volley::snn::context ctx;
    ctx.threads = volley::max_thread_count();
    EXPECT_EQ(volley::snn::resolved_threads(ctx), volley::max_thread_count());
    for (const int bad : {volley::max_thread_count() + 1, 65536, -1}) {
        ctx.threads = bad;
        try {
            volley::snn::resolved_threads(ctx);
            ADD_FAILURE() << bad << " threads accepted";
        } catch (const volley::invalid_parameter& e) {
            EXPECT_EQ(e.parameter(), "threads");
            EXPECT_EQ(e.value(), std::to_string(bad));
            EXPECT_NE(std::string(e.what()).find(std::to_string(volley::max_thread_count())), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(volley::check_thread_count("x", 0, /*zero_allowed=*/false), volley::invalid_parameter);
}

TEST(ThreadLimit, EveryThreadsOptionRefusesACountPastTheBound) {
    const auto dir = std::filesystem::temp_directory_path() / ("volley_thread_limit_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "net.json") << R"({"format": "volley-network", "version": 1, "run": {"dt_ms": 0.1},
        "populations": [{"name": "a", "size": 4, "model": "lif_exp"}]})";
    const std::string bound = std::to_string(volley::max_thread_count());
    for (const std::string args : {"run net.json --duration 1 --threads 65536", "evolve --task count --out o.json --threads 40000",
                                   "bench cuba --threads 20000", "demo --threads 65536", "convert m.h5 --threads 65536",
                                   "train --threads 65536"}) {
        const auto r = run_volley_in(dir, args);
        EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find("threads"), std::string::npos) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(bound), std::string::npos) << args << "\n" << r.err;
    }
    const auto ok = run_volley_in(dir, "run net.json --duration 1 --threads " + bound + " --quiet");
    EXPECT_EQ(ok.code, 0) << ok.err;
    std::filesystem::remove_all(dir);
}

}  // namespace
