// `mpirun -np N volley bench cuba`, `volley run NET.json` and `volley evolve` on N ranks
// (docs/mpi.md): the figures and the SONATA file written by rank 0 equal those of one process
// (spike checksum, counts, every spike of the file; the evolved population); an option that
// several ranks cannot honour yet, or a bad file, ends every rank with the error instead of a
// hang.

#include "../support/cli_runner.hpp"

#include <volley/convert/cnn_readers.hpp>
#include <volley/snn/network_json.hpp>

#include <nlohmann/json.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <tuple>
#include <utility>

namespace {

namespace vs = volley::snn;
using volley::testing::cli_result;
using volley::testing::read_text_file;

std::filesystem::path work_dir(const std::string& name) {
    const auto d = std::filesystem::temp_directory_path() / ("volley_mpi_cli_" + std::to_string(::getpid())) / name;
    std::filesystem::create_directories(d);
    return d;
}

/// `mpiexec -n RANKS volley ARGS` in `dir`, one OpenMP thread per rank unless ARGS say more.
cli_result mpirun(int ranks, const std::filesystem::path& dir, const std::string& args) {
    const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
    // Under ASan, OpenMPI's own allocations in MPI_Init are not reported as Volley's leaks
    // (tests/data/sanitizers/lsan_mpi.supp); other builds ignore LSAN_OPTIONS.
    const std::string cmd = "cd '" + dir.string() +
                            "' && OMP_NUM_THREADS=1 LSAN_OPTIONS=suppressions='" VOLLEY_TEST_DATA_DIR
                            "/sanitizers/lsan_mpi.supp':fast_unwind_on_malloc=0 timeout 300 '" VOLLEY_MPIEXEC "' -n " +
                            std::to_string(ranks) + " --oversubscribe --allow-run-as-root '" VOLLEY_CLI "' " + args +
                            " >'" + out.string() + "' 2>'" + err.string() + "' </dev/null";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text_file(out), read_text_file(err)};
}

/// (population, node, time) of every spike in a SONATA file, sorted.
std::vector<std::tuple<std::string, std::uint64_t, double>> spikes_of(const std::filesystem::path& file) {
    std::vector<std::tuple<std::string, std::uint64_t, double>> out;
    for (const auto& p : vs::read_sonata_spikes(file))
        for (std::size_t i = 0; i < p.node_ids.size(); ++i) out.emplace_back(p.population, p.node_ids[i], p.timestamps_ms[i]);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(mpi_cli, bench_cuba_on_ranks_reports_and_writes_what_one_process_does) {
    const auto dir = work_dir("bench");
    const std::string args = "bench cuba --neurons 4000 --duration 200 --json --quiet";
    const auto one = mpirun(1, dir, args + " --out one.h5");
    ASSERT_EQ(one.code, 0) << one.err;
    for (const int ranks : {2, 3}) {
        const auto many = mpirun(ranks, dir, args + " --out many.h5");
        ASSERT_EQ(many.code, 0) << many.err;
        const auto a = one.json(), b = many.json();  // only rank 0 prints
        EXPECT_EQ(b["ranks"], ranks);
        for (const char* key : {"spike_checksum", "spikes", "synapses", "synaptic_events", "neurons"})
            EXPECT_EQ(a[key], b[key]) << key << " on " << ranks << " ranks";
        const auto expected = spikes_of(dir / "one.h5");
        ASSERT_GT(expected.size(), 1000u);
        EXPECT_TRUE(spikes_of(dir / "many.h5") == expected) << "the SONATA file of " << ranks << " ranks differs";
    }
}

// hpc_benchmark (reduced in-degree): plastic E -> E synapses with the power-law rule, fixed
// in-degree with multapses and a Poisson drive above 1/dt, the same raster on 1, 2 and 3 ranks.
/// Runs `args` on 1 rank, then on 2 and 3, and expects each of `keys` of the JSON figures to be
/// the same; returns the one-rank run.
cli_result expect_same_figures_on_ranks(const std::filesystem::path& dir, const std::string& args,
                                        std::initializer_list<const char*> keys) {
    const auto one = mpirun(1, dir, args);
    EXPECT_EQ(one.code, 0) << one.err;
    if (one.code != 0) return one;
    EXPECT_GT(one.json()["spikes"].get<double>(), 1000);
    for (const int ranks : {2, 3}) {
        const auto many = mpirun(ranks, dir, args);
        EXPECT_EQ(many.code, 0) << many.err;
        if (many.code != 0) continue;
        for (const char* key : keys) EXPECT_EQ(one.json()[key], many.json()[key]) << key << " on " << ranks << " ranks";
        EXPECT_GE(many.json()["exchange_s"].get<double>(), 0.0);
    }
    return one;
}

TEST(mpi_cli, bench_hpc_on_ranks_matches_one_process) {
    const auto dir = work_dir("hpc");
    const std::string args = "bench hpc --scale 0.2 --in-degree-scale 0.02 --duration 60 --json --quiet";
    const auto one = expect_same_figures_on_ranks(dir, args, {"spike_checksum", "spikes", "synapses", "synaptic_events"});
    ASSERT_EQ(one.code, 0);
    // Counting only (no recording to gather): every rank's counts summed.
    const auto counted = mpirun(2, dir, args + " --count-only");
    ASSERT_EQ(counted.code, 0) << counted.err;
    for (const char* key : {"spikes", "synaptic_events", "mean_rate_hz"}) EXPECT_EQ(one.json()[key], counted.json()[key]) << key;
    EXPECT_FALSE(counted.json().contains("spike_checksum"));
}

// The microcircuit (reduced): fixed_total_number, whose in-degrees are one chain of binomials
// per projection that every rank must draw alike, redrawn normal weights and delays, and a
// drive that each rank draws for its own neurons and that is counted but not recorded: the same
// raster and rates on 1, 2 and 3 ranks.
TEST(mpi_cli, bench_microcircuit_on_ranks_matches_one_process) {
    expect_same_figures_on_ranks(work_dir("microcircuit"),
                                 "bench microcircuit --scale 0.02 --duration 100 --transient 50 --json --quiet",
                                 {"spike_checksum", "spikes", "synapses", "synaptic_events", "microcircuit_rates"});
}

TEST(mpi_cli, run_of_a_network_file_with_two_threads_per_rank_matches_one_process) {
    const auto dir = work_dir("run");
    vs::save_network_json(vs::cuba_network(2000), dir / "net.json", {.dt_ms = 0.1, .duration_ms = 100, .seed = 7});
    const auto one = volley::testing::run_volley_in(dir, "run net.json --json --quiet --out one.csv");
    ASSERT_EQ(one.code, 0) << one.err;
    const auto many = mpirun(2, dir, "run net.json --threads 2 --json --quiet --out many.csv");
    ASSERT_EQ(many.code, 0) << many.err;
    EXPECT_EQ(one.json()["spike_checksum"], many.json()["spike_checksum"]);
    EXPECT_EQ(read_text_file(dir / "one.csv"), read_text_file(dir / "many.csv"));
}

// `mpirun -np N volley evolve`: the ranks share each generation's evaluations; the evolved
// population, its fitness and the best network equal one process's, for 2 and 3 ranks and with
// 2 threads per rank.
TEST(mpi_cli, evolve_on_ranks_gives_the_population_of_one_process) {
    const auto dir = work_dir("evolve");
    const std::string args = "evolve --task order --generations 3 --population 24 --train-sequences 60 "
                             "--test-sequences 40 --quiet --json --checkpoint ";
    const auto one = volley::testing::run_volley_in(dir, args + "one_pop.json --out one.json --threads 1");
    ASSERT_EQ(one.code, 0) << one.err;
    auto state = [&](const std::string& file) {
        auto j = nlohmann::json::parse(read_text_file(dir / file));
        j.erase("history");  // it holds the wall-clock seconds of each generation
        return j;
    };
    const auto reference = state("one_pop.json");
    ASSERT_EQ(reference["population"].size(), 24u);
    for (const auto& [ranks, threads] : {std::pair{2, 1}, std::pair{3, 1}, std::pair{2, 2}}) {
        const auto tag = std::to_string(ranks) + "x" + std::to_string(threads);
        const auto many = mpirun(ranks, dir, args + tag + "_pop.json --out " + tag + ".json --threads " +
                                                 std::to_string(threads));
        ASSERT_EQ(many.code, 0) << many.err;
        EXPECT_EQ(many.json()["ranks"], ranks);
        auto scored = [](nlohmann::json j) {
            j.erase("sequences_per_s");  // a speed
            return j;
        };
        EXPECT_EQ(scored(many.json()["evolved"]), scored(one.json()["evolved"])) << tag;
        EXPECT_TRUE(state(tag + "_pop.json") == reference) << tag << ": the population differs";
        EXPECT_EQ(read_text_file(dir / (tag + ".json")), read_text_file(dir / "one.json")) << tag;
    }
}

// `mpirun -np N volley train --slices 4`: the ranks compute blocks of each batch's slices and
// exchange their gradients; the trained model (reference: BatchNorm, Dropout; LARS) and the
// figures equal one process's for 2 and 4 ranks.
TEST(mpi_cli, train_on_ranks_gives_the_weights_of_one_process) {
    const auto dir = work_dir("train");
    const std::string args = "train --model reference --optimizer lars --batch 128 --epochs 1 --train-images 512 "
                             "--slices 4 --format volley --json --quiet --warmup-epochs 0.5 --out ";
    const auto one = volley::testing::run_volley_in(dir, args + "one.h5 --threads 1");
    ASSERT_EQ(one.code, 0) << one.err;
    // Every kernel and bias as the file stores them (BatchNorm folded into the convolutions).
    const auto weights = [&](const std::string& file) {
        std::vector<float> all;
        for (const auto& n : volley::convert::read_volley_h5(dir / file).nodes)
            for (const auto* v : {&n.conv.kernel, &n.conv.bias, &n.dense.kernel, &n.dense.bias})
                all.insert(all.end(), v->begin(), v->end());
        return all;
    };
    const auto reference = weights("one.h5");
    ASSERT_GT(reference.size(), 100000u);
    for (const int ranks : {2, 4}) {
        const auto tag = std::to_string(ranks);
        const auto many = mpirun(ranks, dir, args + tag + ".h5 --threads 1");
        ASSERT_EQ(many.code, 0) << many.err;
        const auto a = one.json(), b = many.json();
        EXPECT_EQ(b["ranks"], ranks);
        EXPECT_EQ(b["slices"], 4);
        EXPECT_EQ(a["epochs"][0]["train_loss"], b["epochs"][0]["train_loss"]) << ranks << " ranks";
        EXPECT_EQ(a["test_accuracy"], b["test_accuracy"]) << ranks << " ranks";
        EXPECT_GT(b["exchange_s"].get<double>(), 0.0);
        EXPECT_TRUE(weights(tag + ".h5") == reference) << ranks << " ranks: the weights differ";
    }
}

TEST(mpi_cli, what_ranks_cannot_do_yet_and_bad_input_end_every_rank_with_the_error) {
    const auto dir = work_dir("errors");
    vs::save_network_json(vs::cuba_network(1000), dir / "net.json", {.dt_ms = 0.1, .duration_ms = 10, .seed = 1});
    const auto refused = mpirun(2, dir, "run net.json --checkpoint state.h5");
    EXPECT_NE(refused.code, 0);
    EXPECT_NE(refused.err.find("--checkpoint"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("2 MPI ranks"), std::string::npos) << refused.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "state.h5"));
    const auto missing = mpirun(2, dir, "run no_such.json");
    EXPECT_NE(missing.code, 0);
    EXPECT_NE(missing.err.find("no_such.json"), std::string::npos) << missing.err;
}

}  // namespace
