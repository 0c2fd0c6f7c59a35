#pragma once
// Readers that turn a trained CNN file into a cnn_graph (cnn_graph.hpp). The formats are in
// docs/conversion-formats.md:
// - Keras HDF5 as written by Keras 1.x, Keras 2.x and tf.keras 2.x `model.save` (root attribute
//   `model_config`, weights under `model_weights/`), Sequential and Functional/Model, channels_last
//   and channels_first; Theano-backend kernels are rotated 180° as Keras does, Keras 1 layers
//   and kernel layouts are translated, an unknown `backend` is unsupported_model;
// - a Keras `save_weights` file (weights at the root) plus the architecture JSON of
//   `model.to_json()`;
// - the Volley HDF5 layout (`/layers/<name>` groups with a `type` attribute, PyTorch weight
//   layouts, root attribute `layer_order`), written by `volley train` and
//   convert/tools/export_torch.py.
//
// Errors (all name the file and the layer):
// - unsupported_model: a layer or activation the converter cannot express; the message names the
//   layer, its type and the closest supported alternative;
// - file_format_error: a missing weight dataset, a weight of the wrong shape, a NaN or infinite
//   weight (naming the value and its index), malformed JSON or attributes;
// - io_error: the file cannot be opened.

#include <volley/convert/cnn_graph.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace volley::convert {

/// The file layouts read_cnn() recognises.
enum class cnn_file_format : std::uint8_t { keras, volley };

/// Which layout `file` holds, judged by its content: a root `model_config` attribute or a
/// `model_weights` group → keras; a `layers` group with a `layer_order` attribute → volley.
/// file_format_error naming the file when it is neither.
cnn_file_format detect_cnn_format(const std::filesystem::path& file);

/// Reads a Keras `model.save` HDF5 file.
cnn_graph read_keras_h5(const std::filesystem::path& file);

/// Reads a Keras `save_weights` HDF5 file whose architecture is the JSON in `architecture_json`
/// (the output of `model.to_json()`: {"class_name": ..., "config": {...}}).
cnn_graph read_keras_weights(const std::filesystem::path& weights_file,
                             const std::filesystem::path& architecture_json);

/// Reads the Volley HDF5 layout.
cnn_graph read_volley_h5(const std::filesystem::path& file);

/// Reads `file` in whichever layout detect_cnn_format() finds. With `architecture_json` the file
/// is read as Keras save_weights weights for that architecture.
cnn_graph read_cnn(const std::filesystem::path& file,
                   const std::optional<std::filesystem::path>& architecture_json = std::nullopt);

/// A reference batch stored in a model file (`/reference/{x, y, logits}` as written by the Volley
/// writers, the exporter and the shared fixtures), converted to NCHW.
struct stored_reference {
    tensor<float> x;              ///< (n, c, h, w)
    std::vector<std::int32_t> y;  ///< labels (empty when absent)
    tensor<float> logits;         ///< (n, classes, 1, 1)
};

/// The reference batch of `file`, or nullopt if it has none. An NHWC `x` (Keras layout files) is
/// recognised by its last axis matching the channel count of `input_shape` and transposed.
std::optional<stored_reference> read_stored_reference(const std::filesystem::path& file,
                                                      const shape4& input_shape);

}  // namespace volley::convert
