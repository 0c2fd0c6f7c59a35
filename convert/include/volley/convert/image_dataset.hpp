#pragma once
// Labelled images in memory (Fashion-MNIST), and the seeded shuffling used to batch them.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace volley::convert {

/// Images as float pixels in [0, 1] (byte/255), NCHW, with one label per image.
struct image_dataset {
    std::size_t channels = 1, height = 28, width = 28;
    std::vector<float> pixels;          ///< count × channels × height × width
    std::vector<std::uint8_t> labels;   ///< class per image
    std::size_t count() const noexcept { return labels.size(); }
    std::size_t image_size() const noexcept { return channels * height * width; }
    const float* image(std::size_t i) const noexcept { return pixels.data() + i * image_size(); }

    /// The first `n` images (all of them if n = 0 or n ≥ count()).
    image_dataset head(std::size_t n) const;
};

/// Where Debian's dataset-fashion-mnist package installs the data.
inline constexpr std::string_view default_fashion_mnist_dir = "/usr/share/datasets/fashion-mnist";

/// Loads the "train" (60,000 images) or "test" (10,000) split of Fashion-MNIST from `dir`
/// ({train,t10k}-{images-idx3,labels-idx1}-ubyte.gz). io_error naming the file and telling the
/// user to run scripts/setup if it is missing; file_format_error if the files are inconsistent;
/// invalid_parameter for another split name.
image_dataset load_fashion_mnist(const std::filesystem::path& dir, std::string_view split);

/// The order in which epoch `epoch` visits `count` images: a Fisher-Yates shuffle keyed by
/// (seed, epoch), identical on every platform.
std::vector<std::uint32_t> epoch_order(std::size_t count, std::uint64_t seed, std::size_t epoch);

}  // namespace volley::convert
