// The tf.keras 2.x `model.save` HDF5 layout, written with the plain HDF5 C API.

#include <volley/convert/batch_norm.hpp>
#include <volley/convert/conv2d.hpp>
#include <volley/convert/dense.hpp>
#include <volley/convert/elementwise_layers.hpp>
#include <volley/convert/keras_layout.hpp>
#include <volley/convert/model_writers.hpp>
#include <volley/convert/pooling.hpp>
#include <volley/error.hpp>
#include <volley/snn/hdf5_image.hpp>

#include "io/writer_common.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace volley::convert {

namespace {

using nlohmann::json;

/// One Keras layer to write: its config and its weights (name, shape, values) in Keras layout.
struct keras_layer {
    std::string class_name, name;
    json config;
    struct weight {
        std::string name;
        std::vector<hsize_t> shape;
        std::vector<float> values;
    };
    std::vector<weight> weights;
};

json base_config(const std::string& name) {
    return {{"name", name}, {"trainable", true}, {"dtype", "float32"}};
}

/// Translates the model into Keras layers, folding ReLUs and making padding explicit.
std::vector<keras_layer> keras_layers(const sequential_model<float>& model) {
    std::vector<keras_layer> out;
    std::optional<shape4> flatten_input;
    std::size_t paddings = 0;
    for (std::size_t i = 0; i < model.size(); ++i) {
        if (detail::relu_is_folded(model, i)) continue;
        const auto& l = model.at(i);
        const shape4 in = i == 0 ? model.input_shape() : model.output_shape(i - 1);
        const std::string activation = detail::has_folded_relu(model, i) ? "relu" : "linear";
        const auto params = l.parameters();
        keras_layer k{"", l.name(), base_config(l.name()), {}};
        if (const auto* c = dynamic_cast<const conv2d<float>*>(&l)) {
            const auto& cfg = c->config();
            std::string padding = "valid";
            if (cfg.padding > 0) {
                if (cfg.stride == 1 && cfg.kernel_h == cfg.kernel_w && cfg.kernel_h % 2 == 1 &&
                    cfg.padding == (cfg.kernel_h - 1) / 2) {
                    padding = "same";
                } else {
                    const std::string pname =
                        paddings++ == 0 ? "zero_padding2d" : "zero_padding2d_" + std::to_string(paddings - 1);
                    auto pc = base_config(pname);
                    const auto p = static_cast<int>(cfg.padding);
                    pc["padding"] = {{p, p}, {p, p}};
                    pc["data_format"] = "channels_last";
                    out.push_back({"ZeroPadding2D", pname, pc, {}});
                }
            }
            k.class_name = "Conv2D";
            k.config.update({{"filters", cfg.out_channels},
                             {"kernel_size", {cfg.kernel_h, cfg.kernel_w}},
                             {"strides", {cfg.stride, cfg.stride}},
                             {"padding", padding},
                             {"data_format", "channels_last"},
                             {"dilation_rate", {1, 1}},
                             {"groups", 1},
                             {"activation", activation},
                             {"use_bias", true}});
            k.weights.push_back({"kernel:0",
                                 {cfg.kernel_h, cfg.kernel_w, cfg.in_channels, cfg.out_channels},
                                 oihw_to_hwio(params[0].values, cfg.out_channels, cfg.in_channels,
                                              cfg.kernel_h, cfg.kernel_w)});
            k.weights.push_back({"bias:0", {cfg.out_channels}, params[1].values});
        } else if (const auto* d = dynamic_cast<const dense<float>*>(&l)) {
            shape4 source{1, d->in_features(), 1, 1};
            if (flatten_input && flatten_input->per_image() == d->in_features())
                source = *flatten_input;
            else if (in.h != 1 || in.w != 1)
                throw invalid_parameter("Keras writer", "layer '" + l.name() + "'", to_string(in),
                                        "Dense on a spatial map needs a Flatten before it");
            flatten_input.reset();
            k.class_name = "Dense";
            k.config.update({{"units", d->out_features()}, {"activation", activation}, {"use_bias", true}});
            k.weights.push_back({"kernel:0",
                                 {d->in_features(), d->out_features()},
                                 dense_to_keras(params[0].values, d->out_features(), source.c,
                                                source.h, source.w)});
            k.weights.push_back({"bias:0", {d->out_features()}, params[1].values});
        } else if (const auto* p = dynamic_cast<const pool2d<float>*>(&l)) {
            k.class_name = p->pooling() == pool_kind::max ? "MaxPooling2D" : "AveragePooling2D";
            k.config.update({{"pool_size", {p->pool_size(), p->pool_size()}},
                             {"strides", {p->stride(), p->stride()}},
                             {"padding", "valid"},
                             {"data_format", "channels_last"}});
        } else if (dynamic_cast<const flatten<float>*>(&l)) {
            flatten_input = in;
            k.class_name = "Flatten";
            k.config["data_format"] = "channels_last";
        } else if (const auto* dr = dynamic_cast<const dropout<float>*>(&l)) {
            k.class_name = "Dropout";
            k.config["rate"] = dr->rate();
        } else if (dynamic_cast<const relu<float>*>(&l)) {
            k.class_name = "ReLU";
        } else if (const auto* bn = dynamic_cast<const batch_norm<float>*>(&l)) {
            k.class_name = "BatchNormalization";
            k.config.update({{"axis", {in.h == 1 && in.w == 1 ? 1 : 3}},
                             {"momentum", bn->momentum()},
                             {"epsilon", bn->epsilon()},
                             {"center", true},
                             {"scale", true}});
            const hsize_t c = bn->channels();
            k.weights.push_back({"gamma:0", {c}, params[0].values});
            k.weights.push_back({"beta:0", {c}, params[1].values});
            k.weights.push_back({"moving_mean:0", {c}, bn->moving_mean()});
            k.weights.push_back({"moving_variance:0", {c}, bn->moving_variance()});
        } else {
            throw invalid_parameter("Keras writer", "layer '" + l.name() + "'", l.kind(),
                                    "has no Keras equivalent");
        }
        out.push_back(std::move(k));
    }
    return out;
}

}  // namespace

void write_keras_h5(const sequential_model<float>& model, const std::filesystem::path& path,
                    const reference_batch& reference, const model_provenance& provenance) {
    const std::string file = path.string();
    const auto layers = keras_layers(model);
    const shape4 in = model.input_shape();
    json config_layers = json::array();
    config_layers.push_back(
        {{"class_name", "InputLayer"},
         {"config", {{"batch_input_shape", {nullptr, in.h, in.w, in.c}},
                     {"dtype", "float32"}, {"sparse", false}, {"ragged", false},
                     {"name", layers.front().name + "_input"}}}});
    for (const auto& k : layers) config_layers.push_back({{"class_name", k.class_name}, {"config", k.config}});
    config_layers[1]["config"]["batch_input_shape"] = {nullptr, in.h, in.w, in.c};
    const json model_config = {{"class_name", "Sequential"},
                               {"config", {{"name", "sequential"}, {"layers", config_layers}}}};

    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::create_hdf5_image(file);  // written whole at the end (hdf5_image.hpp)
    snn::detail::write_string_attribute(h5.get(), "keras_version", "2.11.0", file);
    snn::detail::write_string_attribute(h5.get(), "backend", "tensorflow", file);
    snn::detail::write_string_attribute(h5.get(), "model_config", model_config.dump(), file);
    snn::detail::write_string_attribute(h5.get(), "writer", "volley::convert::write_keras_h5", file);
    detail::write_provenance(h5.get(), provenance, file);
    auto weights = snn::detail::create_group(h5.get(), "model_weights", file);
    snn::detail::write_string_attribute(weights.get(), "keras_version", "2.11.0", file);
    snn::detail::write_string_attribute(weights.get(), "backend", "tensorflow", file);
    std::vector<std::string> names;
    for (const auto& k : layers) names.push_back(k.name);
    detail::write_string_array_attribute(weights.get(), "layer_names", names, file);
    for (const auto& k : layers) {
        auto group = snn::detail::create_group(weights.get(), k.name, file);
        std::vector<std::string> weight_names;
        for (const auto& w : k.weights) weight_names.push_back(k.name + "/" + w.name);
        detail::write_string_array_attribute(group.get(), "weight_names", weight_names, file);
        if (k.weights.empty()) continue;
        auto inner = snn::detail::create_group(group.get(), k.name, file);
        for (const auto& w : k.weights) detail::write_float_dataset(inner.get(), w.name, w.shape, w.values, file);
    }
    detail::write_reference_group(h5.get(), reference, true, file);
    snn::detail::write_hdf5_image(h5.get(), path);
}

}  // namespace volley::convert
