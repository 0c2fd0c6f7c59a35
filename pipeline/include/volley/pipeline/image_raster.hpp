#pragma once
// The spikes of one image in a converted network, recorded on the engine layer by layer, and
// their raster plot (one population per spiking layer).

#include <volley/pipeline/results_file.hpp>

#include <volley/convert/snn_evaluation.hpp>

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

/// Writes the raster of `rec` (neurons of every layer stacked, the rate panel below) to `file`.
void write_image_raster(const std::filesystem::path& file, const convert::converted_snn& net,
                        const recorded_image& rec, std::int64_t steps, const std::string& title);

}  // namespace volley::pipeline
