// Keras HDF5 models (Keras 2.2.x, tf.keras 2.x, and Keras 3's legacy .h5): the architecture from
// the `model_config` JSON, the weights from `model_weights/<layer>/...` (or the root of a
// save_weights file). Keras tensors are NHWC (channels_last) or NCHW (channels_first); the graph
// is always CHW, so this reader converts kernels (HWIO → OIHW) and resolves the Flatten trap:
// Keras 2.2+ Flatten permutes a channels_first tensor to channels_last before flattening, and a
// channels_last tensor is flattened in HWC order, so the Dense after it sees HWC order.

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/keras_layout.hpp>
#include <volley/error.hpp>

#include "io/graph_builder.hpp"
#include "io/h5_read.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace volley::convert {

namespace {

using detail::hdf5_id;
using nlohmann::json;

/// How a Keras tensor's values are laid out in Keras's memory.
enum class keras_layout { channels_last, channels_first, flat };

struct keras_context {
    detail::graph_builder& b;
    hid_t weights_root;  // model_weights (model.save) or the root (save_weights)
    std::string weights_path;
    std::vector<keras_layout> layouts;  // per graph node
    keras_layout input_layout = keras_layout::channels_last;
    const std::string& file() const { return b.file(); }
};

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
std::map<std::string, detail::float_array> layer_weights(const keras_context& k,
                                                         const std::string& layer) {
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

/// Adds one Keras layer to the graph.
void add_layer(keras_context& k, const std::string& type, const json& cfg, const std::string& name,
               const std::vector<std::size_t>& inputs, bool is_output) {
    auto& b = k.b;
    const std::string& file = k.file();
    const std::size_t in = inputs.front();
    const keras_layout in_layout = layout_of(k, in);
    layer_node n;
    n.name = name;
    n.source_type = type;
    keras_layout out_layout = in_layout;
    auto finish = [&](layer_node node) {
        const auto index = b.add(std::move(node), inputs);
        k.layouts.resize(index + 1);
        k.layouts[index] = out_layout;
    };
    auto check_image = [&] {
        if (in_layout == keras_layout::flat)
            throw unsupported_model(file, "layer '" + name + "' (" + type +
                                              ") needs an image (c, h, w) input, but its input is "
                                              "a flat vector; add a Reshape before it");
    };
    if (type == "Conv2D" || type == "Convolution2D" || type == "DepthwiseConv2D" ||
        type == "SeparableConv2D") {
        // DepthwiseConv2D is a Conv2D with groups = in channels; SeparableConv2D is a depthwise
        // node (named "<layer>/depthwise", no bias) followed by a 1x1 Conv2D.
        check_image();
        const bool depthwise = type == "DepthwiseConv2D" || type == "SeparableConv2D";
        const bool separable = type == "SeparableConv2D";
        const auto w = layer_weights(k, name);
        const auto& kernel = need(w, depthwise ? "depthwise_kernel" : "kernel", k, name);
        const shape4 s = node_shape(k, in);
        auto& c = n.conv;
        n.kind = layer_kind::conv2d;
        c.in_channels = s.c;
        std::tie(c.kernel_h, c.kernel_w) = pair_of(cfg, "kernel_size", 1, file, name);
        std::tie(c.stride_h, c.stride_w) = pair_of(cfg, "strides", 1, file, name);
        std::tie(c.dilation_h, c.dilation_w) = pair_of(cfg, "dilation_rate", 1, file, name);
        if (depthwise) {
            const std::size_t mult = as_size(cfg.value("depth_multiplier", json(1)), file,
                                             "layer '" + name + "' depth_multiplier");
            c.groups = s.c;
            c.out_channels = s.c * mult;
            expect_shape(k, name, "depthwise_kernel", kernel, {c.kernel_h, c.kernel_w, s.c, mult});
            // (kh, kw, in, mult) has the memory order of HWIO (kh, kw, 1, in·mult)
            c.kernel = hwio_to_oihw(kernel.values, c.out_channels, 1, c.kernel_h, c.kernel_w);
        } else {
            c.groups = cfg.contains("groups") ? as_size(cfg["groups"], file, name + " groups") : 1;
            c.out_channels =
                as_size(cfg.value("filters", json(0)), file, "layer '" + name + "' filters");
            if (c.groups == 0 || s.c % c.groups)
                throw file_format_error(file, "layer '" + name + "'",
                                        "groups = " + std::to_string(c.groups) +
                                            " does not divide " + std::to_string(s.c) +
                                            " channels");
            expect_shape(k, name, "kernel", kernel,
                         {c.kernel_h, c.kernel_w, s.c / c.groups, c.out_channels});
            c.kernel =
                hwio_to_oihw(kernel.values, c.out_channels, s.c / c.groups, c.kernel_h, c.kernel_w);
        }
        const std::size_t bias_size =
            separable ? as_size(cfg.value("filters", json(0)), file, "layer '" + name + "' filters")
                      : c.out_channels;
        std::vector<float> bias(bias_size, 0.0f);
        if (cfg.value("use_bias", true)) {
            const auto& b_values = need(w, "bias", k, name);
            expect_shape(k, name, "bias", b_values, {bias_size});
            bias = b_values.values;
        }
        const auto padding = text(cfg, "padding", "valid");
        if (padding == "same") {
            std::tie(c.pad_top, c.pad_bottom) =
                same_padding(s.h, c.kernel_h, c.stride_h, c.dilation_h);
            std::tie(c.pad_left, c.pad_right) =
                same_padding(s.w, c.kernel_w, c.stride_w, c.dilation_w);
        } else if (padding != "valid") {
            detail::throw_unsupported(file, name, type + " with padding '" + padding + "'",
                                      "use padding 'valid' or 'same'");
        }
        out_layout = data_format(cfg, in_layout);
        if (out_layout != in_layout)
            throw unsupported_model(file, "layer '" + name + "' changes data_format mid-model");
        const bool relu = activation(k, cfg, name, type, is_output);
        if (separable) {
            c.bias.assign(c.out_channels, 0.0f);
            layer_node pw;
            pw.name = name;
            pw.source_type = type;
            pw.kind = layer_kind::conv2d;
            pw.relu = relu;
            pw.conv.in_channels = c.out_channels;
            pw.conv.out_channels = bias_size;
            const auto& pk = need(w, "pointwise_kernel", k, name);
            expect_shape(k, name, "pointwise_kernel", pk, {1, 1, c.out_channels, bias_size});
            pw.conv.kernel = hwio_to_oihw(pk.values, bias_size, c.out_channels, 1, 1);
            pw.conv.bias = std::move(bias);
            n.name = name + "/depthwise";
            const auto di = b.add(std::move(n), inputs);
            k.layouts.resize(di + 1);
            k.layouts[di] = out_layout;
            const auto index = b.add(std::move(pw), {di});
            k.layouts.resize(index + 1);
            k.layouts[index] = out_layout;
            return;
        }
        c.bias = std::move(bias);
        n.relu = relu;
    } else if (type == "Dense") {
        const auto w = layer_weights(k, name);
        const auto& kernel = need(w, "kernel", k, name);
        const shape4 s = node_shape(k, in);
        if (in_layout != keras_layout::flat && !(s.h == 1 && s.w == 1))
            throw unsupported_model(file, "layer '" + name + "' (Dense) reads an image tensor " +
                                              to_string(s) + "; add a Flatten before it");
        n.kind = layer_kind::dense;
        n.dense.in_features = s.per_image();
        n.dense.out_features =
            as_size(cfg.value("units", json(0)), file, "layer '" + name + "' units");
        expect_shape(k, name, "kernel", kernel, {n.dense.in_features, n.dense.out_features});
        // (in, out) over the input's flat order, which is the graph's CHW-flat order for a flat
        // tensor (a Flatten's permutation is folded into this kernel by graph_builder::finish).
        n.dense.kernel =
            dense_from_keras(kernel.values, n.dense.out_features, n.dense.in_features, 1, 1);
        if (cfg.value("use_bias", true)) {
            const auto& bias = need(w, "bias", k, name);
            expect_shape(k, name, "bias", bias, {n.dense.out_features});
            n.dense.bias = bias.values;
        } else {
            n.dense.bias.assign(n.dense.out_features, 0.0f);
        }
        n.relu = activation(k, cfg, name, type, is_output);
        out_layout = keras_layout::flat;
    } else if (type == "AveragePooling2D" || type == "MaxPooling2D" || type == "AvgPool2D" ||
               type == "MaxPool2D") {
        check_image();
        const bool is_max = type.front() == 'M';
        n.kind = is_max ? layer_kind::max_pool : layer_kind::avg_pool;
        std::tie(n.pool.pool_h, n.pool.pool_w) = pair_of(cfg, "pool_size", 2, file, name);
        n.pool.stride_h = n.pool.pool_h, n.pool.stride_w = n.pool.pool_w;
        if (cfg.contains("strides") && !cfg["strides"].is_null())
            std::tie(n.pool.stride_h, n.pool.stride_w) = pair_of(cfg, "strides", 1, file, name);
        const auto padding = text(cfg, "padding", "valid");
        if (padding == "same") {
            const shape4 s = node_shape(k, in);
            const auto [t, bo] = same_padding(s.h, n.pool.pool_h, n.pool.stride_h, 1);
            const auto [l, r] = same_padding(s.w, n.pool.pool_w, n.pool.stride_w, 1);
            const bool non_negative = in != detail::model_input && k.b.graph().nodes[in].relu;
            if (t + bo + l + r > 0) {
                if (!is_max || !non_negative)
                    detail::throw_unsupported(
                        file, name, type + " with padding 'same'",
                        is_max ? "its input may be negative" : "average pooling over padding");
                layer_node pad;
                pad.name = name + "/same_padding";
                pad.source_type = type;
                pad.kind = layer_kind::zero_pad;
                pad.pad = {t, bo, l, r};  // max over ReLU outputs (>= 0): zeros never win wrongly
                const auto pi = b.add(std::move(pad), inputs);
                k.layouts.resize(pi + 1);
                k.layouts[pi] = in_layout;
                n.relu = false;
                const auto index = b.add(std::move(n), {pi});
                k.layouts.resize(index + 1);
                k.layouts[index] = in_layout;
                b.alias(name, index);
                return;
            }
        } else if (padding != "valid") {
            detail::throw_unsupported(file, name, type + " with padding '" + padding + "'");
        }
    } else if (type == "GlobalAveragePooling2D" || type == "GlobalAvgPool2D") {
        check_image();
        const shape4 s = node_shape(k, in);
        n.kind = layer_kind::avg_pool;
        n.pool = {s.h, s.w, s.h, s.w};
        if (cfg.value("keepdims", false) == false) out_layout = keras_layout::flat;
    } else if (type == "Flatten") {
        const shape4 s = node_shape(k, in);
        n.kind = layer_kind::flatten;
        out_layout = keras_layout::flat;
        // Keras 2.2+: a channels_first Flatten transposes to channels_last first.
        keras_layout order = in_layout;
        if (in_layout == keras_layout::channels_first &&
            data_format(cfg, keras_layout::channels_last) == keras_layout::channels_first)
            order = keras_layout::channels_last;
        if (order == keras_layout::channels_last && s.c > 1 && s.h * s.w > 1)
            n.permutation = keras_order(keras_layout::channels_last, s);
    } else if (type == "Reshape") {
        const shape4 s = node_shape(k, in);
        const auto& target = cfg.value("target_shape", json::array());
        std::vector<std::size_t> t;
        for (const auto& v : target)
            t.push_back(as_size(v, file, "layer '" + name + "' target_shape"));
        n.kind = layer_kind::reshape;
        // In Keras memory order the reshape is free; map graph CHW → Keras memory → target.
        const auto from = in_layout == keras_layout::flat
                              ? keras_order(keras_layout::channels_first, s)
                              : keras_order(in_layout, s);
        shape4 out;
        keras_layout target_layout;
        if (t.size() == 1) {
            out = {1, t[0], 1, 1}, target_layout = keras_layout::flat;
        } else if (t.size() == 3) {
            target_layout = k.input_layout == keras_layout::channels_first
                                ? keras_layout::channels_first
                                : keras_layout::channels_last;
            out = target_layout == keras_layout::channels_last ? shape4{1, t[2], t[0], t[1]}
                                                               : shape4{1, t[0], t[1], t[2]};
        } else if (t.size() == 2) {
            out = {1, 1, t[0], t[1]}, target_layout = keras_layout::channels_first;
        } else {
            detail::throw_unsupported(file, name, type + " to rank " + std::to_string(t.size()));
        }
        if (out.per_image() != s.per_image())
            throw file_format_error(file, "layer '" + name + "'",
                                    "shape mismatch: target_shape holds " +
                                        std::to_string(out.per_image()) + " values, the input " +
                                        std::to_string(s.per_image()));
        const auto to = keras_order(
            target_layout == keras_layout::flat ? keras_layout::channels_first : target_layout,
            out);
        // out CHW index to[m] takes the value at input CHW index from[m]
        n.permutation.assign(out.per_image(), 0);
        bool identity = true;
        for (std::size_t m = 0; m < to.size(); ++m) {
            n.permutation[to[m]] = from[m];
            identity = identity && to[m] == from[m];
        }
        if (identity) n.permutation.clear();
        n.output_shape = out;
        out_layout = target_layout;
    } else if (type == "ZeroPadding2D") {
        check_image();
        n.kind = layer_kind::zero_pad;
        const auto& p = cfg.value("padding", json(1));
        const std::string where = "layer '" + name + "' padding";
        if (p.is_array() && p.size() == 2 && p[0].is_array()) {
            n.pad = {as_size(p[0][0], file, where), as_size(p[0][1], file, where),
                     as_size(p[1][0], file, where), as_size(p[1][1], file, where)};
        } else {
            const auto [h, w] = pair_of(cfg, "padding", 1, file, name);
            n.pad = {h, h, w, w};
        }
    } else if (type == "Activation") {
        n.kind = layer_kind::identity;
        n.relu = activation(k, cfg, name, type, is_output);
        if (!n.relu && !is_output) {
            b.alias(name, in);
            return;
        }
    } else if (type == "ReLU") {
        const double slope = cfg.value("negative_slope", 0.0),
                     threshold = cfg.value("threshold", 0.0);
        if (cfg.contains("max_value") && !cfg["max_value"].is_null())
            detail::throw_unsupported(file, name, "ReLU with max_value " + cfg["max_value"].dump(),
                                      "a clipped ReLU; retrain with plain ReLU (the conversion's "
                                      "normalisation clips at the percentile by itself)");
        if (slope != 0 || threshold != 0)
            detail::throw_unsupported(file, name, "ReLU with negative_slope/threshold",
                                      "use ReLU with negative_slope 0 and threshold 0");
        n.kind = layer_kind::relu;
    } else if (type == "Softmax") {
        if (!is_output) detail::throw_unsupported(file, name, type);
        b.graph().removed_softmax = true;
        b.alias(name, in);
        return;
    } else if (type == "Dropout" || type == "SpatialDropout2D" || type == "GaussianNoise" ||
               type == "GaussianDropout" || type == "AlphaDropout" ||
               type == "ActivityRegularization") {
        b.alias(name, in);
        b.graph().removed_layers.push_back(name);
        return;
    } else if (type == "BatchNormalization") {
        const auto axis = cfg.contains("axis")
                              ? (cfg["axis"].is_array() ? cfg["axis"][0] : cfg["axis"])
                              : json(-1);
        if (!axis.is_number_integer() || !is_channel_axis(axis.get<long>(), in_layout))
            detail::throw_unsupported(file, name, type + " over axis " + axis.dump(),
                                      "normalise the channel axis");
        const auto w = layer_weights(k, name);
        const shape4 s = node_shape(k, in);
        const std::size_t ch = s.c;
        std::vector<float> gamma(ch, 1.0f), beta(ch, 0.0f);
        if (cfg.value("scale", true)) gamma = need(w, "gamma", k, name).values;
        if (cfg.value("center", true)) beta = need(w, "beta", k, name).values;
        const auto& mean = need(w, "moving_mean", k, name);
        const auto& var = need(w, "moving_variance", k, name);
        b.fold_batch_norm(name, type, in, gamma, beta, mean.values, var.values,
                          cfg.value("epsilon", 1e-3));
        return;
    } else if (type == "Add") {
        n.kind = layer_kind::add;
    } else if (type == "Concatenate") {
        n.kind = layer_kind::concatenate;
        const long axis = cfg.value("axis", -1L);
        if (!is_channel_axis(axis, in_layout))
            detail::throw_unsupported(file, name, type + " over axis " + std::to_string(axis),
                                      "only the channel axis is supported");
    } else if (type == "InputLayer") {
        b.alias(name, detail::model_input);
        return;
    } else {
        detail::throw_unsupported(file, name, type);
    }
    finish(std::move(n));
}

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

cnn_graph build(const json& model, detail::graph_builder& b, hid_t weights_root,
                const std::string& weights_path) {
    const std::string& file = b.file();
    const auto cls = model.value("class_name", std::string());
    const json& config = model.contains("config") ? model["config"] : json::object();
    const json& layers = config.is_array() ? config : config.value("layers", json::array());
    if (!layers.is_array() || layers.empty())
        throw file_format_error(file, "model_config", "no layers");
    keras_context k{b, weights_root, weights_path, {}, keras_layout::channels_last};
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

json parse(const std::string& text, const std::string& file, const std::string& where) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        throw file_format_error(file, where, std::string("malformed JSON: ") + e.what());
    }
}

}  // namespace

cnn_graph read_keras_h5(const std::filesystem::path& path) {
    const std::string file = path.string();
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::open_hdf5_file(path, false);
    const auto config = detail::read_text_attribute(h5.get(), "model_config", file);
    if (!config)
        throw file_format_error(file, "/",
                                "no 'model_config' attribute: a save_weights file needs the "
                                "architecture JSON as well (read_keras_weights, --architecture)");
    auto weights = snn::detail::open_group_if_present(h5.get(), "model_weights");
    if (!weights.valid()) throw file_format_error(file, "/model_weights", "missing group");
    detail::graph_builder b(file, "keras");
    return build(parse(*config, file, "model_config"), b, weights.get(), "/model_weights/");
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
    if (weights.valid()) return build(model, b, weights.get(), "/model_weights/");
    return build(model, b, h5.get(), "/");
}

}  // namespace volley::convert
