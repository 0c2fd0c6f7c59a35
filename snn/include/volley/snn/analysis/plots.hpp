#pragma once
// SVG plots of analysis results, in the style of the raster plot (raster_plot.hpp): a
// standalone file, white page, framed panel, "nice" ticks, labelled units, Okabe & Ito colours.

#include <volley/snn/analysis/population.hpp>

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace volley::snn::analysis {

/// A bar chart of equal-width bins: bar k covers [x0 + k width, x0 + (k+1) width).
struct bar_chart {
    std::string title;           ///< plot title
    std::string x_label;         ///< x axis label with its unit, e.g. "ISI [ms]"
    std::string y_label;         ///< y axis label with its unit
    double x0 = 0;               ///< left edge of bar 0
    double width = 1;            ///< bar width (> 0)
    std::vector<double> values;  ///< bar heights (finite; negative ones hang below 0)
};

/// Writes `chart` to `file` (created or truncated). invalid_parameter for no bars, a width
/// not finite and > 0 or a non-finite value; io_error naming the file if it cannot be written.
void write_bar_chart_svg(const std::filesystem::path& file, const bar_chart& chart);

/// ISI histogram: the intervals of `isis_ms` [ms] counted in bins of `bin_ms` from 0 to the
/// largest interval. invalid_parameter for no intervals or a bad bin.
void write_isi_histogram_svg(const std::filesystem::path& file, std::span<const double> isis_ms,
                             double bin_ms, const std::string& title);

/// PSTH: h.rate_hz against time [ms].
void write_psth_svg(const std::filesystem::path& file, const time_histogram& h,
                    const std::string& title);

/// Correlogram: counts against lag [ms], bars centred on their lags.
void write_correlogram_svg(const std::filesystem::path& file, const correlogram& c,
                           const std::string& title);

/// A square matrix (n x n, row-major, n >= 1) as a heat map with a colour bar; NaN cells are
/// grey. `value_label` names the quantity in the colour bar. invalid_parameter if the size is
/// not a square or is 0.
void write_heat_map_svg(const std::filesystem::path& file, std::span<const double> matrix,
                        const std::string& title, const std::string& value_label);

}  // namespace volley::snn::analysis
