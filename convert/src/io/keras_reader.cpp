// Keras HDF5 models (Keras 1.x and 2.x on TensorFlow, CNTK or Theano, tf.keras 2.x, and Keras 3's
// legacy .h5; old files: keras_legacy.cpp): the architecture from the `model_config` JSON, the
// weights from `model_weights/<layer>/...` (or the root of a save_weights file). Keras tensors
// are NHWC (channels_last) or NCHW (channels_first); the graph is always CHW, so this reader
// converts kernels (HWIO → OIHW) and resolves the Flatten trap: Keras 2.2+ Flatten permutes a
// channels_first tensor to channels_last before flattening, and a channels_last tensor is
// flattened in HWC order, so the Dense after it sees HWC order.

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/keras_layout.hpp>
#include <volley/error.hpp>
#include <volley/json_text.hpp>

#include "io/keras_context.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace volley::convert {

namespace keras {

std::size_t as_size(const json& v, const std::string& file, const std::string& where) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0)
        throw file_format_error(file, where, "expected a non-negative integer, found " + v.dump());
    return v.get<std::size_t>();
}

/// A Keras tuple argument: n or [a, b].
std::pair<std::size_t, std::size_t> pair_of(const json& cfg, const char* key, std::size_t fallback,
                                            const std::string& file, const std::string& layer) {
    if (!cfg.contains(key) || cfg[key].is_null()) return {fallback, fallback};
    const auto& v = cfg[key];
    const std::string where = "layer '" + layer + "' config '" + key + "'";
    if (v.is_array() && v.size() == 2)
        return {as_size(v[0], file, where), as_size(v[1], file, where)};
    if (v.is_array() && v.size() == 1)
        return {as_size(v[0], file, where), as_size(v[0], file, where)};
    const auto n = as_size(v, file, where);
    return {n, n};
}

std::string text(const json& cfg, const char* key, const std::string& fallback) {
    if (!cfg.contains(key) || cfg[key].is_null()) return fallback;
    if (cfg[key].is_string()) return cfg[key].get<std::string>();
    if (cfg[key].is_object() && cfg[key].contains("class_name"))  // Keras 3 serialised objects
        return cfg[key].contains("config") && cfg[key]["config"].is_object() &&
                       cfg[key]["config"].contains("name") && cfg[key]["config"]["name"].is_string()
                   ? cfg[key]["config"]["name"].get<std::string>()
                   : cfg[key]["class_name"].get<std::string>();
    return cfg[key].dump();
}

keras_layout data_format(const json& cfg, keras_layout fallback) {
    const auto f = text(cfg, "data_format", "");
    if (f == "channels_first") return keras_layout::channels_first;
    if (f == "channels_last") return keras_layout::channels_last;
    return fallback;
}

/// Reads the weights of `layer`, keyed by their role ("kernel", "bias", "gamma", ...).
std::map<std::string, detail::float_array> layer_weights(
    const keras_context& k, const std::string& layer,
    const std::vector<std::string>& keras1_roles) {
    std::map<std::string, detail::float_array> out;
    auto g = snn::detail::open_group_if_present(k.weights_root, layer);
    const std::string path = k.weights_path + layer;
    if (!g.valid()) return out;
    auto names = detail::read_string_list_attribute(g.get(), "weight_names", k.file());
    if (!names) {  // no weight_names attribute: take the datasets under <layer>/<layer>/
        names.emplace();
        auto inner = snn::detail::open_group_if_present(g.get(), layer);
        if (inner.valid())
            for (const auto& child :
                 snn::detail::child_names(inner.get(), k.file(), path + "/" + layer))
                names->push_back(layer + "/" + child);
    }
    if (k.origin.keras1 && !keras1_roles.empty()) {
        // Keras 1 names its weights '<layer>_W', '<layer>_W_1:0', ...; Keras loads them by
        // position, and so does this reader.
        if (names->size() > keras1_roles.size())
            throw file_format_error(k.file(), path,
                                    "Keras 1.x layer '" + layer + "' has " +
                                        std::to_string(names->size()) + " weights, expected " +
                                        std::to_string(keras1_roles.size()));
        for (std::size_t i = 0; i < names->size(); ++i)
            out[keras1_roles[i]] = detail::read_float_array(g.get(), (*names)[i], k.file(), path);
        return out;
    }
    for (const auto& full : *names) {
        std::string role =
            full.substr(full.rfind('/') == std::string::npos ? 0 : full.rfind('/') + 1);
        if (auto colon = role.find(':'); colon != std::string::npos) role.resize(colon);
        out[role] = detail::read_float_array(g.get(), full, k.file(), path);
    }
    return out;
}

const detail::float_array& need(const std::map<std::string, detail::float_array>& w,
                                const std::string& role, const keras_context& k,
                                const std::string& layer) {
    auto it = w.find(role);
    if (it == w.end())
        throw file_format_error(k.file(), k.weights_path + layer,
                                "missing weight dataset '" + role + "' of layer '" + layer + "'");
    return it->second;
}

void expect_shape(const keras_context& k, const std::string& layer, const char* role,
                  const detail::float_array& a, const std::vector<std::size_t>& shape) {
    if (a.shape != shape)
        throw file_format_error(k.file(), k.weights_path + layer + "/" + role,
                                "shape mismatch: " + detail::shape_text(a.shape) + ", expected " +
                                    detail::shape_text(shape));
}

/// The activation of a layer: false (linear), true (relu); softmax on the output is dropped.
bool activation(const keras_context& k, const json& cfg, const std::string& layer,
                const std::string& type, bool is_output) {
    const auto a = text(cfg, "activation", "linear");
    if (a == "linear" || a == "None") return false;
    if (a == "relu") return true;
    if (a == "softmax" && is_output) {
        k.b.graph().removed_softmax = true;
        return false;
    }
    detail::throw_unsupported(
        k.file(), layer, type + " with activation '" + a + "'",
        a == "softmax" ? "softmax is only supported on the output layer" : "");
}

/// Keras 'same' padding: total = max((ceil(in/s) − 1)·s + (k − 1)·d + 1 − in, 0), the extra
/// pixel at the end (bottom/right).
std::pair<std::size_t, std::size_t> same_padding(std::size_t in, std::size_t k, std::size_t s,
                                                 std::size_t d) {
    const std::size_t out = (in + s - 1) / s, span = (k - 1) * d + 1;
    const std::size_t need = (out - 1) * s + span;
    const std::size_t total = need > in ? need - in : 0;
    return {total / 2, total - total / 2};
}

/// Per-image CHW index of Keras memory position `m` of a tensor with layout `l` and shape `s`.
std::vector<std::uint32_t> keras_order(keras_layout l, const shape4& s) {
    std::vector<std::uint32_t> order(s.per_image());
    for (std::size_t c = 0; c < s.c; ++c)
        for (std::size_t y = 0; y < s.h; ++y)
            for (std::size_t x = 0; x < s.w; ++x) {
                const std::size_t chw = (c * s.h + y) * s.w + x;
                const std::size_t mem =
                    l == keras_layout::channels_last ? (y * s.w + x) * s.c + c : chw;
                order[mem] = static_cast<std::uint32_t>(chw);
            }
    return order;
}

shape4 node_shape(const keras_context& k, std::size_t node) {
    // shapes are only known after validate(); compute on the fly on a copy
    auto& g = k.b.graph();
    if (node == detail::model_input) return g.input_shape;
    cnn_graph copy;
    copy.source_file = g.source_file;
    copy.input_shape = g.input_shape;
    copy.nodes.assign(g.nodes.begin(), g.nodes.begin() + static_cast<std::ptrdiff_t>(node) + 1);
    copy.validate();
    return copy.nodes.back().output_shape;
}

keras_layout layout_of(const keras_context& k, std::size_t node) {
    return node == detail::model_input ? k.input_layout : k.layouts[node];
}

/// The channel axis (in CHW terms) named by a Keras `axis` for a tensor of layout `l`; false if
/// it is not the channel axis.
bool is_channel_axis(long axis, keras_layout l) {
    if (l == keras_layout::flat) return axis == -1 || axis == 1;
    if (l == keras_layout::channels_last) return axis == -1 || axis == 3;
    return axis == 1 || axis == -3;
}

}  // namespace keras

namespace {

using namespace keras;

/// The input shape (CHW) and layout from a batch_input_shape / batch_shape list.
void set_input(keras_context& k, const json& shape, keras_layout format) {
    std::vector<std::size_t> dims;
    for (std::size_t i = 1; i < shape.size(); ++i)
        dims.push_back(as_size(shape[i], k.file(), "input shape " + shape.dump()));
    auto& g = k.b.graph();
    if (dims.size() == 3) {
        k.input_layout = format;
        g.input_shape = format == keras_layout::channels_last
                            ? shape4{1, dims[2], dims[0], dims[1]}
                            : shape4{1, dims[0], dims[1], dims[2]};
    } else if (dims.size() == 2) {
        k.input_layout = keras_layout::channels_first;
        g.input_shape = {1, 1, dims[0], dims[1]};
    } else if (dims.size() == 1) {
        k.input_layout = keras_layout::flat;
        g.input_shape = {1, dims[0], 1, 1};
    } else {
        throw unsupported_model(k.file(),
                                "input shape " + shape.dump() + " is not an image or vector");
    }
}

const json* input_shape_of(const json& cfg) {
    for (const char* key : {"batch_input_shape", "batch_shape"})
        if (cfg.contains(key) && cfg[key].is_array()) return &cfg[key];
    return nullptr;
}

/// The data format of the first layer that states one (the input's layout).
keras_layout model_format(const json& layers) {
    for (const auto& l : layers) {
        const auto& cfg = l.value("config", json::object());
        const auto f = text(cfg, "data_format", "");
        if (f == "channels_first") return keras_layout::channels_first;
        if (f == "channels_last") return keras_layout::channels_last;
    }
    return keras_layout::channels_last;
}

/// The names of the layers a Functional layer reads (tf.keras 2.x lists or Keras 3 dicts).
void collect_inbound(const json& v, std::vector<std::string>& out) {
    if (v.is_object()) {
        if (v.contains("keras_history") && v["keras_history"].is_array()) {
            out.push_back(v["keras_history"][0].get<std::string>());
            return;
        }
        for (const auto& [key, item] : v.items()) collect_inbound(item, out);
        return;
    }
    if (!v.is_array()) return;
    if (!v.empty() && v[0].is_string() && v.size() >= 3 &&
        v[1].is_number()) {  // [name, node, tensor, kwargs]
        out.push_back(v[0].get<std::string>());
        return;
    }
    for (const auto& item : v) collect_inbound(item, out);
}

/// The layers of a Keras 1 model as Keras 2 layers (keras1_layer).
json keras2_layers(const json& layers, const std::string& file) {
    json out = json::array();
    for (std::size_t i = 0; i < layers.size(); ++i) {
        json l = layers[i];
        const auto type = l.value("class_name", std::string());
        const auto& cfg = l.value("config", json::object());
        const auto name =
            l.value("name", cfg.value("name", type + "_" + std::to_string(i)));
        auto [t, c] = keras1_layer(type, cfg, file, name);
        l["class_name"] = t;
        l["config"] = c;
        out.push_back(std::move(l));
    }
    return out;
}

cnn_graph build(const json& model, detail::graph_builder& b, hid_t root, hid_t weights_root,
                const std::string& weights_path) {
    const std::string& file = b.file();
    const auto cls = model.value("class_name", std::string());
    const json& config = model.contains("config") ? model["config"] : json::object();
    const json& stored = config.is_array() ? config : config.value("layers", json::array());
    if (!stored.is_array() || stored.empty())
        throw file_format_error(file, "model_config", "no layers");
    keras_context k{b, weights_root, weights_path, {}, keras_layout::channels_last};
    k.origin = read_keras_origin(root, weights_root, model, file);
    const json layers = k.origin.keras1 ? keras2_layers(stored, file) : stored;
    const keras_layout format = model_format(layers);
    if (cls == "Sequential") {
        std::size_t previous = detail::model_input;
        bool have_input = false;
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const auto& l = layers[i];
            const auto type = l.value("class_name", std::string());
            const auto& cfg = l.value("config", json::object());
            const auto name = cfg.value("name", type + "_" + std::to_string(i));
            if (!have_input) {
                const json* shape = input_shape_of(cfg);
                if (!shape)
                    throw file_format_error(
                        file, "model_config",
                        "the first layer '" + name + "' has no batch_input_shape");
                set_input(k, *shape, data_format(cfg, format));
                have_input = true;
            }
            if (type == "Sequential" || type == "Functional" || type == "Model")
                detail::throw_unsupported(file, name, type,
                                          "nested models; flatten the model first");
            bool is_output = true;  // output: no later layer other than removable ones
            for (std::size_t j = i + 1; j < layers.size(); ++j) {
                const auto t = layers[j].value("class_name", std::string());
                if (t != "Dropout" && t != "Softmax" && t != "Activation") is_output = false;
                if (t == "Activation" &&
                    text(layers[j].value("config", json::object()), "activation", "") != "softmax")
                    is_output = false;
            }
            add_layer(k, type, cfg, name, {previous}, is_output);
            previous = b.resolve(name, name);
        }
    } else if (cls == "Functional" || cls == "Model") {
        const auto& outputs = config.value("output_layers", json::array());
        std::vector<std::string> out_names;
        collect_inbound(outputs, out_names);
        const auto& inputs = config.value("input_layers", json::array());
        std::vector<std::string> in_names;
        collect_inbound(inputs, in_names);
        if (in_names.size() != 1 || out_names.size() != 1)
            throw unsupported_model(file, "a model with " + std::to_string(in_names.size()) +
                                              " inputs and " + std::to_string(out_names.size()) +
                                              " outputs; only one of each is supported");
        for (const auto& l : layers) {
            const auto type = l.value("class_name", std::string());
            const auto& cfg = l.value("config", json::object());
            const auto name = l.value("name", cfg.value("name", std::string()));
            std::vector<std::string> inbound;
            if (l.contains("inbound_nodes")) {
                if (l["inbound_nodes"].size() > 1)
                    detail::throw_unsupported(file, name, type, "a layer shared by several calls");
                collect_inbound(l["inbound_nodes"], inbound);
            }
            if (type == "InputLayer" || name == in_names.front()) {
                const json* shape = input_shape_of(cfg);
                if (!shape)
                    throw file_format_error(file, "model_config",
                                            "input layer '" + name + "' has no shape");
                set_input(k, *shape, format);
                b.name_input(name);
                continue;
            }
            if (type == "Sequential" || type == "Functional" || type == "Model")
                detail::throw_unsupported(file, name, type,
                                          "nested models; flatten the model first");
            if (inbound.empty())
                throw file_format_error(file, "model_config",
                                        "layer '" + name + "' has no inbound nodes");
            std::vector<std::size_t> ins;
            for (const auto& s : inbound) ins.push_back(b.resolve(s, name));
            add_layer(k, type, cfg, name, ins, name == out_names.front());
        }
        const auto out = b.resolve(out_names.front(), "output");
        if (out == detail::model_input || out + 1 != b.graph().nodes.size())
            throw unsupported_model(file, "the output layer '" + out_names.front() +
                                              "' is not the last layer of the graph");
    } else {
        throw unsupported_model(
            file, "model class '" + cls + "' (expected Sequential, Functional or Model)");
    }
    return b.finish();
}

/// build(), with a JSON value of the wrong type anywhere in the model's configuration (a string
/// where an object is read with value(), ...) a file_format_error naming `config_source` instead of
/// nlohmann's type_error escaping (found by tests/fuzz).
cnn_graph build_checked(const json& model, detail::graph_builder& b, hid_t root, hid_t weights_root,
                        const std::string& weights_path, const std::string& config_source,
                        const std::string& config_object) {
    try {
        return build(model, b, root, weights_root, weights_path);
    } catch (const json::exception& e) {
        throw file_format_error(config_source, config_object,
                                std::string("unexpected model configuration: ") + e.what());
    }
}

json parse(const std::string& text, const std::string& file, const std::string& where) {
    return parse_json_text(text, file, where);
}

}  // namespace

cnn_graph read_keras_h5(const std::filesystem::path& path) {
    const std::string file = path.string();
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::open_hdf5_file(path, false);
    const auto config = detail::read_text_attribute(h5.get(), "model_config", file);
    if (!config)
        throw file_format_error(file, "/",
                                "no 'model_config' attribute: this is a Keras save_weights file "
                                "(weights only); give the model's architecture JSON "
                                "(model.to_json()) too: volley convert " + file +
                                    " --architecture model.json (C++: read_keras_weights)");
    auto weights = snn::detail::open_group_if_present(h5.get(), "model_weights");
    if (!weights.valid()) throw file_format_error(file, "/model_weights", "missing group");
    detail::graph_builder b(file, "keras");
    return build_checked(parse(*config, file, "model_config"), b, h5.get(), weights.get(),
                         "/model_weights/", file, "model_config");
}

cnn_graph read_keras_weights(const std::filesystem::path& weights_file,
                             const std::filesystem::path& architecture_json) {
    const std::string file = weights_file.string();
    std::ifstream in(architecture_json);
    if (!in) throw io_error(architecture_json.string(), "cannot open the architecture JSON");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto model = parse(text, architecture_json.string(), "");
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::open_hdf5_file(weights_file, false);
    auto weights = snn::detail::open_group_if_present(h5.get(), "model_weights");
    detail::graph_builder b(file, "keras-weights+json");
    const std::string source = architecture_json.string();
    if (weights.valid())
        return build_checked(model, b, h5.get(), weights.get(), "/model_weights/", source, "");
    return build_checked(model, b, h5.get(), h5.get(), "/", source, "");
}

}  // namespace volley::convert
