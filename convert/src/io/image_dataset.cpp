// Fashion-MNIST loading and seeded epoch orders.

#include <volley/convert/idx_file.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/error.hpp>

#include "random_stream.hpp"

#include <numeric>
#include <string>

namespace volley::convert {

image_dataset image_dataset::head(std::size_t n) const {
    if (n == 0 || n >= count()) return *this;
    image_dataset out{channels, height, width, {}, {}};
    out.pixels.assign(pixels.begin(), pixels.begin() + static_cast<std::ptrdiff_t>(n * image_size()));
    out.labels.assign(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(n));
    return out;
}

image_dataset load_fashion_mnist(const std::filesystem::path& dir, std::string_view split) {
    std::string prefix;
    if (split == "train") prefix = "train";
    else if (split == "test") prefix = "t10k";
    else
        throw invalid_parameter("fashion-mnist", "split", std::string(split),
                                "expected train or test");
    const auto image_file = dir / (prefix + "-images-idx3-ubyte.gz");
    const auto label_file = dir / (prefix + "-labels-idx1-ubyte.gz");
    const idx_array images = read_idx(image_file);
    const idx_array labels = read_idx(label_file);
    if (images.dims.size() != 3)
        throw file_format_error(image_file.string(), "header",
                                std::to_string(images.dims.size()) +
                                    " dimensions; expected 3 (count, rows, columns)");
    if (labels.dims.size() != 1)
        throw file_format_error(label_file.string(), "header",
                                std::to_string(labels.dims.size()) + " dimensions; expected 1");
    if (labels.dims[0] != images.dims[0])
        throw file_format_error(label_file.string(), "header",
                                std::to_string(labels.dims[0]) + " labels for " +
                                    std::to_string(images.dims[0]) + " images in " +
                                    image_file.string());
    for (std::size_t i = 0; i < labels.values.size(); ++i)
        if (labels.values[i] > 9)
            throw file_format_error(label_file.string(), "label " + std::to_string(i),
                                    "class " + std::to_string(labels.values[i]) + " is not 0..9");
    image_dataset out;
    out.height = images.dims[1];
    out.width = images.dims[2];
    out.pixels.resize(images.values.size());
    for (std::size_t k = 0; k < images.values.size(); ++k)
        out.pixels[k] = static_cast<float>(images.values[k]) / 255.0f;
    out.labels = labels.values;
    return out;
}

std::vector<std::uint32_t> epoch_order(std::size_t count, std::uint64_t seed, std::size_t epoch) {
    std::vector<std::uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0u);
    detail::random_stream rng(detail::mix64(seed) ^ (0x65706f6368ULL + epoch));
    for (std::size_t i = count; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    return order;
}

}  // namespace volley::convert
