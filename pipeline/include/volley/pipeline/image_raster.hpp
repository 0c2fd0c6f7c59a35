#pragma once
// The spikes of one image in a converted network, recorded on the engine layer by layer, and
// their raster plot (one population per spiking layer).

#include <volley/pipeline/results_file.hpp>

#include <volley/convert/snn_evaluation.hpp>
#include <volley/snn/raster_plot.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace volley::pipeline {

/// What one recorded image gave.
struct recorded_image {
    std::vector<layer_spike_train> layers;  ///< one per spiking layer, input to output
    std::int32_t prediction = -1;           ///< the readout after the run
    std::uint64_t spikes = 0;               ///< all layers together
};

/// Runs `net` on one image (CHW pixels) for `steps` steps of 1 ms with a spike recorder on every
/// spiking layer. Only the constant-current input coding is supported here (the demo's); other
/// codings give invalid_parameter. invalid_parameter for steps < 1 or a wrong image size.
recorded_image record_image_spikes(const convert::converted_snn& net, std::span<const float> image,
                                   std::int64_t steps, std::uint64_t seed, convert::readout_rule readout);

/// Empty raster populations, one per spiking layer of `net` (named `prefix` + the layer's name),
/// with at most `rows` rows each: a layer of n > rows neurons shows every k-th neuron, k =
/// ceil(n / rows), and its name says "(1 neuron in k)".
std::vector<snn::raster_population> layer_rows(const convert::converted_snn& net, std::uint64_t rows,
                                               const std::string& prefix);

/// Adds the spikes of `rec` to populations made by layer_rows(net, rows, ...): the shown
/// neurons' spikes, each at time offset + t·scale.
void add_layer_spikes(std::vector<snn::raster_population>& pops, const convert::converted_snn& net,
                      const recorded_image& rec, std::uint64_t rows, double offset, double scale);

/// Writes the raster of `rec` (every layer's neurons, at most 40 rows a layer, stacked; the rate
/// panel below, in bins of one step) to `file`.
void write_image_raster(const std::filesystem::path& file, const convert::converted_snn& net,
                        const recorded_image& rec, std::int64_t steps, const std::string& title);

}  // namespace volley::pipeline
