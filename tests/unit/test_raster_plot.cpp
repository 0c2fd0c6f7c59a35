// Raster SVG: well-formed XML, one mark per spike, legend names, subsampling note, errors.

#include <volley/error.hpp>
#include <volley/snn/plot_axis.hpp>
#include <volley/snn/raster_plot.hpp>

#include "io_test_dir.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace vs = volley::snn;

namespace {

using raster_plot_test = volley::test::io_test;

std::string slurp(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A small well-formedness check: every start tag is closed in order, attributes are quoted,
// and no raw '&' or '<' appears in text or attribute values.
::testing::AssertionResult well_formed(const std::string& xml) {
    std::vector<std::string> open;
    std::size_t i = 0;
    while ((i = xml.find_first_of("<&", i)) != std::string::npos) {
        if (xml[i] == '&') {
            bool known = false;
            for (const char* entity : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
                known = known || xml.compare(i, std::strlen(entity), entity) == 0;
            if (!known) return ::testing::AssertionFailure() << "bare '&' at offset " << i;
            ++i;
            continue;
        }
        if (xml.compare(i, 2, "<?") == 0) {
            i = xml.find("?>", i) + 2;
            continue;
        }
        std::size_t end = i + 1;
        char quote = 0;
        for (; end < xml.size(); ++end) {
            const char c = xml[end];
            if (quote) {
                if (c == quote)
                    quote = 0;
                else if (c == '<')
                    return ::testing::AssertionFailure() << "'<' in attribute";
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '>') {
                break;
            }
        }
        if (end == xml.size()) return ::testing::AssertionFailure() << "unterminated tag";
        std::string tag = xml.substr(i + 1, end - i - 1);
        if (tag.front() == '/') {
            if (open.empty() || open.back() != tag.substr(1))
                return ::testing::AssertionFailure() << "mismatched </" << tag.substr(1) << ">";
            open.pop_back();
        } else if (tag.back() != '/') {
            open.push_back(tag.substr(0, tag.find_first_of(" \n\t")));
        }
        i = end + 1;
    }
    if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> unclosed";
    return ::testing::AssertionSuccess();
}

// Counts the move-to commands ('M', one per spike tick) in the d attributes of the spike paths.
// (No std::regex on these long strings: libstdc++'s matcher recurses once per character.)
std::size_t spike_marks(const std::string& svg) {
    std::size_t marks = 0;
    for (std::size_t at = svg.find("<path class=\"spikes\""); at != std::string::npos;
         at = svg.find("<path class=\"spikes\"", at + 1)) {
        const std::size_t d = svg.find(" d=\"", at) + 4;
        const std::size_t end = svg.find('"', d);
        marks += static_cast<std::size_t>(std::count(svg.begin() + d, svg.begin() + end, 'M'));
    }
    return marks;
}

std::vector<vs::raster_population> two_populations(std::size_t spikes_each) {
    std::vector<vs::raster_population> pops{{"exc & friends", 80, {}, {}}, {"inh<1>", 20, {}, {}}};
    for (std::size_t i = 0; i < spikes_each; ++i) {
        pops[0].node_ids.push_back(i % 80);
        pops[0].times_ms.push_back(0.37 * static_cast<double>(i % 1000));
        pops[1].node_ids.push_back((i * 7) % 20);
        pops[1].times_ms.push_back(0.29 * static_cast<double>(i % 1000));
    }
    return pops;
}

}  // namespace

TEST_F(raster_plot_test, svg_is_well_formed_and_has_one_mark_per_spike_and_a_legend) {
    const auto file = dir / "raster.svg";
    auto pops = two_populations(1500);
    pops[0].node_ids.push_back(5);
    pops[0].times_ms.push_back(900.0);  // outside [0, 500]: not drawn
    vs::write_raster_svg(file, pops, {.title = "test <raster>", .t_start_ms = 0, .t_stop_ms = 500});
    const std::string svg = slurp(file);
    EXPECT_TRUE(well_formed(svg));
    EXPECT_EQ(spike_marks(svg), 3000u);
    EXPECT_NE(svg.find(">exc &amp; friends</text>"), std::string::npos);
    EXPECT_NE(svg.find(">inh&lt;1&gt;</text>"), std::string::npos);
    EXPECT_NE(svg.find("test &lt;raster&gt;"), std::string::npos);
    EXPECT_NE(svg.find("time [ms]"), std::string::npos);
    EXPECT_NE(svg.find("population rate [Hz]"), std::string::npos);
    EXPECT_NE(svg.find("neuron index"), std::string::npos);
    EXPECT_EQ(svg.find("subsample"), std::string::npos);
    if (std::system("command -v xmllint > /dev/null 2>&1") == 0) {
        EXPECT_EQ(std::system(("xmllint --noout '" + file.string() + "'").c_str()), 0);
    }
}

TEST_F(raster_plot_test, above_max_points_draws_exactly_max_points_and_says_so) {
    const auto file = dir / "sub.svg";
    vs::write_raster_svg(file, two_populations(1500),
                         {.title = "sub", .t_start_ms = 0, .t_stop_ms = 500, .max_points = 1000});
    const std::string svg = slurp(file);
    EXPECT_TRUE(well_formed(svg));
    EXPECT_EQ(spike_marks(svg), 1000u);
    EXPECT_NE(svg.find("showing 1000 of 3000 spikes"), std::string::npos);
}

TEST_F(raster_plot_test, legend_reports_the_mean_rate_in_hz) {
    // 20 spikes from 10 neurons in 100 ms = 20 Hz.
    vs::raster_population pop{"p", 10, {}, {}};
    for (int i = 0; i < 20; ++i) {
        pop.node_ids.push_back(static_cast<std::uint64_t>(i % 10));
        pop.times_ms.push_back(2.5 + 5.0 * i);
    }
    const auto file = dir / "rate.svg";
    vs::write_raster_svg(file, std::span(&pop, 1), {.title = "rate", .t_stop_ms = 100});
    EXPECT_NE(slurp(file).find("10 neurons, 20 spikes, 20 Hz"), std::string::npos);
    // The same spikes as a neuroprocessor's cycles: 20 spikes from 10 neurons in 100 cycles.
    vs::write_raster_svg(file, std::span(&pop, 1), {.title = "rate", .t_stop_ms = 100, .time_unit = "cycle"});
    const auto svg = slurp(file);
    EXPECT_NE(svg.find("10 neurons, 20 spikes, 0.02 per cycle"), std::string::npos);
    EXPECT_NE(svg.find("time [cycles]"), std::string::npos);
    EXPECT_NE(svg.find("population rate [per cycle]"), std::string::npos);
    EXPECT_EQ(svg.find("[ms]"), std::string::npos);
    EXPECT_EQ(svg.find("Hz"), std::string::npos);
}

TEST_F(raster_plot_test, bad_input_and_paths_are_typed_errors) {
    vs::raster_population pop{"p", 10, {10}, {1.0}};
    EXPECT_THROW(vs::write_raster_svg(dir / "x.svg", std::span(&pop, 1), {.title = "x"}),
                 volley::invalid_parameter);
    pop.node_ids = {1, 2};
    EXPECT_THROW(vs::write_raster_svg(dir / "x.svg", std::span(&pop, 1), {.title = "x"}),
                 volley::invalid_parameter);
    pop.node_ids = {1};
    EXPECT_THROW(vs::write_raster_svg(dir / "no_dir" / "x.svg", std::span(&pop, 1), {.title = "x"}),
                 volley::io_error);
    EXPECT_NO_THROW(vs::write_raster_svg(dir / "empty.svg", {}, {.title = "nothing"}));
    EXPECT_TRUE(well_formed(slurp(dir / "empty.svg")));
}

TEST(plot_axis, nice_ticks_are_round_numbers_inside_the_range) {
    using volley::snn::detail::nice_ticks;
    auto ticks = nice_ticks(0, 1000, 8);
    EXPECT_EQ(ticks.step, 100);
    ASSERT_EQ(ticks.values.size(), 11u);
    EXPECT_EQ(ticks.values.back(), 1000);
    EXPECT_EQ(ticks.decimals, 0);
    ticks = nice_ticks(0, 0.37, 5);
    EXPECT_DOUBLE_EQ(ticks.step, 0.1);
    EXPECT_EQ(ticks.values.size(), 4u);
    EXPECT_EQ(ticks.decimals, 1);
    EXPECT_EQ(volley::snn::detail::format_tick(ticks.values[3], ticks.decimals), "0.3");
    ticks = nice_ticks(250, 1130, 6);
    EXPECT_EQ(ticks.step, 200);
    EXPECT_EQ(ticks.values.front(), 400);
    EXPECT_EQ(ticks.values.back(), 1000);
}
