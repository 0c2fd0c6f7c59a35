// Format detection, the read_cnn() dispatcher, and the reference batch stored in model files.

#include <volley/convert/cnn_readers.hpp>
#include <volley/error.hpp>

#include "io/h5_read.hpp"

#include <H5Apublic.h>

namespace volley::convert {

cnn_file_format detect_cnn_format(const std::filesystem::path& path) {
    const std::string file = path.string();
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::open_hdf5_file(path, false);
    if (H5Aexists(h5.get(), "model_config") > 0 ||
        snn::detail::has_link(h5.get(), "model_weights") ||
        H5Aexists(h5.get(), "layer_names") > 0 || H5Aexists(h5.get(), "layer_names0") > 0)
        return cnn_file_format::keras;
    if (snn::detail::has_link(h5.get(), "layers") &&
        (H5Aexists(h5.get(), "layer_order") > 0 || H5Aexists(h5.get(), "layer_order0") > 0))
        return cnn_file_format::volley;
    throw file_format_error(file, "/",
                            "neither a Keras HDF5 model (no 'model_config' attribute or "
                            "'model_weights' group) nor a Volley HDF5 model (no 'layers' group "
                            "with a 'layer_order' attribute)");
}

cnn_graph read_cnn(const std::filesystem::path& file,
                   const std::optional<std::filesystem::path>& architecture_json) {
    if (architecture_json) return read_keras_weights(file, *architecture_json);
    return detect_cnn_format(file) == cnn_file_format::keras ? read_keras_h5(file)
                                                             : read_volley_h5(file);
}

std::optional<stored_reference> read_stored_reference(const std::filesystem::path& path,
                                                      const shape4& input_shape) {
    const std::string file = path.string();
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::open_hdf5_file(path, false);
    auto ref = snn::detail::open_group_if_present(h5.get(), "reference");
    if (!ref.valid()) return std::nullopt;
    auto x = detail::read_float_array(ref.get(), "x", file, "/reference/x");
    auto logits = detail::read_float_array(ref.get(), "logits", file, "/reference/logits");
    const std::size_t c = input_shape.c, h = input_shape.h, w = input_shape.w;
    if (x.shape.empty() || x.values.size() != x.shape[0] * c * h * w)
        throw file_format_error(
            file, "/reference/x",
            "shape " + detail::shape_text(x.shape) + " does not hold images of " +
                to_string(input_shape.with_batch(x.shape.empty() ? 0 : x.shape[0])));
    const std::size_t n = x.shape[0];
    stored_reference out;
    out.x = tensor<float>(shape4{n, c, h, w});
    const bool nhwc = x.shape.size() == 4 && x.shape[3] == c && x.shape[1] != c;
    if (nhwc) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t ch = 0; ch < c; ++ch)
                for (std::size_t y = 0; y < h; ++y)
                    for (std::size_t xx = 0; xx < w; ++xx)
                        out.x.at(i, ch, y, xx) = x.values[((i * h + y) * w + xx) * c + ch];
    } else {
        out.x.values = std::move(x.values);
    }
    if (logits.shape.empty() || logits.shape[0] != n)
        throw file_format_error(file, "/reference/logits",
                                "shape " + detail::shape_text(logits.shape) + " does not match " +
                                    std::to_string(n) + " images");
    const std::size_t classes = logits.values.size() / n;
    out.logits = tensor<float>(shape4{n, classes, 1, 1});
    out.logits.values = std::move(logits.values);
    if (snn::detail::has_link(ref.get(), "y")) {
        for (auto v : detail::read_int_array(ref.get(), "y", file, "/reference/y"))
            out.y.push_back(static_cast<std::int32_t>(v));
    }
    return out;
}

}  // namespace volley::convert
