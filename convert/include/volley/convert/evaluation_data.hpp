#pragma once
// The images a converted network is evaluated on, named as on the command line:
//   fashion-mnist      the Fashion-MNIST test split (Debian's dataset-fashion-mnist)
//   idx:PREFIX         PREFIX-images-idx3-ubyte[.gz] and, if present, PREFIX-labels-idx1-ubyte[.gz]
//   npz:FILE           a NumPy .npz with an array x (float32 or uint8 images, (N,C,H,W) or
//                      (N,H,W,C); uint8 is scaled to [0, 1]) and an optional y (integer labels or
//                      one-hot rows)

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace volley::convert {

/// Images as CHW float pixels, with labels when the source has them.
struct labelled_images {
    std::size_t channels = 0, height = 0, width = 0;
    std::vector<float> pixels;          ///< count x channels x height x width
    std::vector<std::int32_t> labels;   ///< empty when the source has none
    std::string source;                 ///< the spec it came from, for messages
    std::size_t count() const noexcept {
        const std::size_t s = channels * height * width;
        return s == 0 ? 0 : pixels.size() / s;
    }
    /// Keeps the first `n` images (all when n is 0 or larger than count()).
    void keep_first(std::size_t n);
};

/// Loads the images named by `spec` (see above). `fashion_mnist_dir` is where the Fashion-MNIST
/// files are; `expected_channels` disambiguates the layout of an npz x of rank 4 (the model's
/// input channels). invalid_parameter for an unknown spec; io_error and file_format_error
/// naming the file for missing or malformed data.
labelled_images load_evaluation_data(const std::string& spec, const std::filesystem::path& fashion_mnist_dir,
                                     std::size_t expected_channels);

}  // namespace volley::convert
