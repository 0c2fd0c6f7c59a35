#pragma once
// A CNN as a chain of layers over NCHW images, plus the named architectures Volley trains.

#include <volley/convert/layer.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace volley::convert {

/// A chain of layers applied in order to images of shape (c, h, w).
template <class T>
class sequential_model {
public:
    /// @param input_shape the image shape (n is ignored)
    explicit sequential_model(shape4 input_shape) : input_(input_shape.with_batch(1)) {}

    /// Appends a layer, naming it Keras style ("conv2d", "conv2d_1", "max_pooling2d", ...) unless
    /// it has a name.
    /// invalid_parameter, naming the layer, if it cannot take the current output shape.
    layer<T>& add(layer_ptr<T> l);

    /// The image shape (n = 1).
    shape4 input_shape() const noexcept { return input_; }
    /// The output shape of layer `index` for one image.
    shape4 output_shape(std::size_t index) const { return shapes_.at(index); }
    /// The number of output classes (values per image of the last layer).
    std::size_t classes() const { return shapes_.empty() ? 0 : shapes_.back().per_image(); }
    std::size_t size() const noexcept { return layers_.size(); }
    layer<T>& at(std::size_t i) { return *layers_.at(i); }
    const layer<T>& at(std::size_t i) const { return *layers_.at(i); }
    /// The number of trainable values.
    std::size_t parameter_count() const;

    /// Runs the model in inference mode on `x` (shape (n, c, h, w)) and returns the logits.
    tensor<T> predict(const tensor<T>& x) const;

private:
    shape4 input_;
    std::vector<layer_ptr<T>> layers_;
    std::vector<shape4> shapes_;
};

/// The names accepted by make_model().
std::vector<std::string> model_names();
/// model_names() as text for help and errors: "small, small_bn, reference or tiny".
std::string model_name_list();

/// Builds a named architecture for 1×28×28 images and 10 classes, initialised from `seed`:
/// - "small": conv(16,3×3,pad 1)-ReLU-avgpool2 → conv(32,3×3,pad 1)-ReLU-avgpool2 → dense(10),
///   the architecture of the CONVERSION.md fixture (20,490 parameters);
/// - "small_bn": "small" with BatchNorm after each convolution (20,586 parameters), the LARS
///   study's second model (BatchNorm, as the paper's large-batch AlexNet-BN);
/// - "reference": conv(32,3×3)-BN-ReLU-maxpool2 → conv(64,3×3)-BN-ReLU-maxpool2 → dense(128)-ReLU
///   → Dropout(0.25) → dense(10) (issue 7's reference plus BatchNorm, which the converter folds);
/// - "tiny": conv(4,3×3,stride 2)-ReLU → dense(10), for tests.
/// invalid_parameter naming the model if `name` is unknown.
sequential_model<float> make_model(std::string_view name, std::uint64_t seed);

}  // namespace volley::convert
