// Analysis SVG plots: well-formed files with one bar per non-empty bin, one square cell per
// matrix entry (block means past 200 trains), labelled axes, and typed errors.

#include <volley/error.hpp>
#include <volley/snn/analysis/plots.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace va = volley::snn::analysis;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
    return n;
}

class analysis_plots : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("volley_analysis_plots_" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

}  // namespace

TEST_F(analysis_plots, isi_histogram_draws_one_bar_per_non_empty_bin_and_labels_the_axes) {
    const std::vector<double> isis{1.0, 1.5, 4.2, 9.9};  // bins of 2 ms: [0,2) x2, [4,6), [8,10)
    va::write_isi_histogram_svg(dir_ / "isi.svg", isis, 2.0, "ISIs <&>");
    const auto svg = slurp(dir_ / "isi.svg");
    EXPECT_EQ(count(svg, "fill=\"#0072B2\""), 3u);
    EXPECT_NE(svg.find("inter-spike interval [ms]"), std::string::npos);
    EXPECT_NE(svg.find("ISIs &lt;&amp;&gt;"), std::string::npos);
    EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST_F(analysis_plots, heat_map_has_one_cell_per_entry_and_grey_nan_cells) {
    const std::vector<double> m{0.0, 0.5, std::nan(""), 0.0};
    va::write_heat_map_svg(dir_ / "m.svg", m, "distances", "SPIKE");
    const auto svg = slurp(dir_ / "m.svg");
    EXPECT_EQ(count(svg, "fill=\"#BBBBBB\""), 2u);  // the NaN cell and its legend
    EXPECT_NE(svg.find(">undefined<"), std::string::npos);
    EXPECT_EQ(count(svg, "fill=\"#440154\""), 2u);  // the minimum, viridis' first colour
    EXPECT_EQ(count(svg, "fill=\"#FDE725\""), 1u);  // the maximum, its last
    // Square cells: the map is as wide as it is high (406 px, two cells of 203).
    EXPECT_EQ(count(svg, "width=\"203.00\" height=\"203.00\""), 4u);
}

TEST_F(analysis_plots, heat_map_of_many_trains_shows_block_means) {
    // 201 trains: 101 x 101 cells of 2 x 2 entries (the last row and column of cells hold
    // one). Block (0, 0) holds NaN, 3, 1, 1: mean 5/3 over its finite entries, the only cell
    // above 1, so the maximum colour; every other cell is 1, the minimum.
    const std::size_t n = 201;
    std::vector<double> m(n * n, 1.0);
    m[0] = std::nan("");
    m[1] = 3.0;
    va::write_heat_map_svg(dir_ / "m.svg", m, "many", "d");
    const auto svg = slurp(dir_ / "m.svg");
    EXPECT_EQ(count(svg, "fill=\"#FDE725\""), 1u);
    EXPECT_EQ(count(svg, "fill=\"#440154\""), 101u * 101u - 1u);
    EXPECT_EQ(count(svg, "fill=\"#BBBBBB\""), 0u);
    EXPECT_NE(svg.find("each cell: mean of 2 x 2 entries"), std::string::npos);
}

TEST_F(analysis_plots, a_correlogram_axis_has_at_least_four_ticks) {
    // Lags +-100 ms: Heckbert's loose ticks alone give only -100, 0, 100.
    va::correlogram c{5.0, 20, std::vector<double>(41, 1.0)};
    va::write_correlogram_svg(dir_ / "c.svg", c, "cc");
    const auto svg = slurp(dir_ / "c.svg");
    for (const char* label : {">-100<", ">-50<", ">0<", ">50<", ">100<"})
        EXPECT_NE(svg.find(label), std::string::npos) << label;
}

TEST_F(analysis_plots, psth_and_correlogram_use_time_and_lag_axes) {
    va::time_histogram h{0, 10, {1, 2, 0}, {10, 20, 0}};
    va::write_psth_svg(dir_ / "psth.svg", h, "psth");
    EXPECT_NE(slurp(dir_ / "psth.svg").find("rate [Hz]"), std::string::npos);
    va::correlogram c{1.0, 2, {0, 1, 5, 1, 0}};
    va::write_correlogram_svg(dir_ / "c.svg", c, "cc");
    const auto svg = slurp(dir_ / "c.svg");
    EXPECT_NE(svg.find("lag [ms]"), std::string::npos);
    EXPECT_EQ(count(svg, "fill=\"#0072B2\""), 3u);
}

TEST_F(analysis_plots, bad_input_is_a_typed_error_and_unwritable_files_an_io_error) {
    EXPECT_THROW(va::write_isi_histogram_svg(dir_ / "x.svg", std::vector<double>{}, 1.0, "t"),
                 volley::invalid_parameter);
    EXPECT_THROW(va::write_heat_map_svg(dir_ / "x.svg", std::vector<double>{1, 2, 3}, "t", "v"),
                 volley::invalid_parameter);
    EXPECT_THROW(va::write_bar_chart_svg(dir_ / "x.svg", {"t", "x", "y", 0, 1, {1.0, INFINITY}}),
                 volley::invalid_parameter);
    EXPECT_THROW(va::write_psth_svg(dir_ / "no" / "such" / "dir.svg", {0, 1, {1}, {1}}, "t"),
                 volley::io_error);
}
