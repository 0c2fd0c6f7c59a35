// `volley analyse REC.h5`: measures of a small SONATA file with known answers (regular and
// identical trains), JSON and text output, SVG plots, and errors that exit 2 naming the file,
// population, option and value.

#include <volley/snn/sonata_spikes.hpp>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

using result = volley::testing::cli_result;
using volley::testing::read_text_file;

class AnalyseCli : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("volley_analyse_cli_" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        // exc: nodes 0 and 1 fire together every 10 ms from 5 ms (100 spikes each before 1000 ms),
        // node 2 every 20 ms from 5 ms; written interleaved, out of node order. inh: no spikes.
        volley::snn::sonata_spike_writer w(dir_ / "rec.h5");
        const auto exc = w.add_population("exc");
        w.add_population("inh");
        std::vector<std::uint64_t> ids;
        std::vector<double> times;
        for (int k = 0; k < 100; ++k) {
            const double t = 5.0 + 10.0 * k;
            for (std::uint64_t n : {1u, 0u}) ids.push_back(n), times.push_back(t);
            if (k % 2 == 0) ids.push_back(2), times.push_back(t);
        }
        w.append(exc, ids, times);
        w.close();
    }
    void TearDown() override { fs::remove_all(dir_); }

    result volley(const std::string& args) { return volley::testing::run_volley_in(dir_, args); }

    fs::path dir_;
};

}  // namespace

TEST_F(AnalyseCli, json_reports_rates_cv_chi_and_distances_of_regular_trains) {
    const auto r = volley(
        "analyse rec.h5 --population exc --window 0:1000 --json "
        "--measures rates,cv,lv,fano,chi,spike-distance,van-rossum,spike-sync");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.at("populations").size(), 1u);
    const auto& p = j.at("populations").at(0);
    EXPECT_EQ(p.at("population"), "exc");
    EXPECT_EQ(p.at("neurons"), 3);
    EXPECT_EQ(p.at("spikes"), 250);
    const auto rates = p.at("rates").at("values").get<std::vector<double>>();
    EXPECT_DOUBLE_EQ(rates[0], 100.0);
    EXPECT_DOUBLE_EQ(rates[1], 100.0);
    EXPECT_DOUBLE_EQ(rates[2], 50.0);
    EXPECT_NEAR(p.at("cv").at("mean").get<double>(), 0.0, 1e-12);
    EXPECT_NEAR(p.at("lv").at("mean").get<double>(), 0.0, 1e-12);
    EXPECT_NEAR(p.at("fano").at("mean").get<double>(), 0.0, 1e-12);  // 10 (or 5) spikes per 100 ms
    // Nodes 0 and 1 are identical: zero distance, full synchrony.
    const auto& sd = p.at("spike-distance").at("matrix");
    EXPECT_EQ(sd.at(1).get<double>(), 0.0);
    EXPECT_GT(sd.at(2).get<double>(), 0.0);
    EXPECT_EQ(p.at("van-rossum").at("matrix").at(1).get<double>(), 0.0);
    EXPECT_EQ(p.at("spike-sync").at("matrix").at(1).get<double>(), 1.0);
    EXPECT_GT(p.at("chi").get<double>(), 0.5);
}

TEST_F(AnalyseCli, text_output_names_each_population_and_plots_are_svg_files) {
    const auto r = volley(
        "analyse rec.h5 --window 0:1000 --measures rates,isi,psth,correlogram,spike-distance "
        "--plot plots");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("population 'exc': 3 neurons, 250 spikes"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("population 'inh': no spikes, skipped"), std::string::npos) << r.out;
    for (const char* name :
         {"exc_isi.svg", "exc_psth.svg", "exc_correlogram.svg", "exc_spike-distance.svg"}) {
        const auto svg = read_text_file(dir_ / "plots" / name);
        EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << name;
        EXPECT_NE(svg.find("</svg>"), std::string::npos) << name;
    }
}

TEST_F(AnalyseCli, bad_options_and_empty_populations_exit_2_naming_the_value) {
    auto r = volley("analyse rec.h5 --measures rates,burstiness");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--measures = burstiness"), std::string::npos) << r.err;
    r = volley("analyse rec.h5 --window 5:1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--window = 5:1"), std::string::npos) << r.err;
    r = volley("analyse rec.h5 --population nope");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown population 'nope'"), std::string::npos) << r.err;
    r = volley("analyse rec.h5 --population inh");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("rec.h5: population 'inh'"), std::string::npos) << r.err;
    r = volley("analyse rec.h5 --population inh --window 0:100 --measures chi");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("population 'inh'"), std::string::npos) << r.err;
    r = volley("analyse missing.h5");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("missing.h5"), std::string::npos) << r.err;
}

// Measures that cannot be had say why: a window shorter than two counting windows has no Fano
// factor (not "0 neurons with spikes"), and a neuron with 8 spikes at one time is counted as
// such, not as one with fewer than 3 spikes.
TEST_F(AnalyseCli, UndefinedMeasuresSayWhy) {
    const auto r = volley("analyse rec.h5 --population exc --window 0:150 --measures fano,cv");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("fano            n/a: the window (150 ms) holds fewer than two counting windows of 100 ms"),
              std::string::npos)
        << r.out;
    const auto j = volley("analyse rec.h5 --population exc --window 0:150 --measures fano --json");
    ASSERT_EQ(j.code, 0) << j.err;
    const auto report = nlohmann::json::parse(j.out);
    const auto& fano = report.at("populations").at(0).at("fano");
    EXPECT_TRUE(fano.at("mean").is_null());
    EXPECT_NE(fano.at("undefined").get<std::string>().find("--fano-window"), std::string::npos);

    volley::snn::sonata_spike_writer w(dir_ / "burst.h5");
    const auto p = w.add_population("p");
    // Node 1 fires every 5 ms from 10 ms; node 0 eight times at 12.5 ms. In time order.
    std::vector<std::uint64_t> ids{1};
    std::vector<double> times{10.0};
    for (int k = 0; k < 8; ++k) ids.push_back(0), times.push_back(12.5);
    for (int k = 1; k < 4; ++k) ids.push_back(1), times.push_back(10.0 + 5.0 * k);
    w.append(p, ids, times);
    w.close();
    const auto b = volley("analyse burst.h5 --window 0:40 --measures cv");
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_NE(b.out.find("over 1 neurons with >= 3 spikes; 1 more with >= 3 spikes all at one time (undefined)"),
              std::string::npos)
        << b.out;
}
