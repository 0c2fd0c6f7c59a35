#pragma once
// A standalone SVG line plot of the converted network's accuracy against the number of steps T
// (log2 axis), with the CNN's accuracy as a horizontal reference line. No plotting library.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace volley::pipeline {

/// What accuracy_vs_T.svg shows.
struct accuracy_curve {
    std::string title;
    std::vector<std::int64_t> timesteps;  ///< T of each point, ascending, >= 1
    std::vector<double> snn_accuracy;     ///< fraction in [0, 1], one per T
    double cnn_accuracy = 0;              ///< fraction in [0, 1]
    std::string note;                     ///< a line under the title (images, model), may be empty
};

/// Writes `file` (created or truncated) as an SVG: x = T on a log2 axis with a tick at every T,
/// y = accuracy [%] with "nice" ticks, the SNN points joined by a line and labelled, the CNN as a
/// dashed line, and a legend. invalid_parameter for mismatched lengths, an empty or non-ascending
/// T list or an accuracy outside [0, 1]; io_error naming the file if it cannot be written.
void write_accuracy_svg(const std::filesystem::path& file, const accuracy_curve& curve);

}  // namespace volley::pipeline
