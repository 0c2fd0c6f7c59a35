// The library's recorded run (volley/snn/recorded_run.hpp) without the CLI: its SONATA and CSV
// outputs hold the spikes that an in-memory recorder of the same network and seed records, a
// run stopped by its observer leaves a valid prefix and a checkpoint from which the rest of the
// uninterrupted run follows, the state reports hold the recorder's samples, its recorders are
// stopped when it returns, and options that do not fit together are refused.

#include <gtest/gtest.h>

#include <volley/error.hpp>
#include <volley/snn/recorded_run.hpp>
#include <volley/snn/run_figures_json.hpp>
#include <volley/snn/sonata_report.hpp>
#include <volley/snn/sonata_spikes.hpp>
#include <volley/snn/spike_checksum.hpp>
#include <volley/snn/spike_csv.hpp>
#include <volley/snn/standard_networks.hpp>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io_test_dir.hpp"

namespace volley::snn {
namespace {

using test::io_test;

constexpr double dt_ms = 0.1;
constexpr std::uint64_t seed = 7;
const context one_thread{.threads = 1, .backend = backend_kind::cpu};

/// A (node_id, step) per spike of each population, by name.
using raster = std::map<std::string, std::vector<std::pair<std::uint64_t, std::int64_t>>>;

/// What a plain simulation with one spike recorder per population records over [0, t_ms).
raster in_memory_raster(const network& net, double t_ms) {
    simulation sim(net, one_thread, {.dt_ms = dt_ms, .seed = seed});
    std::vector<spike_recorder> recs;
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) recs.push_back(sim.record_spikes({p}));
    sim.run(t_ms);
    raster r;
    for (const auto& rec : recs) {
        auto& v = r[rec.data().population];
        for (std::size_t i = 0; i < rec.size(); ++i) v.emplace_back(rec.node_ids()[i], rec.steps()[i]);
    }
    return r;
}

raster file_raster(const std::vector<population_spikes>& pops) {
    raster r;
    for (const auto& p : pops) {
        auto& v = r[p.population];
        for (std::size_t i = 0; i < p.node_ids.size(); ++i)
            v.emplace_back(p.node_ids[i], std::llround(p.timestamps_ms[i] / dt_ms));
    }
    return r;
}

/// The spikes of `r` whose step lies in [from, to].
raster steps_between(const raster& r, std::int64_t from, std::int64_t to) {
    raster out;
    for (const auto& [name, spikes] : r) {
        auto& v = out[name];
        for (const auto& s : spikes)
            if (s.second >= from && s.second <= to) v.push_back(s);
    }
    return out;
}

std::size_t count(const raster& r) {
    std::size_t n = 0;
    for (const auto& [name, spikes] : r) n += spikes.size();
    return n;
}

class RecordedRun : public io_test {
protected:
    network net = cuba_network(400, dt_ms);
};

TEST_F(RecordedRun, SonataOutputHoldsTheSpikesOfAnInMemoryRecorder) {
    const auto out = dir / "spikes.h5";
    const auto f = run_recorded(net, one_thread, {.dt_ms = dt_ms, .seed = seed}, 100.0, {.out = out});
    const auto expected = in_memory_raster(net, 100.0);
    ASSERT_GT(count(expected), 100u) << "the network must fire for the comparison to mean anything";
    EXPECT_EQ(file_raster(read_sonata_spikes(out)), expected);
    EXPECT_TRUE(f.completed);
    EXPECT_DOUBLE_EQ(f.duration_ms, 100.0);
    EXPECT_EQ(f.spikes, count(expected));
    ASSERT_EQ(f.populations.size(), 2u);
    EXPECT_EQ(f.populations[0].spikes, expected.at(f.populations[0].name).size());
    EXPECT_EQ(f.output, out);
    const auto j = run_figures_json(f);
    EXPECT_EQ(j["output"], out.string());
    EXPECT_EQ(j["spikes"].get<std::uint64_t>(), f.spikes);
    EXPECT_EQ(j["spike_checksum"], *f.spike_checksum);
    EXPECT_FALSE(j.contains("resumed_from"));
}

TEST_F(RecordedRun, CsvOutputAndPlotHoldTheSameSpikes) {
    const auto out = dir / "spikes.csv", plot = dir / "raster.svg";
    const auto f = run_recorded(net, one_thread, {.dt_ms = dt_ms, .seed = seed}, 60.0,
                                {.out = out, .plot = plot, .plot_title = "cuba"});
    EXPECT_EQ(file_raster(read_spike_csv(out)), in_memory_raster(net, 60.0));
    std::ifstream svg(plot);
    const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("<svg"), std::string::npos);
    EXPECT_NE(text.find("cuba"), std::string::npos);
    EXPECT_EQ(f.plot, plot);
}

TEST_F(RecordedRun, StoppedRunKeepsAPrefixAndItsCheckpointResumesToTheUninterruptedSpikes) {
    const auto first = dir / "first.h5", rest = dir / "rest.h5", ck = dir / "ck.h5";
    std::atomic<bool> stop{false};
    double last_done = -1, total = 0;
    const run_observer observer{.progress =
                                    [&](double done_ms, double total_ms) {
                                        EXPECT_GE(done_ms, last_done);
                                        last_done = done_ms;
                                        total = total_ms;
                                        if (done_ms >= 40.0) stop.store(true);
                                    },
                                .stop = &stop};
    const auto stopped = run_recorded(net, one_thread, {.dt_ms = dt_ms, .seed = seed}, 100.0,
                                      {.out = first, .checkpoint = ck, .checkpoint_every_ms = 25.0}, observer);
    EXPECT_FALSE(stopped.completed);
    EXPECT_DOUBLE_EQ(total, 100.0);
    ASSERT_GE(stopped.duration_ms, 40.0);
    ASSERT_LT(stopped.duration_ms, 100.0);
    const auto stop_step = std::llround(stopped.duration_ms / dt_ms);
    const auto whole = in_memory_raster(net, 100.0);
    EXPECT_EQ(file_raster(read_sonata_spikes(first)), steps_between(whole, 0, stop_step));

    simulation sim(net, one_thread, {.dt_ms = dt_ms, .seed = seed});
    const auto resumed = run_recorded(sim, 100.0 - stopped.duration_ms, {.out = rest, .resume = ck});
    EXPECT_TRUE(resumed.completed);
    EXPECT_DOUBLE_EQ(resumed.start_ms, stopped.duration_ms);
    EXPECT_NEAR(sim.time_ms(), 100.0, 1e-9);
    EXPECT_EQ(file_raster(read_sonata_spikes(rest)), steps_between(whole, stop_step + 1, 1'000'000));
    EXPECT_EQ(stopped.spikes + resumed.spikes, count(whole));
    EXPECT_EQ(run_figures_json(resumed)["resumed_from"], ck.string());
}

TEST_F(RecordedRun, StateReportsHoldTheSamplesOfAnInMemoryRecorder) {
    const auto out = dir / "state.h5";
    run_recorded(net, one_thread, {.dt_ms = dt_ms, .seed = seed}, 20.0,
                 {.out = out, .states = {{"exc", "v_mv", 0.5}}});
    simulation sim(net, one_thread, {.dt_ms = dt_ms, .seed = seed});
    const auto v = sim.record_state(net.find("exc"), "v_mv", 0.5);
    sim.run(20.0);
    const auto reports = read_sonata_report(out);
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].population, "exc");
    EXPECT_EQ(reports[0].variable, "v_mv");
    EXPECT_EQ(reports[0].samples, v.samples());
    EXPECT_EQ(reports[0].data, v.data().values);
}

TEST_F(RecordedRun, EachRunCoversItsOwnSpanAndAStoppedRecorderRecordsNothingMore) {
    simulation sim(net, one_thread, {.dt_ms = dt_ms, .seed = seed});
    const std::vector<spike_recorder> mine{sim.record_spikes(net.find("exc")), sim.record_spikes(net.find("inh"))};
    run_recorded(sim, 30.0, {.out = dir / "a.h5"});
    const auto second = run_recorded(sim, 30.0, {});
    // The second run's checksum is that of the caller's recorders over (30, 60] ms only.
    std::vector<std::pair<std::uint32_t, std::int64_t>> pairs;
    for (const auto& r : mine)
        for (std::size_t i = 0; i < r.size(); ++i)
            if (r.steps()[i] > 300) pairs.emplace_back(r.data().first_neuron + r.node_ids()[i], r.steps()[i]);
    ASSERT_FALSE(pairs.empty());
    EXPECT_EQ(second.spikes, pairs.size());
    EXPECT_EQ(*second.spike_checksum, spike_checksum(pairs));
    EXPECT_DOUBLE_EQ(second.start_ms, 30.0);
    sim.stop_recording(mine[0]);
    const auto kept = mine[0].size(), other = mine[1].size();
    sim.run(20.0);
    EXPECT_EQ(mine[0].size(), kept) << "a stopped recorder records nothing more";
    EXPECT_GT(mine[1].size(), other) << "the other one still records";
}

TEST_F(RecordedRun, OptionsThatDoNotFitTogetherAreRefused) {
    simulation sim(net, one_thread, {.dt_ms = dt_ms, .seed = seed});
    EXPECT_THROW(run_recorded(sim, 10.0, {.out = dir / "x.h5", .count_only = true}), invalid_parameter);
    EXPECT_THROW(run_recorded(sim, 10.0, {.out = dir / "x.csv", .states = {{"exc", "v_mv", 1.0}}}), invalid_parameter);
    EXPECT_THROW(run_recorded(sim, 10.0, {.checkpoint_every_ms = 5.0}), invalid_parameter);
    EXPECT_THROW(run_recorded(sim, 10.0, {.out = dir / "x.h5", .states = {{"nobody", "v_mv", 1.0}}}), unknown_name);
    EXPECT_EQ(sim.time_ms(), 0.0) << "nothing ran";
    EXPECT_EQ(parse_state_request("exc:v_mv:0.5").interval_ms, 0.5);
    EXPECT_THROW(parse_state_request("exc"), invalid_parameter);
}

}  // namespace
}  // namespace volley::snn
