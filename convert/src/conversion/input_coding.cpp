// Spike-coded inputs (see input_coding.hpp).

#include "conversion/input_coding.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

#include "random_stream.hpp"

namespace volley::convert::detail {

std::int64_t ttfs_first_step(double x, std::int64_t window) {
    if (!(x > 0)) return -1;
    return std::min<std::int64_t>(window - 1, std::llround((1.0 - x) * static_cast<double>(window)));
}

std::vector<std::vector<double>> input_table(const converted_snn& net, std::span<const float> image, std::size_t index,
                                             const evaluation_options& options) {
    if (image.size() != net.image_size())
        throw invalid_parameter(net.source_file, "image size", std::to_string(image.size()) + " values",
                                "the model expects " + std::to_string(net.image_size()));
    const auto steps = static_cast<std::size_t>(options.timesteps.back());
    const double rate = net.options.max_rate;
    const bool poisson = net.options.input == input_coding::poisson;
    std::vector<std::vector<double>> table(steps, std::vector<double>(image.size(), 0.0));
    if (net.options.input == input_coding::ttfs) {
        const auto K = static_cast<double>(net.options.ttfs_window);
        for (std::size_t p = 0; p < image.size(); ++p) {
            const double x = image[p];
            if (!(x >= 0 && x <= 1))
                throw invalid_parameter(net.source_file, "image " + std::to_string(index) + " pixel " + std::to_string(p),
                                        std::to_string(x), "time-to-first-spike coding needs values in [0, 1]");
            const auto first = ttfs_first_step(x, net.options.ttfs_window);
            if (first < 0) continue;
            const double held = 1.0 - static_cast<double>(first) / K;
            for (auto s = static_cast<std::size_t>(first); s < steps; ++s) table[s][p] = held;
        }
        return table;
    }
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
