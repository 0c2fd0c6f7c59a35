#pragma once
// The hybrid pipeline, Volley's main job (docs/demo.md): a CNN trained on Fashion-MNIST (or
// reused from the model cache) → converted to a spiking network on the engine → evaluated at
// several T in one run → its classifier head on danna2 and RISP → one image's spikes → the
// CNN's output frame by frame into networks on the DANNA models that answer questions about
// sequences (temporal stage) → results.h5 and the plots. `volley demo` and
// `volley.pipeline.run` are this function with options parsed and figures printed.
//
// Each stage is also a function of its own (model_cache.hpp, conversion_stage.hpp,
// evaluation_stage.hpp, hardware_stage.hpp, image_raster.hpp, temporal_stage.hpp), and each
// saves what the next needs: the model file in the cache, the converted network
// (convert::write_snn_h5), the head and temporal networks as TENNLab JSON, results.h5.

#include <volley/pipeline/conversion_stage.hpp>
#include <volley/pipeline/evaluation_stage.hpp>
#include <volley/pipeline/hardware_stage.hpp>
#include <volley/pipeline/image_raster.hpp>
#include <volley/pipeline/model_cache.hpp>
#include <volley/pipeline/results_file.hpp>
#include <volley/pipeline/temporal_stage.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace volley::pipeline {

struct pipeline_options {
    std::filesystem::path out_dir = "out/demo";  ///< created if needed
    std::filesystem::path cache_dir;             ///< the model cache (empty: out_dir/cache)
    std::filesystem::path data_dir{convert::default_fashion_mnist_dir};
    training_settings training;
    bool retrain = false;                        ///< train even when the cached model matches
    conversion_stage_options conversion;
    evaluation_stage_options evaluation;
    hardware_stage_options hardware;             ///< its out_dir is the pipeline's
    std::int64_t raster_steps = 64;              ///< steps of the recorded image (>= 1)
    std::size_t raster_image = 0;                ///< the test image whose spikes are recorded
    /// The temporal stage (its out_dir is the pipeline's); skipped when test_sequences is 0.
    temporal_options temporal;
    /// Threads and seed of every stage (they replace the stages' own).
    int threads = 1;
    std::uint64_t seed = 1;
};

/// What a caller sees while the pipeline runs; every member may be empty. Called on the
/// calling thread, except evaluation_progress (from worker threads).
struct pipeline_observer {
    std::function<void(const std::string&)> log;  ///< progress lines (one per finished epoch too)
    std::function<void(const convert::training_progress&)> training_step;
    std::function<void(const convert::epoch_record&)> epoch;  ///< before the epoch's log line
    std::function<void(std::size_t done, std::size_t total)> evaluation_progress;
};

struct pipeline_result {
    pipeline_options options;                 ///< as run (threads and seed applied to the stages)
    cached_model model;
    std::vector<std::string> layer_names;     ///< the spiking layers, input to output
    std::vector<std::uint64_t> layer_neurons;
    std::vector<double> layer_lambda;
    std::size_t norm_images = 0;
    std::size_t test_images_all = 0;          ///< the test split's size
    evaluation_stage_result evaluation;
    hardware_stage_result hardware;
    recorded_image raster;
    std::int32_t raster_label = -1;
    std::optional<temporal_result> temporal;
    results_record record;                    ///< what results.h5 holds
    std::vector<std::pair<std::string, double>> stages;  ///< wall seconds per stage, in order
    double total_s = 0;
    std::vector<std::filesystem::path> outputs;          ///< every file written, in order
};

/// The names of Fashion-MNIST's ten classes.
extern const char* const fashion_mnist_classes[10];

/// Runs every stage and writes accuracy_vs_T.svg, raster.svg, results.h5, the head networks and
/// the temporal stage's files under options.out_dir. invalid_parameter naming the option for a
/// bad value (raster_steps < 1, raster_image beyond the test set, ...); io_error naming the file
/// or folder that cannot be read or written; the stages' errors otherwise.
pipeline_result run_pipeline(pipeline_options options, const pipeline_observer& observer = {});

/// The figures as one JSON object (the object `volley demo --json` prints, without the process's
/// peak memory).
nlohmann::json to_json(const pipeline_result& result);

}  // namespace volley::pipeline
