#pragma once
// Spike raster plots written as standalone SVG (no plotting library): a raster panel on top and
// population firing rates below, sharing the time axis.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace volley::snn {

/// The spikes of one population to plot.
struct raster_population {
    std::string name;                     ///< shown in the legend
    std::uint64_t size = 0;               ///< number of neurons (rows in the raster)
    std::vector<std::uint64_t> node_ids;  ///< population-local id of each spike, < size
    std::vector<double> times_ms;         ///< time of each spike [ms], same length as node_ids
};

/// What to plot and how.
struct raster_plot_options {
    std::string title;       ///< plot title
    double t_start_ms = 0;   ///< left edge of the time axis [ms]
    double t_stop_ms = 0;    ///< right edge [ms]; <= t_start_ms means the latest spike time
                             ///< (t_start_ms + 1 ms when there is no spike)
    double rate_bin_ms = 0;  ///< width of the rate bins [ms]; 0 = automatic: a "nice" width
                             ///< (1, 2 or 5 x 10^k) giving about 80 bins, or fewer (at least
                             ///< about 10) where that would leave < 5 spikes per bin
    /// The unit of every time (t_start_ms, t_stop_ms, rate_bin_ms, times_ms): "ms" gives rates
    /// in Hz; another unit (e.g. "cycle" for a neuroprocessor) labels the axis with it and gives
    /// rates in spikes per neuron per that unit.
    std::string time_unit = "ms";
    std::size_t max_points = 200000;  ///< at most this many spike marks: above it, an evenly
                                      ///< spaced deterministic subsample is drawn and the plot
                                      ///< says so (rates always use every spike)
};

/// Writes `file` (created or truncated) as an SVG image:
/// - a title (and a note when the raster is subsampled);
/// - a raster panel: x = time [ms], y = neuron index, populations stacked bottom to top in the
///   given order, each its own colour, one vertical tick per spike in [t_start_ms, t_stop_ms];
/// - a rate panel: each population's rate [Hz] = spikes in bin / (bin width [s] * size);
/// - axes with "nice" ticks and labelled units, and a legend naming each population with its
///   size, spike count and mean rate.
/// invalid_parameter for a node id >= size, mismatched lengths, non-finite times or a negative
/// bin width; io_error naming the file if it cannot be written.
void write_raster_svg(const std::filesystem::path& file, std::span<const raster_population> pops,
                      const raster_plot_options& opt);

}  // namespace volley::snn
