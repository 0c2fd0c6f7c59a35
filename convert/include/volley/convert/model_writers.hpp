#pragma once
// Writers of trained models: the tf.keras 2.x HDF5 layout (model.save) and the Volley HDF5 layout.
// Both embed a reference batch (inputs, labels and logits) so that readers can check themselves.

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/sequential_model.hpp>

#include <filesystem>
#include <string>

namespace volley::convert {

/// A few images with their labels and the model's logits, in Volley layout.
struct reference_batch {
    tensor<float> x;                  ///< (n, c, h, w), pixels in [0, 1]
    std::vector<std::uint8_t> y;      ///< labels
    tensor<float> logits;             ///< (n, classes, 1, 1)
};

/// The first `n` images of `data` and the model's logits for them.
reference_batch make_reference_batch(const sequential_model<float>& model,
                                     const image_dataset& data, std::size_t n = 16);

/// Facts about the training run stored as root attributes.
struct model_provenance {
    std::string dataset = "fashion-mnist (Debian dataset-fashion-mnist), x/255 in [0,1]";
    std::string training;        ///< e.g. "volley train --optimizer adam --batch 128 ..."
    double test_accuracy = 0;    ///< fraction
    std::size_t epochs = 0;
    double train_time_s = 0;
};

/// Writes `model` as tf.keras 2.x `model.save` does (CONVERSION.md, "Keras HDF5"): the root
/// attribute `model_config` (a Sequential, channels_last), and `model_weights/<layer>/<layer>/
/// kernel:0` etc. with `layer_names` and `weight_names` attributes. Conv kernels become HWIO; the
/// Dense kernel after Flatten is permuted to HWC row order; a ReLU right after Conv2D or Dense is
/// folded into its `activation`. The reference batch is stored as `/reference/{x (NHWC), y,
/// logits}`. io_error naming the file if it cannot be written; invalid_parameter naming a layer
/// Keras cannot express.
void write_keras_h5(const sequential_model<float>& model, const std::filesystem::path& file,
                    const reference_batch& reference, const model_provenance& provenance);

/// Writes `model` in the Volley layout (docs/training.md): `/layers/<name>` groups with a `type`
/// attribute and weights in PyTorch layout (`weight` OIHW or (out, in) over CHW, `bias`), the root
/// attribute `layer_order`, and `/reference/{x (NCHW), y, logits}`.
void write_volley_h5(const sequential_model<float>& model, const std::filesystem::path& file,
                     const reference_batch& reference, const model_provenance& provenance);

}  // namespace volley::convert
