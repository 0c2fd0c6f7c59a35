// Loading evaluation images (see evaluation_data.hpp).

#include <volley/convert/evaluation_data.hpp>

#include <volley/convert/idx_file.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/error.hpp>

#include "conversion/npz_images.hpp"

namespace volley::convert {

namespace {

/// PREFIX-<what>-ubyte.gz, or without .gz; empty when neither exists.
std::filesystem::path idx_file(const std::string& prefix, const char* what) {
    const std::filesystem::path plain = prefix + "-" + what + "-ubyte";
    auto gz = plain;
    gz += ".gz";
    if (std::filesystem::exists(gz)) return gz;
    if (std::filesystem::exists(plain)) return plain;
    return {};
}

labelled_images load_idx(const std::string& prefix) {
    labelled_images out;
    out.source = "idx:" + prefix;
    const auto images_file = idx_file(prefix, "images-idx3");
    if (images_file.empty())
        throw io_error(prefix + "-images-idx3-ubyte[.gz]", "no such file (idx:PREFIX needs PREFIX-images-idx3-ubyte[.gz])");
    const auto images = read_idx(images_file);
    if (images.dims.size() != 3 && images.dims.size() != 4)
        throw file_format_error(images_file.string(), "", "expected (N, H, W) or (N, C, H, W) images, got " +
                                                              std::to_string(images.dims.size()) + " dimensions");
    out.channels = images.dims.size() == 4 ? images.dims[1] : 1;
    out.height = images.dims[images.dims.size() - 2];
    out.width = images.dims.back();
    out.pixels.resize(images.values.size());
    for (std::size_t i = 0; i < images.values.size(); ++i) out.pixels[i] = static_cast<float>(images.values[i]) / 255.0f;
    const auto labels_file = idx_file(prefix, "labels-idx1");
    if (!labels_file.empty()) {
        const auto labels = read_idx(labels_file);
        if (labels.values.size() != images.dims[0])
            throw file_format_error(labels_file.string(), "", std::to_string(labels.values.size()) +
                                                                  " labels for " + std::to_string(images.dims[0]) +
                                                                  " images in " + images_file.string());
        out.labels.assign(labels.values.begin(), labels.values.end());
    }
    return out;
}

}  // namespace

void labelled_images::keep_first(std::size_t n) {
    if (n == 0 || n >= count()) return;
    pixels.resize(n * channels * height * width);
    if (!labels.empty()) labels.resize(n);
}

labelled_images load_evaluation_data(const std::string& spec, const std::filesystem::path& fashion_mnist_dir,
                                     std::size_t expected_channels) {
    if (spec == "fashion-mnist") {
        const auto set = load_fashion_mnist(fashion_mnist_dir, "test");
        labelled_images out;
        out.source = spec;
        out.channels = set.channels;
        out.height = set.height;
        out.width = set.width;
        out.pixels = set.pixels;
        out.labels.assign(set.labels.begin(), set.labels.end());
        return out;
    }
    if (spec.rfind("idx:", 0) == 0) return load_idx(spec.substr(4));
    if (spec.rfind("npz:", 0) == 0) return detail::load_npz_images(spec.substr(4), expected_channels);
    throw invalid_parameter("--data", "data", spec, "expected fashion-mnist, idx:PATH_PREFIX or npz:FILE");
}

}  // namespace volley::convert
