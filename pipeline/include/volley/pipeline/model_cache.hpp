#pragma once
// The pipeline's trained model: reused from a cache folder when its checksum matches, else trained
// with the trainer of `volley train` and stored there.
//
// The cache holds the model file (tf.keras 2.x HDF5, as `volley train` writes it) and, beside it,
// a JSON record with the SHA-256 of the file and the training settings. A cached model is used
// only when the record exists, its settings equal the requested ones and the file's SHA-256
// equals the recorded one; otherwise the model is trained again and both files are replaced
// (the model first, then the record, each written to a temporary name and renamed, so that an
// interrupted run never leaves a matching pair behind).

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/trainer.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace volley::pipeline {

/// How the demo's CNN is trained; every field is part of the cache key.
struct training_settings {
    std::string model = "small";      ///< a name of convert::make_model
    std::string optimizer = "adam";
    std::size_t epochs = 3;
    std::size_t batch = 128;
    double learning_rate = 2e-3;
    std::size_t train_images = 0;     ///< the first N training images (0: all 60,000)
    std::uint64_t seed = 1;

    /// The equivalent `volley train` command line.
    std::string command_line() const;
    bool operator==(const training_settings&) const = default;
};

/// The model the demo goes on with.
struct cached_model {
    std::filesystem::path file;      ///< the model file in the cache folder
    std::string sha256;              ///< of `file`, 64 hex digits
    bool from_cache = false;         ///< true: reused; false: trained in this run
    std::string reason;              ///< why it was (re)trained, or "checksum matches"
    double train_s = 0;              ///< training time of this run (0 when reused)
    double recorded_train_s = 0;     ///< training time stored in the record
    std::size_t train_images = 0;    ///< images the model was trained on
};

/// SHA-256 of a file's bytes as 64 lowercase hex digits; io_error naming the file if unreadable.
std::string file_sha256(const std::filesystem::path& file);

/// The record's path for a model file: `<file>.json`.
std::filesystem::path cache_record_path(const std::filesystem::path& model_file);

/// Returns the model of `settings` from `cache_dir` (created if needed), training it on `train`
/// first unless a cached model passes the checks above (or when `force_training`). `threads` is
/// the trainer's OpenMP thread count (0: default); `on_epoch` sees each finished epoch.
/// io_error naming the folder or file when the cache cannot be written.
cached_model obtain_model(const std::filesystem::path& cache_dir, const training_settings& settings,
                             const convert::image_dataset& train, const convert::image_dataset& test, int threads,
                             bool force_training,
                             const std::function<void(const convert::training_progress&)>& on_progress = {},
                             const std::function<void(const convert::epoch_record&)>& on_epoch = {});

}  // namespace volley::pipeline
