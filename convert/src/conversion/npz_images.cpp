// Evaluation images from a NumPy .npz (see npz_images.hpp).

#include "conversion/npz_images.hpp"

#include <volley/error.hpp>
#include <volley/snn/npz_file.hpp>

#include <algorithm>
#include <cmath>

namespace volley::convert::detail {

labelled_images load_npz_images(const std::filesystem::path& file, std::size_t expected_channels) {
    const auto names = snn::npz_array_names(file);
    if (std::find(names.begin(), names.end(), "x") == names.end())
        throw file_format_error(file.string(), "x", "no array 'x' (the images) in the archive");
    const auto x = snn::read_npz_array(file, "x");
    labelled_images out;
    out.source = "npz:" + file.string();
    const auto& s = x.shape;
    bool nhwc = false;
    if (s.size() == 3) {
        out.channels = 1;
        out.height = s[1];
        out.width = s[2];
    } else if (s.size() == 4) {
        nhwc = s[3] == expected_channels && s[1] != expected_channels;
        out.channels = nhwc ? s[3] : s[1];
        out.height = nhwc ? s[1] : s[2];
        out.width = nhwc ? s[2] : s[3];
    } else {
        throw file_format_error(file.string(), "x", "expected images of shape (N,C,H,W), (N,H,W,C) or (N,H,W), got " +
                                                        std::to_string(s.size()) + " dimensions");
    }
    const bool bytes = x.dtype.find("u1") != std::string::npos;
    if (!bytes && x.dtype.find('f') == std::string::npos)
        throw file_format_error(file.string(), "x", "dtype " + x.dtype + ": expected float32/float64 or uint8 images");
    const std::size_t n = s[0], c = out.channels, h = out.height, w = out.width;
    out.pixels.resize(x.values.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t ch = 0; ch < c; ++ch)
            for (std::size_t y = 0; y < h; ++y)
                for (std::size_t q = 0; q < w; ++q) {
                    const std::size_t from = nhwc ? ((i * h + y) * w + q) * c + ch : ((i * c + ch) * h + y) * w + q;
                    const double v = x.values[from] / (bytes ? 255.0 : 1.0);
                    if (!std::isfinite(v))
                        throw file_format_error(file.string(), "x", "non-finite pixel at flat index " + std::to_string(from));
                    out.pixels[((i * c + ch) * h + y) * w + q] = static_cast<float>(v);
                }
    if (std::find(names.begin(), names.end(), "y") == names.end()) return out;
    const auto y = snn::read_npz_array(file, "y");
    const bool one_hot = y.shape.size() == 2;
    if ((y.shape.size() != 1 && !one_hot) || y.shape[0] != n)
        throw file_format_error(file.string(), "y", "expected " + std::to_string(n) +
                                                        " integer labels or one-hot rows (the images of x)");
    for (std::size_t i = 0; i < n; ++i) {
        if (one_hot) {
            const auto row = y.values.begin() + static_cast<std::ptrdiff_t>(i * y.shape[1]);
            out.labels.push_back(static_cast<std::int32_t>(std::max_element(row, row + static_cast<std::ptrdiff_t>(y.shape[1])) - row));
        } else {
            const double v = y.values[i];
            if (v != std::floor(v) || v < 0)
                throw file_format_error(file.string(), "y", "label " + std::to_string(i) + " is " + std::to_string(v) +
                                                                ", not a non-negative integer");
            out.labels.push_back(static_cast<std::int32_t>(v));
        }
    }
    return out;
}

}  // namespace volley::convert::detail
