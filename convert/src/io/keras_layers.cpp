// One Keras layer into the graph (see keras_context.hpp): the per-type translation of the
// Keras reader, with kernels converted to OIHW and the Flatten trap resolved.

#include "io/keras_context.hpp"

#include <volley/convert/keras_layout.hpp>
#include <volley/error.hpp>

#include <set>

namespace volley::convert::keras {

namespace {

/// conv_utils.convert_kernel: reverses the spatial axes (a 180° rotation of each kernel), which
/// turns a Theano convolution kernel into the cross-correlation kernel of the graph.
void flip_kernel(conv2d_spec& c) {
    const std::size_t kh = c.kernel_h, kw = c.kernel_w, planes = c.kernel.size() / (kh * kw);
    std::vector<float> flipped(c.kernel.size());
    for (std::size_t p = 0; p < planes; ++p)
        for (std::size_t y = 0; y < kh; ++y)
            for (std::size_t x = 0; x < kw; ++x)
                flipped[(p * kh + y) * kw + x] = c.kernel[(p * kh + (kh - 1 - y)) * kw + (kw - 1 - x)];
    c.kernel = std::move(flipped);
}

/// Theano's 'same' as Keras's Theano backend runs it: border_mode 'half' (k / 2 zeros on both
/// sides), the output cut to the first ceil(in / s) positions (_postprocess_conv2d_output), so
/// the padding at the end is what those positions reach.
std::pair<std::size_t, std::size_t> theano_same_padding(std::size_t in, std::size_t k,
                                                        std::size_t s) {
    const std::size_t out = (in + s - 1) / s, top = k / 2;
    const std::size_t reach = (out - 1) * s + k;  // padded length the outputs read
    return {top, reach > in + top ? reach - in - top : 0};
}

}  // namespace

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
        if (depthwise && k.origin.theano)
            detail::throw_unsupported(file, name, type + " trained on the Theano backend",
                                      "Keras converts the kernels of Theano files only for "
                                      "Conv1D, Conv2D, Conv3D, Conv2DTranspose and ConvLSTM2D");
        const auto w = layer_weights(k, name, {"kernel", "bias"});
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
            if (k.origin.keras1 &&
                data_format(cfg, in_layout) == keras_layout::channels_first) {
                // Keras 1 'th': (filters, stack, rows, cols), already OIHW
                expect_shape(k, name, "kernel", kernel,
                             {c.out_channels, s.c / c.groups, c.kernel_h, c.kernel_w});
                c.kernel = kernel.values;
            } else {
                expect_shape(k, name, "kernel", kernel,
                             {c.kernel_h, c.kernel_w, s.c / c.groups, c.out_channels});
                c.kernel = hwio_to_oihw(kernel.values, c.out_channels, s.c / c.groups,
                                        c.kernel_h, c.kernel_w);
            }
            if (k.origin.theano) flip_kernel(c);
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
        if (padding == "same" && k.origin.theano) {
            if (c.dilation_h != 1 || c.dilation_w != 1)
                detail::throw_unsupported(file, name, type + " with padding 'same' and dilation "
                                                             "trained on the Theano backend");
            std::tie(c.pad_top, c.pad_bottom) = theano_same_padding(s.h, c.kernel_h, c.stride_h);
            std::tie(c.pad_left, c.pad_right) = theano_same_padding(s.w, c.kernel_w, c.stride_w);
        } else if (padding == "same") {
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
        const auto w = layer_weights(k, name, {"kernel", "bias"});
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
        if (padding == "same" && k.origin.theano)
            detail::throw_unsupported(file, name, type + " with padding 'same' trained on the "
                                                         "Theano backend",
                                      "Theano pads 'same' pooling windows differently from "
                                      "TensorFlow; use padding 'valid'");
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
        const auto w =
            layer_weights(k, name, {"gamma", "beta", "moving_mean", "moving_variance"});
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

}  // namespace volley::convert::keras
