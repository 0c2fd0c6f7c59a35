#pragma once
// Per-image class evidence, the input of the temporal network (docs/temporal.md, "Frame
// features"): `oracle` is the one-hot of the true label; `cnn` is the output layer of the
// converted CNN after T steps. Features are computed once per image index of a set and reused by
// every sequence that shows the image.

#include <volley/convert/image_dataset.hpp>
#include <volley/convert/snn_conversion.hpp>
#include <volley/convert/snn_evaluation.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace volley::temporal {

/// Class evidence and predicted class per image index of one labelled set.
struct feature_table {
    std::size_t classes = 10;
    std::vector<float> evidence;           ///< images × classes, row-major; zero where absent
    std::vector<std::int32_t> prediction;  ///< predicted class per image, -1 where absent

    /// Number of image slots (the size of the set).
    std::size_t images() const noexcept { return prediction.size(); }
    /// True when image `image` has features.
    bool has(std::size_t image) const noexcept { return image < prediction.size() && prediction[image] >= 0; }
    /// The evidence of image `image`; invalid_parameter naming the index if it has none.
    std::span<const float> row(std::size_t image) const;
    /// The predicted class of image `image`; invalid_parameter naming the index if it has none.
    std::int32_t predicted(std::size_t image) const;
};

/// One-hot evidence of the labels: evidence 1 for the true class, 0 elsewhere; prediction =
/// label. invalid_parameter for a label >= classes.
feature_table oracle_features(std::span<const std::uint8_t> labels, std::size_t classes = 10);

/// Which output-layer quantity becomes the evidence.
enum class cnn_evidence : std::uint8_t {
    spike_count,  ///< output spikes in T steps (>= 0)
    membrane,     ///< integrated membrane, spikes × threshold + v (may be negative)
};

/// Settings of the CNN front end.
struct cnn_feature_options {
    std::int64_t timesteps = 32;  ///< T, steps per image (>= 1)
    cnn_evidence evidence = cnn_evidence::spike_count;
    convert::readout_rule readout = convert::readout_rule::spike_count;  ///< gives `prediction`
    int threads = 1;         ///< evaluation workers (the result does not depend on it)
    std::uint64_t seed = 1;  ///< seed of spike-coded inputs (keyed by image index)
};

/// Runs the converted network on the images `images` of `set` (each index once; repeated indices
/// are evaluated once) and fills their rows; the table has set.count() slots. invalid_parameter
/// for an index >= set.count() or a network whose output is not set.classes-sized.
feature_table cnn_features(const convert::converted_snn& net, const convert::image_dataset& set,
                           std::span<const std::uint32_t> images, const cnn_feature_options& options = {});

}  // namespace volley::temporal
