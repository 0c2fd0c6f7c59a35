#pragma once
// fitness.svg of `volley evolve` and the temporal stage (docs/temporal.md): the best and the mean fitness of each
// generation. No plotting library.

#include <filesystem>
#include <string>
#include <vector>

namespace volley::pipeline {

/// What the plot shows: one point per generation.
struct fitness_curve {
    std::string title;
    std::string note;          ///< a line under the title, may be empty
    std::vector<double> best;  ///< best fitness of each generation
    std::vector<double> mean;  ///< mean fitness of each generation (same length)
};

/// Writes `file` (created or truncated): x = generation, y = fitness with nice ticks, the best as
/// a solid line and the mean as a dashed one. invalid_parameter for an empty curve, mismatched
/// lengths or a non-finite value; io_error naming the file if it cannot be written.
void write_fitness_svg(const std::filesystem::path& file, const fitness_curve& curve);

}  // namespace volley::pipeline
