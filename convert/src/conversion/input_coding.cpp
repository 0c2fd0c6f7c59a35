// Spike-coded inputs (see input_coding.hpp).

#include "conversion/input_coding.hpp"

#include <volley/error.hpp>

#include <cmath>

#include "random_stream.hpp"

namespace volley::convert::detail {

std::vector<std::vector<double>> input_table(const converted_snn& net, std::span<const float> image, std::size_t index,
                                             const evaluation_options& options) {
    if (image.size() != net.image_size())
        throw invalid_parameter(net.source_file, "image size", std::to_string(image.size()) + " values",
                                "the model expects " + std::to_string(net.image_size()));
    const auto steps = static_cast<std::size_t>(options.timesteps.back());
    const double rate = net.options.max_rate;
    const bool poisson = net.options.input == input_coding::poisson;
    std::vector<std::vector<double>> table(steps, std::vector<double>(image.size(), 0.0));
    for (std::size_t s = 0; s < steps; ++s)
        for (std::size_t p = 0; p < image.size(); ++p) {
            const double mean = static_cast<double>(image[p]) * rate;
            if (!(mean > 0)) continue;
            double u = uniform01(options.seed, index, s * image.size() + p);
            if (!poisson) {
                table[s][p] = u < mean ? 1.0 : 0.0;
                continue;
            }
            // Poisson by inversion: the smallest k with P(X <= k) > u.
            double term = std::exp(-mean), cdf = term;
            std::size_t k = 0;
            while (u >= cdf && k < 1000) {
                ++k;
                term *= mean / static_cast<double>(k);
                cdf += term;
            }
            table[s][p] = static_cast<double>(k);
        }
    return table;
}

}  // namespace volley::convert::detail
