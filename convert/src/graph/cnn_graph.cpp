// The layer graph: names, shape inference and validation, the summary, and BatchNorm folding.

#include <volley/convert/cnn_graph.hpp>
#include <volley/error.hpp>

#include <cmath>
#include <sstream>

namespace volley::convert {

namespace {

std::string where(const cnn_graph& g, const layer_node& n) {
    return g.source_file + ": layer '" + n.name + "' (" + n.source_type + ")";
}

/// Output length of a window op along one axis; throws if the window does not fit.
std::size_t window_out(const cnn_graph& g, const layer_node& n, const char* axis, std::size_t in,
                       std::size_t pad_a, std::size_t pad_b, std::size_t k, std::size_t stride,
                       std::size_t dilation) {
    const std::size_t span = dilation * (k - 1) + 1, padded = in + pad_a + pad_b;
    if (padded < span)
        throw invalid_parameter(where(g, n), std::string("input ") + axis, std::to_string(in),
                                "smaller than the window " + std::to_string(span));
    return (padded - span) / stride + 1;
}

void check_finite(const cnn_graph& g, const layer_node& n, const char* what,
                  const std::vector<float>& v) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!std::isfinite(v[i]))
            throw file_format_error(
                g.source_file, "layer '" + n.name + "' " + what,
                "non-finite weight " + std::to_string(v[i]) + " at index " + std::to_string(i));
}

void check_size(const cnn_graph& g, const layer_node& n, const char* what,
                const std::vector<float>& v, std::size_t expected) {
    if (v.size() != expected)
        throw file_format_error(g.source_file, "layer '" + n.name + "' " + what,
                                "shape mismatch: " + std::to_string(v.size()) +
                                    " values, expected " + std::to_string(expected));
}

shape4 infer(const cnn_graph& g, const layer_node& n, const std::vector<shape4>& ins) {
    const shape4& in = ins.front();
    auto positive = [&](const char* what, std::size_t v) {
        if (v == 0) throw invalid_parameter(where(g, n), what, "0", "must be >= 1");
    };
    switch (n.kind) {
        case layer_kind::conv2d: {
            const auto& c = n.conv;
            positive("kernel_h", c.kernel_h), positive("kernel_w", c.kernel_w);
            positive("stride_h", c.stride_h), positive("stride_w", c.stride_w);
            positive("dilation_h", c.dilation_h), positive("dilation_w", c.dilation_w);
            positive("groups", c.groups), positive("out_channels", c.out_channels);
            if (in.c != c.in_channels)
                throw invalid_parameter(
                    where(g, n), "input channels", std::to_string(in.c),
                    "shape mismatch: the kernel expects " + std::to_string(c.in_channels));
            if (c.in_channels % c.groups || c.out_channels % c.groups)
                throw invalid_parameter(where(g, n), "groups", std::to_string(c.groups),
                                        "must divide in and out channels");
            check_size(g, n, "kernel", c.kernel,
                       c.out_channels * (c.in_channels / c.groups) * c.kernel_h * c.kernel_w);
            check_size(g, n, "bias", c.bias, c.out_channels);
            check_finite(g, n, "kernel", c.kernel);
            check_finite(g, n, "bias", c.bias);
            return {1, c.out_channels,
                    window_out(g, n, "height", in.h, c.pad_top, c.pad_bottom, c.kernel_h,
                               c.stride_h, c.dilation_h),
                    window_out(g, n, "width", in.w, c.pad_left, c.pad_right, c.kernel_w, c.stride_w,
                               c.dilation_w)};
        }
        case layer_kind::dense: {
            const auto& d = n.dense;
            if (in.per_image() != d.in_features)
                throw invalid_parameter(
                    where(g, n), "input features", std::to_string(in.per_image()),
                    "shape mismatch: the kernel expects " + std::to_string(d.in_features));
            check_size(g, n, "kernel", d.kernel, d.in_features * d.out_features);
            check_size(g, n, "bias", d.bias, d.out_features);
            check_finite(g, n, "kernel", d.kernel);
            check_finite(g, n, "bias", d.bias);
            return {1, d.out_features, 1, 1};
        }
        case layer_kind::avg_pool:
        case layer_kind::max_pool: {
            const auto& p = n.pool;
            positive("pool_h", p.pool_h), positive("pool_w", p.pool_w);
            positive("stride_h", p.stride_h), positive("stride_w", p.stride_w);
            return {1, in.c, window_out(g, n, "height", in.h, 0, 0, p.pool_h, p.stride_h, 1),
                    window_out(g, n, "width", in.w, 0, 0, p.pool_w, p.stride_w, 1)};
        }
        case layer_kind::flatten:
            if (!n.permutation.empty() && n.permutation.size() != in.per_image())
                throw internal_error(where(g, n) + ": permutation size");
            return {1, in.per_image(), 1, 1};
        case layer_kind::reshape:
            if (n.output_shape.per_image() != in.per_image())
                throw invalid_parameter(
                    where(g, n), "target shape", to_string(n.output_shape),
                    "holds a different number of values than the input " + to_string(in));
            return n.output_shape;
        case layer_kind::zero_pad:
            return {1, in.c, in.h + n.pad.top + n.pad.bottom, in.w + n.pad.left + n.pad.right};
        case layer_kind::relu:
        case layer_kind::identity:
            return in;
        case layer_kind::add:
            for (const auto& s : ins)
                if (!(s == in))
                    throw invalid_parameter(where(g, n), "input shape", to_string(s),
                                            "differs from the first input " + to_string(in));
            return in;
        case layer_kind::concatenate: {
            shape4 out = in;
            out.c = 0;
            for (const auto& s : ins) {
                if (s.h != in.h || s.w != in.w)
                    throw invalid_parameter(where(g, n), "input shape", to_string(s),
                                            "height/width differ from " + to_string(in));
                out.c += s.c;
            }
            return out;
        }
    }
    throw internal_error("unknown layer kind");
}

}  // namespace

std::string_view to_string(layer_kind kind) noexcept {
    switch (kind) {
        case layer_kind::conv2d:
            return "conv2d";
        case layer_kind::dense:
            return "dense";
        case layer_kind::avg_pool:
            return "avg_pool";
        case layer_kind::max_pool:
            return "max_pool";
        case layer_kind::flatten:
            return "flatten";
        case layer_kind::reshape:
            return "reshape";
        case layer_kind::zero_pad:
            return "zero_pad";
        case layer_kind::relu:
            return "relu";
        case layer_kind::add:
            return "add";
        case layer_kind::concatenate:
            return "concatenate";
        case layer_kind::identity:
            return "identity";
    }
    return "?";
}

std::size_t cnn_graph::index_of(std::string_view name) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name) return i;
    throw unknown_name("layer", std::string(name), source_file);
}

std::size_t cnn_graph::parameter_count() const {
    std::size_t n = 0;
    for (const auto& l : nodes) {
        if (l.kind == layer_kind::conv2d) n += l.conv.kernel.size() + l.conv.bias.size();
        if (l.kind == layer_kind::dense) n += l.dense.kernel.size() + l.dense.bias.size();
    }
    return n;
}

void cnn_graph::validate() {
    if (nodes.empty()) throw file_format_error(source_file, "", "the model has no layers");
    if (input_shape.per_image() == 0)
        throw file_format_error(source_file, "",
                                "the input shape " + to_string(input_shape) + " is empty");
    input_shape = input_shape.with_batch(1);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        auto& n = nodes[i];
        std::vector<shape4> ins;
        if (n.inputs.empty()) ins.push_back(input_shape);
        for (auto j : n.inputs) {
            if (j >= i)
                throw file_format_error(source_file, "layer '" + n.name + "'",
                                        "reads a later layer (index " + std::to_string(j) + ")");
            ins.push_back(nodes[j].output_shape);
        }
        const bool multi = n.kind == layer_kind::add || n.kind == layer_kind::concatenate;
        if (multi ? ins.size() < 2 : ins.size() != 1)
            throw file_format_error(source_file, "layer '" + n.name + "'",
                                    std::to_string(ins.size()) + " inputs for a " +
                                        std::string(to_string(n.kind)) + " layer");
        n.output_shape = infer(*this, n, ins).with_batch(1);
    }
}

std::string summary(const cnn_graph& graph) {
    std::ostringstream out;
    auto chw = [](const shape4& s) {
        return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w);
    };
    for (const auto& n : graph.nodes) {
        out << to_string(n.kind) << " '" << n.name << "' ";
        if (n.inputs.empty()) out << chw(graph.input_shape);
        for (std::size_t k = 0; k < n.inputs.size(); ++k)
            out << (k ? "+" : "") << chw(graph.nodes[n.inputs[k]].output_shape);
        out << " -> " << chw(n.output_shape) << (n.relu ? " (relu)" : "") << "\n";
    }
    return out.str();
}

void fold_batch_norm(layer_node& node, const std::vector<float>& gamma,
                     const std::vector<float>& beta, const std::vector<float>& mean,
                     const std::vector<float>& variance, double epsilon) {
    const bool conv = node.kind == layer_kind::conv2d;
    if (!conv && node.kind != layer_kind::dense)
        throw invalid_parameter("BatchNorm after layer '" + node.name + "'", "previous layer",
                                std::string(to_string(node.kind)),
                                "BatchNorm can only be folded into a Conv2D or Dense layer");
    if (node.relu)
        throw invalid_parameter("BatchNorm after layer '" + node.name + "'", "activation", "relu",
                                "BatchNorm after the activation cannot be folded; put the "
                                "activation after the BatchNorm");
    const std::size_t channels = conv ? node.conv.out_channels : node.dense.out_features;
    for (const auto* v : {&gamma, &beta, &mean, &variance})
        if (v->size() != channels)
            throw invalid_parameter("BatchNorm after layer '" + node.name + "'", "channels",
                                    std::to_string(v->size()),
                                    "shape mismatch: the layer has " + std::to_string(channels));
    auto& kernel = conv ? node.conv.kernel : node.dense.kernel;
    auto& bias = conv ? node.conv.bias : node.dense.bias;
    if (bias.empty()) bias.assign(channels, 0.0f);
    const std::size_t per_channel = kernel.size() / channels;  // OIHW and (out, in): rows
    for (std::size_t c = 0; c < channels; ++c) {
        const double var = static_cast<double>(variance[c]) + epsilon;
        if (!(var > 0))
            throw invalid_parameter("BatchNorm after layer '" + node.name + "'",
                                    "moving_variance + epsilon", std::to_string(var),
                                    "must be > 0");
        const double scale = static_cast<double>(gamma[c]) / std::sqrt(var);
        for (std::size_t k = 0; k < per_channel; ++k) {
            float& w = kernel[c * per_channel + k];
            w = static_cast<float>(static_cast<double>(w) * scale);
        }
        bias[c] = static_cast<float>(static_cast<double>(beta[c]) +
                                     (static_cast<double>(bias[c]) - mean[c]) * scale);
    }
}

}  // namespace volley::convert
