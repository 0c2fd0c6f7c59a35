#pragma once
// The pipeline's evaluation stage: the CNN and its converted spiking network on the same test
// images, the spiking network read at every checkpoint T in one run (convert::evaluate_snn).

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/pipeline/conversion_stage.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace volley::pipeline {

struct evaluation_stage_options {
    /// The first N test images the spiking network runs on (0: all). The CNN's accuracy is also
    /// measured on all of them.
    std::size_t images = 4000;
    /// The engine, checkpoints, readout, seed, threads and progress of the spiking run; the
    /// readout is the integrated membrane (docs/demo.md).
    convert::evaluation_options snn = membrane_readout();

    static convert::evaluation_options membrane_readout() {
        convert::evaluation_options o;
        o.readout = convert::readout_rule::membrane;
        return o;
    }
};

struct evaluation_stage_result {
    std::size_t images = 0;                    ///< test images the spiking network ran on
    std::vector<std::int32_t> labels;          ///< of those images
    std::vector<std::int32_t> cnn_predictions; ///< the CNN's class for every test image
    double cnn_accuracy = 0;                   ///< on the evaluated images
    double cnn_accuracy_all = 0;               ///< on every test image
    double cnn_forward_s = 0;                  ///< wall time of the CNN's pass
    convert::evaluation_result snn;            ///< the spiking network at every checkpoint
};

/// The fraction of equal entries of two equally long lists (0 for empty lists).
double fraction_equal(std::span<const std::int32_t> a, std::span<const std::int32_t> b);

/// Runs the CNN on every image of `test` and the converted network on the first
/// options.images. The errors of convert::evaluate_snn (bad checkpoints, threads).
evaluation_stage_result evaluate_model(const conversion_stage_result& model, const convert::image_dataset& test,
                                       const evaluation_stage_options& options);

}  // namespace volley::pipeline
