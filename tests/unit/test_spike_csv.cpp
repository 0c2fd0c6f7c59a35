// Spike CSV: exact text layout, exact round trip of doubles, quoting, and typed errors.

#include <volley/error.hpp>
#include <volley/snn/spike_csv.hpp>

#include "io_test_dir.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>

namespace vs = volley::snn;

namespace {

using spike_csv_test = volley::test::io_test;

std::string slurp(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_F(spike_csv_test, writes_header_and_one_line_per_spike) {
    const auto file = dir / "spikes.csv";
    std::vector<vs::population_spikes> pops{{"exc", {3, 1}, {0.5, 12.25}}, {"inh", {0}, {7.0}}};
    vs::write_spike_csv(file, pops);
    EXPECT_EQ(slurp(file), "population,node_id,time_ms\nexc,3,0.5\nexc,1,12.25\ninh,0,7\n");
}

TEST_F(spike_csv_test, round_trip_is_exact_for_awkward_doubles_and_names) {
    const auto file = dir / "exact.csv";
    std::vector<vs::population_spikes> pops{
        {"exc",
         {0, 1, 2, 3, 4},
         {0.1 + 0.2, 1e-300, std::numeric_limits<double>::denorm_min(), 123456.789, 1.0 / 3.0}},
        {"odd, \"quoted\" name", {std::numeric_limits<std::uint64_t>::max()}, {-2.5}},
        {"empty", {}, {}}};
    vs::write_spike_csv(file, pops);
    auto back = vs::read_spike_csv(file);
    ASSERT_EQ(back.size(), 2u);  // a population without spikes leaves no line
    EXPECT_EQ(back[0].population, "exc");
    EXPECT_EQ(back[0].node_ids, pops[0].node_ids);
    EXPECT_EQ(back[0].timestamps_ms, pops[0].timestamps_ms);
    EXPECT_EQ(back[1].population, pops[1].population);
    EXPECT_EQ(back[1].node_ids, pops[1].node_ids);
    EXPECT_EQ(back[1].timestamps_ms, pops[1].timestamps_ms);
}

TEST_F(spike_csv_test, bad_header_and_bad_values_name_the_line) {
    const auto file = dir / "bad.csv";
    std::ofstream(file) << "pop,id,t\n";
    try {
        vs::read_spike_csv(file);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "line 1");
        EXPECT_EQ(e.file(), file.string());
    }
    std::ofstream(file) << "population,node_id,time_ms\nexc,1,0.5\nexc,x,1.0\n";
    try {
        vs::read_spike_csv(file);
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "line 3");
        EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos);
    }
    std::ofstream(file) << "population,node_id,time_ms\nexc,1\n";
    EXPECT_THROW(vs::read_spike_csv(file), volley::file_format_error);
}

TEST_F(spike_csv_test, unwritable_and_missing_files_are_io_errors) {
    std::vector<vs::population_spikes> pops{{"exc", {1}, {1.0}}};
    EXPECT_THROW(vs::write_spike_csv(dir / "no_dir" / "x.csv", pops), volley::io_error);
    EXPECT_THROW(vs::read_spike_csv(dir / "missing.csv"), volley::io_error);
    std::vector<vs::population_spikes> uneven{{"exc", {1, 2}, {1.0}}};
    EXPECT_THROW(vs::write_spike_csv(dir / "uneven.csv", uneven), volley::invalid_parameter);
}
