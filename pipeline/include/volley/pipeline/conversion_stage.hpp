#pragma once
// The pipeline's conversion stage: a trained CNN file read as users' models are read, its layers
// normalised on training images (a percentile of each ReLU's outputs becomes λ) and converted to
// a spiking network on the engine (docs/conversion.md). The result can be saved with
// convert::write_snn_h5 and read back with convert::read_snn_h5 (`volley convert --out`).

#include <volley/convert/cnn_graph.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_conversion.hpp>

#include <cstddef>
#include <filesystem>

namespace volley::pipeline {

struct conversion_stage_options {
    double percentile = 99.9;        ///< of each ReLU's outputs, in (0, 100]
    std::size_t norm_images = 10000; ///< the first N training images for the percentiles (0: all)
    double v0 = 0.5;                 ///< initial membrane, in units of the threshold
    int threads = 0;                 ///< 0: the OpenMP default
};

struct conversion_stage_result {
    convert::cnn_graph graph;        ///< the CNN as read from the file
    convert::converted_snn net;      ///< the spiking network
    std::size_t norm_images = 0;     ///< training images the percentiles were taken on
};

/// Images as the CNN's input tensor (n, c, h, w).
convert::tensor<float> as_tensor(const convert::image_dataset& images);

/// Reads `model_file`, normalises on `train` and converts. invalid_parameter naming
/// "percentile" outside (0, 100]; the readers' and the converter's errors otherwise.
conversion_stage_result convert_model(const std::filesystem::path& model_file, const convert::image_dataset& train,
                                      const conversion_stage_options& options);

}  // namespace volley::pipeline
