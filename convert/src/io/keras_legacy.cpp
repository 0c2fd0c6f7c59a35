// Files of old Keras versions (keras_context.hpp): which Keras and which backend wrote them,
// and Keras 1 layer configs in Keras 2 terms. What this follows, in keras-team/keras:
// - keras/engine/topology.py (2.0) and keras/engine/saving.py (2.1-2.3),
//   load_weights_from_hdf5_group: no `keras_version` attribute on the weights group means
//   Keras 1; preprocess_weights_for_loading: a Keras 1 channels_first Conv2D kernel
//   (filters, stack, rows, cols) is transposed (2, 3, 1, 0) to (rows, cols, stack, filters);
//   _need_convert_kernel: Theano convolves, TensorFlow and CNTK correlate, so the kernels of
//   Conv1D, Conv2D, Conv3D, Conv2DTranspose and ConvLSTM2D trained on Theano are flipped by
//   keras/utils/conv_utils.py convert_kernel (all spatial axes reversed);
// - keras/legacy/interfaces.py: the Keras 1 → 2 argument names (nb_filter → filters,
//   border_mode → padding, subsample → strides, dim_ordering 'th'/'tf' → data_format, output_dim
//   → units, bias → use_bias, p → rate).

#include "io/keras_context.hpp"

#include <volley/error.hpp>

#include <cctype>

namespace volley::convert::keras {

namespace {

std::string attribute_or(hid_t weights_root, hid_t root, const json& model, const char* name,
                         const std::string& file) {
    if (auto v = detail::read_text_attribute(weights_root, name, file)) return *v;
    if (root != weights_root)
        if (auto v = detail::read_text_attribute(root, name, file)) return *v;
    if (model.is_object() && model.contains(name) && model[name].is_string())
        return model[name].get<std::string>();
    return "";
}

/// A TensorFlow variable name: "...:<digits>".
bool tensorflow_name(const std::string& name) {
    const auto colon = name.rfind(':');
    if (colon == std::string::npos || colon + 1 == name.size()) return false;
    for (std::size_t i = colon + 1; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    return true;
}

/// The backend of a Keras 1 file from its weight names; "" when it has no weights.
std::string keras1_backend(hid_t weights_root, const std::string& file) {
    const auto layers = detail::read_string_list_attribute(weights_root, "layer_names", file);
    std::size_t tf = 0, other = 0;
    std::string tf_example, other_example;
    for (const auto& layer : layers.value_or(std::vector<std::string>{})) {
        auto g = snn::detail::open_group_if_present(weights_root, layer);
        if (!g.valid()) continue;
        const auto names = detail::read_string_list_attribute(g.get(), "weight_names", file);
        for (const auto& n : names.value_or(std::vector<std::string>{})) {
            if (tensorflow_name(n)) ++tf, tf_example = n;
            else ++other, other_example = n;
        }
    }
    if (tf > 0 && other > 0)
        throw unsupported_model(
            file, "Keras 1.x file without a 'backend' attribute whose weight names are both "
                  "TensorFlow-style ('" + tf_example + "') and Theano-style ('" + other_example +
                  "'), so the backend that trained it is unknown; set the root attribute "
                  "'backend' to 'theano' or 'tensorflow' (h5py: f.attrs['backend'] = 'theano')");
    return tf > 0 ? "tensorflow" : other > 0 ? "theano" : "";
}

bool has_keras1_arguments(const json& layers) {
    for (const auto& l : layers) {
        const auto type = l.value("class_name", std::string());
        if (type == "Convolution2D" || type == "Merge") return true;
        const auto& cfg = l.value("config", json::object());
        for (const char* key : {"nb_filter", "output_dim", "border_mode", "dim_ordering", "subsample"})
            if (cfg.is_object() && cfg.contains(key)) return true;
    }
    return false;
}

const json& model_layers(const json& model) {
    static const json none = json::array();
    if (!model.is_object() || !model.contains("config")) return none;
    const auto& c = model["config"];
    if (c.is_array()) return c;
    if (c.is_object() && c.contains("layers") && c["layers"].is_array()) return c["layers"];
    return none;
}

void rename(json& cfg, const char* from, const char* to) {
    if (!cfg.contains(from)) return;
    cfg[to] = cfg[from];
    cfg.erase(from);
}

void dim_ordering(json& cfg, const std::string& file, const std::string& name) {
    if (!cfg.contains("dim_ordering")) return;
    const auto d = text(cfg, "dim_ordering", "");
    cfg.erase("dim_ordering");
    if (d == "th") cfg["data_format"] = "channels_first";
    else if (d == "tf") cfg["data_format"] = "channels_last";
    else if (d != "default")
        throw file_format_error(file, "layer '" + name + "' config 'dim_ordering'",
                                "expected 'th' or 'tf', found '" + d + "'");
}

}  // namespace

keras_origin read_keras_origin(hid_t root, hid_t weights_root, const json& model,
                               const std::string& file) {
    keras_origin o;
    o.keras_version = attribute_or(weights_root, root, model, "keras_version", file);
    o.backend = attribute_or(weights_root, root, model, "backend", file);
    o.keras1 = o.keras_version.starts_with("1") ||
               (o.keras_version.empty() && has_keras1_arguments(model_layers(model)));
    if (o.backend.empty() && o.keras1) o.backend = keras1_backend(weights_root, file);
    if (o.backend == "theano") {
        o.theano = true;
    } else if (!o.backend.empty() && o.backend != "tensorflow" && o.backend != "cntk" &&
               o.backend != "jax" && o.backend != "torch" && o.backend != "numpy" &&
               o.backend != "openvino") {
        throw unsupported_model(
            file, "the 'backend' attribute is '" + o.backend +
                      "', a Keras backend this reader does not know, so whether its convolution "
                      "kernels are flipped is unknown (known: tensorflow, cntk, jax, torch, "
                      "numpy, openvino, which correlate, and theano, which convolves); re-save "
                      "the model with one of those backends");
    }
    return o;
}

std::pair<std::string, json> keras1_layer(const std::string& type, const json& config,
                                          const std::string& file, const std::string& name) {
    json cfg = config.is_object() ? config : json::object();
    std::string t = type;
    dim_ordering(cfg, file, name);
    rename(cfg, "border_mode", "padding");
    if (text(cfg, "padding", "valid") == "full")
        detail::throw_unsupported(file, name, type + " with border_mode 'full'",
                                  "use 'valid' or 'same'");
    if (type == "Convolution2D") {
        t = "Conv2D";
        rename(cfg, "nb_filter", "filters");
        rename(cfg, "subsample", "strides");
        rename(cfg, "bias", "use_bias");
        if (cfg.contains("nb_row") || cfg.contains("nb_col")) {
            cfg["kernel_size"] = json::array({cfg.value("nb_row", json(1)), cfg.value("nb_col", json(1))});
            cfg.erase("nb_row");
            cfg.erase("nb_col");
        }
    } else if (type == "Dense") {
        rename(cfg, "output_dim", "units");
        rename(cfg, "bias", "use_bias");
    } else if (type == "Dropout") {
        rename(cfg, "p", "rate");
    } else if (type == "BatchNormalization") {
        const auto mode = cfg.value("mode", json(0));
        if (mode != json(0))
            detail::throw_unsupported(file, name, "BatchNormalization with mode " + mode.dump(),
                                      "Keras 1 modes 1 and 2 normalise with the statistics of "
                                      "each batch or sample, not stored ones; retrain with mode 0");
    } else if (type == "ZeroPadding2D" && cfg.contains("padding")) {
        const auto& p = cfg["padding"];
        if (p.is_array() && p.size() == 4)  // (top, bottom, left, right)
            cfg["padding"] = json::array({json::array({p[0], p[1]}), json::array({p[2], p[3]})});
        else if (p.is_object())
            cfg["padding"] = json::array(
                {json::array({p.value("top_pad", json(0)), p.value("bottom_pad", json(0))}),
                 json::array({p.value("left_pad", json(0)), p.value("right_pad", json(0))})});
    } else if (type == "Merge") {
        const auto mode = text(cfg, "mode", "sum");
        if (mode == "sum") {
            t = "Add";
        } else if (mode == "concat") {
            t = "Concatenate";
            cfg["axis"] = cfg.value("concat_axis", json(-1));
        } else {
            detail::throw_unsupported(file, name, "Merge with mode '" + mode + "'",
                                      "only modes 'sum' (Add) and 'concat' (Concatenate) are "
                                      "supported");
        }
    }
    return {t, cfg};
}

}  // namespace volley::convert::keras
