// Faults during `volley run` (docs/recording-format.md, "Crash safety"; docs/engine.md,
// "Checkpoints"): a full disk (a file-size limit) stops the run with an error naming the file and
// leaves a valid SONATA file holding a prefix of the uninterrupted run's spikes (and reports); a
// run killed with SIGKILL leaves a valid file up to its last flush; a run killed mid-way resumes
// from its last periodic checkpoint and gives the spikes of the uninterrupted run.

#include "../support/cli_runner.hpp"

#include <volley/error.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/spike_csv.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <thread>
#include <tuple>

namespace {

namespace vs = volley::snn;
using volley::testing::run_volley_in;

std::filesystem::path work_dir(const std::string& name) {
    const auto d = std::filesystem::temp_directory_path() /
                   ("volley_run_faults_" + std::to_string(::getpid())) / name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

/// Poisson input into LIF neurons: steady spikes in both populations from the first ms.
void write_network(const std::filesystem::path& file, int inputs = 2000) {
    vs::network net;
    const auto in = net.add_population("in", inputs, vs::poisson_source{{.rate_hz = 50}});
    const auto exc = net.add_population("exc", 500, vs::lif_exp{});
    net.initialise(exc, "v_mv", vs::uniform{-60, -50});
    net.connect(in, exc, vs::fixed_probability{0.05}, {.weight = 1.0, .delay_ms = 1.0});
    vs::save_network_json(net, file, {.dt_ms = 0.1, .duration_ms = 100, .seed = 3});
}

/// Runs `cmd` (a `volley run ... --out cut.h5` under a file-size limit, stderr to stderr.txt in
/// `dir`): it must exit with 2 naming cut.h5, and cut.h5 must hold every spike of whole.h5.
void expect_exit_2_with_every_spike(const std::string& cmd, const std::filesystem::path& dir) {
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << "the run died instead of failing";
    EXPECT_EQ(WEXITSTATUS(status), 2);
    EXPECT_NE(volley::testing::read_text_file(dir / "stderr.txt").find("cut.h5"), std::string::npos);
    const auto whole = vs::read_sonata_spikes(dir / "whole.h5");
    std::vector<vs::population_spikes> got;
    ASSERT_NO_THROW(got = vs::read_sonata_spikes(dir / "cut.h5"));
    ASSERT_EQ(got.size(), whole.size());
    for (std::size_t p = 0; p < got.size(); ++p) {
        EXPECT_EQ(got[p].node_ids, whole[p].node_ids) << got[p].population;
        EXPECT_EQ(got[p].timestamps_ms, whole[p].timestamps_ms) << got[p].population;
    }
}

bool have_program(const std::string& name) {
    return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

/// Every population of `got` is a prefix of the same population in `whole` (same order, same
/// ids, same times); returns the number of spikes in `got`.
std::size_t expect_prefix(const std::vector<vs::population_spikes>& got,
                          const std::vector<vs::population_spikes>& whole) {
    std::size_t n = 0;
    EXPECT_EQ(got.size(), whole.size());
    for (std::size_t p = 0; p < std::min(got.size(), whole.size()); ++p) {
        EXPECT_EQ(got[p].population, whole[p].population);
        const std::size_t k = got[p].node_ids.size();
        EXPECT_LE(k, whole[p].node_ids.size()) << got[p].population;
        if (k > whole[p].node_ids.size()) continue;
        EXPECT_TRUE(
            std::equal(got[p].node_ids.begin(), got[p].node_ids.end(), whole[p].node_ids.begin()))
            << got[p].population << ": node ids differ from the uninterrupted run's first " << k;
        EXPECT_TRUE(std::equal(got[p].timestamps_ms.begin(), got[p].timestamps_ms.end(),
                               whole[p].timestamps_ms.begin()))
            << got[p].population << ": times differ from the uninterrupted run's first " << k;
        n += k;
    }
    return n;
}

TEST(RunFaultsCli, AFullDiskStopsTheRunNamingTheFileAndKeepsWhatWasFlushed) {
    if (!have_program("prlimit")) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    const auto dir = work_dir("full_disk");
    write_network(dir / "net.json");
    auto whole =
        run_volley_in(dir, "run net.json --duration 1000 --threads 1 --quiet --out whole.h5");
    ASSERT_EQ(whole.code, 0) << whole.err;
    const auto expected = vs::read_sonata_spikes(dir / "whole.h5");
    const auto whole_size = std::filesystem::file_size(dir / "whole.h5");
    // Limits from "not even the layout fits" to "most of the run fits".
    for (const std::uintmax_t limit : {std::uintmax_t{4096}, whole_size / 4, whole_size * 3 / 4}) {
        const std::string out = "cut_" + std::to_string(limit) + ".h5";
        // The limit binds the run only; SIGXFSZ keeps its default action (kill), so the run
        // survives only because `volley` ignores it and turns EFBIG into an error.
        const std::string cmd =
            "cd '" + dir.string() + "' && prlimit --fsize=" + std::to_string(limit) +
            " '" VOLLEY_CLI
            "' run net.json --duration 1000 --threads 1 --quiet --flush-every 0 --out " +
            out + " >stdout.txt 2>stderr.txt </dev/null";
        const int status = std::system(cmd.c_str());
        ASSERT_TRUE(WIFEXITED(status)) << "limit " << limit << ": the run died instead of failing";
        EXPECT_NE(WEXITSTATUS(status), 0) << "limit " << limit;
        const auto err = volley::testing::read_text_file(dir / "stderr.txt");
        EXPECT_NE(err.find(out), std::string::npos) << err;
        EXPECT_LE(std::filesystem::file_size(dir / out), limit);
        if (limit < 16384)
            continue;  // nothing but the superblock fits; the file may hold no layout
        std::vector<vs::population_spikes> got;
        ASSERT_NO_THROW(got = vs::read_sonata_spikes(dir / out)) << "limit " << limit;
        const std::size_t n = expect_prefix(got, expected);
        EXPECT_GT(n, 0u) << "limit " << limit << ": some flushes must have fitted";
        if (have_program("h5dump")) {
            EXPECT_EQ(
                std::system(("h5dump -H '" + (dir / out).string() + "' >/dev/null 2>&1").c_str()),
                0);
        }
    }
}

// A CSV recording on a full disk: the file is cut back to its last complete line, so that it reads
// as a prefix of the whole recording, and the error names it and says what it keeps (it once
// ended in the middle of a line).
TEST(RunFaultsCli, AFullDiskWhileWritingCsvLeavesWholeLines) {
    if (!have_program("prlimit")) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    const auto dir = work_dir("full_disk_csv");
    write_network(dir / "net.json");
    const auto whole = run_volley_in(dir, "run net.json --duration 200 --threads 1 --quiet --out whole.csv");
    ASSERT_EQ(whole.code, 0) << whole.err;
    const auto expected = vs::read_spike_csv(dir / "whole.csv");
    const auto whole_size = std::filesystem::file_size(dir / "whole.csv");
    for (const std::uintmax_t limit : {std::uintmax_t{300}, whole_size / 3 + 7}) {  // stderr.txt is under the limit too
        const std::string cmd = "cd '" + dir.string() + "' && prlimit --fsize=" + std::to_string(limit) + " '" VOLLEY_CLI
                                "' run net.json --duration 200 --threads 1 --quiet --out cut.csv >stdout.txt 2>stderr.txt </dev/null";
        const int status = std::system(cmd.c_str());
        ASSERT_TRUE(WIFEXITED(status)) << "limit " << limit << ": the run died instead of failing";
        EXPECT_EQ(WEXITSTATUS(status), 2) << "limit " << limit;
        const auto err = volley::testing::read_text_file(dir / "stderr.txt");
        EXPECT_NE(err.find("cut.csv"), std::string::npos) << err;
        EXPECT_NE(err.find("complete lines"), std::string::npos) << err;
        const auto text = volley::testing::read_text_file(dir / "cut.csv");
        EXPECT_LE(text.size(), limit);
        if (text.empty()) continue;  // not even the header fitted
        EXPECT_EQ(text.back(), '\n') << "limit " << limit;
        std::vector<vs::population_spikes> got;
        ASSERT_NO_THROW(got = vs::read_spike_csv(dir / "cut.csv")) << "limit " << limit;
        std::vector<vs::population_spikes> got_in_order;
        for (const auto& p : expected) {  // populations absent from the cut file are empty prefixes
            auto it = std::find_if(got.begin(), got.end(), [&](const auto& g) { return g.population == p.population; });
            got_in_order.push_back(it != got.end() ? *it : vs::population_spikes{p.population, {}, {}});
        }
        EXPECT_GT(expect_prefix(got_in_order, expected), 0u) << "limit " << limit;
    }
}

// The DANNA grid's cycle monitor (`volley danna run --monitor`) is built in memory and written
// whole: a file-size limit is exit 2 naming the file and its bytes, and a monitor file there
// before is kept as it was (it was written in place by libhdf5, which crashes on a full disk).
TEST(RunFaultsCli, AMonitorThatDoesNotFitKeepsThePreviousFile) {
    if (!have_program("prlimit")) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    const auto dir = work_dir("full_disk_monitor");
    std::ofstream(dir / "none.csv") << "node_id,cycle,value\n";
    const std::string programme = std::string(VOLLEY_SOURCE_DIR) + "/tests/fuzz/corpus/danna_programme/benchmark_tiny.json";
    const std::string run = "danna run '" + programme + "' --inputs none.csv --cycles 200 --monitor m.h5";
    const auto first = run_volley_in(dir, run);
    ASSERT_EQ(first.code, 0) << first.err;
    const auto before = volley::testing::read_text_file(dir / "m.h5");
    ASSERT_GT(before.size(), 20000u);
    const int status = std::system(("cd '" + dir.string() + "' && prlimit --fsize=20000 '" VOLLEY_CLI "' " + run +
                                    " >stdout.txt 2>stderr.txt </dev/null")
                                       .c_str());
    ASSERT_TRUE(WIFEXITED(status)) << "the run died instead of failing";
    EXPECT_EQ(WEXITSTATUS(status), 2);
    const auto err = volley::testing::read_text_file(dir / "stderr.txt");
    EXPECT_NE(err.find("m.h5: cannot write its"), std::string::npos) << err;
    EXPECT_EQ(volley::testing::read_text_file(dir / "m.h5"), before);
    EXPECT_FALSE(std::filesystem::exists(dir / "m.h5.tmp"));
}

// A checkpoint that does not fit (a full disk, a file-size limit) is an error naming it, exit 2:
// HDF5 never writes past the room reserved for it, so nothing crashes (it once died with SIGSEGV
// in HDF5's close at exit), the temporary file goes, and the checkpoint there before stays.
TEST(RunFaultsCli, ACheckpointThatDoesNotFitKeepsThePreviousOneAndExitsCleanly) {
    if (!have_program("prlimit")) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    const auto dir = work_dir("full_checkpoint");
    write_network(dir / "net.json");
    const auto first = run_volley_in(dir, "run net.json --duration 100 --threads 1 --quiet --checkpoint ck.h5");
    ASSERT_EQ(first.code, 0) << first.err;
    const auto before = volley::testing::read_text_file(dir / "ck.h5");
    const auto size = std::filesystem::file_size(dir / "ck.h5");
    for (const std::uintmax_t limit : {std::uintmax_t{4096}, size / 2}) {
        const std::string cmd = "cd '" + dir.string() + "' && prlimit --fsize=" + std::to_string(limit) + " '" VOLLEY_CLI
                                "' run net.json --duration 200 --threads 1 --quiet --checkpoint ck.h5 --checkpoint-every 50"
                                " >stdout.txt 2>stderr.txt </dev/null";
        const int status = std::system(cmd.c_str());
        ASSERT_TRUE(WIFEXITED(status)) << "limit " << limit << ": the run died instead of failing";
        EXPECT_EQ(WEXITSTATUS(status), 2) << "limit " << limit;
        const auto err = volley::testing::read_text_file(dir / "stderr.txt");
        EXPECT_NE(err.find("ck.h5: no room to write the checkpoint"), std::string::npos) << err;
        EXPECT_FALSE(std::filesystem::exists(dir / "ck.h5.tmp")) << "limit " << limit;
        EXPECT_EQ(volley::testing::read_text_file(dir / "ck.h5"), before) << "limit " << limit;
    }
    const auto resumed = run_volley_in(dir, "run net.json --resume ck.h5 --duration 10 --threads 1 --quiet");
    EXPECT_EQ(resumed.code, 0) << resumed.err;
}

// The state reports are added to the closed spike file at the end of the run: a disk that fills
// then stops the reports, and leaves every spike and the rows written so far.
TEST(RunFaultsCli, AFullDiskWhileAddingStateReportsKeepsEverySpike) {
    if (!have_program("prlimit")) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    const auto dir = work_dir("full_disk_reports");
    write_network(dir / "net.json");
    const std::string run = "run net.json --duration 1000 --threads 1 --quiet --out ";
    ASSERT_EQ(run_volley_in(dir, run + "spikes.h5").code, 0);
    ASSERT_EQ(run_volley_in(dir, run + "whole.h5 --state exc:v_mv:1").code, 0);
    const auto limit = (std::filesystem::file_size(dir / "spikes.h5") +
                        std::filesystem::file_size(dir / "whole.h5")) /
                       2;
    const std::string cmd = "cd '" + dir.string() +
                            "' && prlimit --fsize=" + std::to_string(limit) + " '" VOLLEY_CLI "' " +
                            run + "cut.h5 --state exc:v_mv:1 >stdout.txt 2>stderr.txt </dev/null";
    expect_exit_2_with_every_spike(cmd, dir);
    std::vector<vs::population_report> reports, all = vs::read_sonata_report(dir / "whole.h5");
    ASSERT_NO_THROW(reports = vs::read_sonata_report(dir / "cut.h5"));
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_GT(reports[0].data.size(), 0u);
    EXPECT_LT(reports[0].data.size(), all[0].data.size());
    EXPECT_TRUE(std::equal(reports[0].data.begin(), reports[0].data.end(), all[0].data.begin()));
}

// The final weights of plastic projections are added to the closed spike file at the end of the
// run (/weights): a disk that fills then is an error naming the file, and every spike stays.
TEST(RunFaultsCli, AFullDiskWhileAddingPlasticWeightsKeepsEverySpike) {
    if (!have_program("prlimit")) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    const auto dir = work_dir("full_disk_weights");
    vs::network net;
    const auto in = net.add_population("in", 2000, vs::poisson_source{{.rate_hz = 50}});
    const auto exc = net.add_population("exc", 500, vs::lif_exp{});
    net.connect(in, exc, vs::fixed_probability{0.05}, {.weight = 0.5, .delay_ms = 1.0, .plasticity = vs::stdp_pair{}});
    vs::save_network_json(net, dir / "net.json", {.dt_ms = 0.1, .duration_ms = 100, .seed = 3});
    const std::string run = "run net.json --threads 1 --quiet --out ";
    ASSERT_EQ(run_volley_in(dir, run + "whole.h5").code, 0);
    const auto limit = std::filesystem::file_size(dir / "whole.h5") / 3;  // the spikes fit, the weights do not
    const std::string cmd = "cd '" + dir.string() + "' && prlimit --fsize=" + std::to_string(limit) + " '" VOLLEY_CLI "' " +
                            run + "cut.h5 >stdout.txt 2>stderr.txt </dev/null";
    expect_exit_2_with_every_spike(cmd, dir);
}

// The trainer's model files (tf.keras and Volley HDF5) are built in memory and written whole: a
// file that does not fit is an error naming it and its size, and a file there before is kept.
TEST(RunFaultsCli, AModelFileThatDoesNotFitKeepsThePreviousFile) {
    if (!have_program("prlimit")) GTEST_SKIP() << "prlimit (util-linux) is not installed";
    if (!std::filesystem::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
        GTEST_SKIP() << "Fashion-MNIST is not installed (scripts/setup installs it)";
    const auto dir = work_dir("full_disk_model");
    for (const std::string format : {"keras", "volley"}) {
        SCOPED_TRACE(format);
        std::ofstream(dir / "m.h5") << "a file that was there before";
        const std::string cmd = "cd '" + dir.string() + "' && prlimit --fsize=20000 '" VOLLEY_CLI
                                "' train --model tiny --epochs 1 --train-images 300 --threads 1 --quiet --format " +
                                format + " --out m.h5 >stdout.txt 2>stderr.txt </dev/null";
        const int status = std::system(cmd.c_str());
        ASSERT_TRUE(WIFEXITED(status)) << "the trainer died instead of failing";
        EXPECT_EQ(WEXITSTATUS(status), 2);
        const auto err = volley::testing::read_text_file(dir / "stderr.txt");
        EXPECT_NE(err.find("m.h5: cannot write its"), std::string::npos) << err;
        EXPECT_EQ(volley::testing::read_text_file(dir / "m.h5"), "a file that was there before");
        EXPECT_FALSE(std::filesystem::exists(dir / "m.h5.tmp"));
    }
}

TEST(RunFaultsCli, BadFlushIntervalsAreErrorsNamingTheOption) {
    const auto dir = work_dir("flush_option");
    write_network(dir / "net.json", 10);
    for (const std::string args : {"--flush-every -1 --out a.h5", "--flush-every nan --out a.h5",
                                   "--flush-every 1", "--flush-every 1 --out a.csv"}) {
        const auto r = run_volley_in(dir, "run net.json --duration 1 --quiet " + args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_NE(r.err.find("--flush-every"), std::string::npos) << args << ": " << r.err;
    }
}

/// Starts `volley ARGS...` in `dir` as a child process; returns its pid.
pid_t spawn_volley(const std::filesystem::path& dir, std::vector<std::string> args) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::chdir(dir.c_str()) != 0) ::_exit(127);
        std::vector<char*> argv{const_cast<char*>(VOLLEY_CLI)};
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        std::freopen("/dev/null", "w", stdout);
        ::execv(VOLLEY_CLI, argv.data());
        ::_exit(127);
    }
    return pid;
}

/// Waits until `file` holds at least `bytes` (at most 30 s), then `then_ms` more, and kills
/// `pid` with SIGKILL.
void kill_when_written(pid_t pid, const std::filesystem::path& file, std::uintmax_t bytes,
                       int then_ms) {
    std::error_code ec;
    for (int i = 0; i < 3000; ++i) {
        const auto size = std::filesystem::file_size(file, ec);
        if (!ec && size >= bytes) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(then_ms));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the run ended before it was killed";
}

TEST(RunFaultsCli, AKilledRunLeavesAReadableFileUpToItsLastFlush) {
    const auto dir = work_dir("killed");
    write_network(dir / "net.json", 500);
    const pid_t pid = spawn_volley(dir, {"run", "net.json", "--duration", "1e7", "--threads", "1",
                                         "--quiet", "--flush-every", "0.05", "--out", "killed.h5"});
    // 1 MiB: well past the layout and the space reserved with it, so flushes with spikes
    // have happened (one every 50 ms of wall-clock time).
    kill_when_written(pid, dir / "killed.h5", 1u << 20, 200);
    std::vector<vs::population_spikes> got;
    ASSERT_NO_THROW(got = vs::read_sonata_spikes(dir / "killed.h5"));
    ASSERT_EQ(got.size(), 2u);
    double last_ms = 0;
    for (const auto& p : got)
        if (!p.timestamps_ms.empty()) last_ms = std::max(last_ms, p.timestamps_ms.back());
    ASSERT_GT(last_ms, 0) << "no spikes flushed";
    auto whole = run_volley_in(dir, "run net.json --threads 1 --quiet --out whole.h5 --duration " +
                                        std::to_string(last_ms + 1));
    ASSERT_EQ(whole.code, 0) << whole.err;
    EXPECT_GT(expect_prefix(got, vs::read_sonata_spikes(dir / "whole.h5")), 100u);
}

/// (population, node, time) of every spike after `after_ms`, sorted.
std::vector<std::tuple<std::string, std::uint64_t, double>> spikes_after(
    const std::filesystem::path& csv, double after_ms) {
    std::vector<std::tuple<std::string, std::uint64_t, double>> out;
    for (const auto& p : vs::read_spike_csv(csv))
        for (std::size_t i = 0; i < p.node_ids.size(); ++i)
            if (p.timestamps_ms[i] > after_ms + 1e-9)
                out.emplace_back(p.population, p.node_ids[i], p.timestamps_ms[i]);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(RunFaultsCli, AKilledRunResumesFromItsLastPeriodicCheckpoint) {
    const auto dir = work_dir("resume");
    write_network(dir / "net.json", 500);
    const pid_t pid =
        spawn_volley(dir, {"run", "net.json", "--duration", "1e7", "--threads", "1", "--quiet",
                           "--checkpoint", "state.h5", "--checkpoint-every", "20"});
    kill_when_written(pid, dir / "state.h5", 1, 300);  // a first checkpoint is complete, then more
    auto rest = run_volley_in(
        dir,
        "run net.json --resume state.h5 --duration 50 --threads 1 --quiet --json --out rest.csv");
    ASSERT_EQ(rest.code, 0) << rest.err;
    const double start_ms = rest.json()["start_ms"].get<double>();
    EXPECT_GT(start_ms, 0);
    auto whole = run_volley_in(dir, "run net.json --threads 1 --quiet --out whole.csv --duration " +
                                        std::to_string(start_ms + 50));
    ASSERT_EQ(whole.code, 0) << whole.err;
    const auto expected = spikes_after(dir / "whole.csv", start_ms);
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(spikes_after(dir / "rest.csv", 0), expected);
}

}  // namespace
