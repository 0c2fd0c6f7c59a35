#pragma once
// The pipeline's hardware stage: the converted network's classifier head quantised to B-bit
// integers, exported as TENNLab networks for danna2 and RISP and driven there by the engine's
// spikes of the layer below it, against the engine's integer mode (docs/conversion.md, "The
// classifier head on hardware").

#include <volley/convert/head_export.hpp>
#include <volley/pipeline/evaluation_stage.hpp>
#include <volley/pipeline/results_file.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace volley::pipeline {

struct hardware_stage_options {
    int bits = 8;                 ///< of the integer mode
    std::int64_t timesteps = 32;  ///< T of the head's run (0: the stage is skipped)
    std::size_t images = 500;     ///< the first N evaluated images (0: all of them)
    int threads = 1;
    /// Where head_danna2.json and head_risp.json are written (empty: not written).
    std::filesystem::path out_dir;
};

struct hardware_stage_result {
    /// Empty when the heads ran; else why not ("skipped (...)" or "not run: <error>").
    std::string note;
    std::string head_layer;       ///< the first layer of the head
    std::size_t head_inputs = 0;  ///< its input features
    int bits = 0;
    std::int64_t timesteps = 0;
    std::size_t images = 0;
    double integer_accuracy = 0;  ///< the engine's integer mode on those images
    /// The float spiking network at the same T on the same images (NaN when T is not one of
    /// the evaluation's checkpoints).
    double float_accuracy = 0;
    std::vector<hardware_result> processors;          ///< danna2, then RISP
    std::vector<convert::head_check_result> checks;   ///< the same order, with the cost reports
    bool ran() const noexcept { return !processors.empty(); }
};

/// Runs the head on danna2 and RISP. A network the head cannot be exported from (no dense head,
/// a threshold beyond the processor) is not an error: the result's note says why.
hardware_stage_result run_hardware_stage(const conversion_stage_result& model, const evaluation_stage_result& evaluation,
                                         const convert::image_dataset& test, const hardware_stage_options& options);

}  // namespace volley::pipeline
