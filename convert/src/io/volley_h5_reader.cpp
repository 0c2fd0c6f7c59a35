// The Volley HDF5 model layout (docs/conversion-formats.md): `/layers/<name>` groups with a
// `type` attribute and PyTorch weight layouts, the root attribute `layer_order`, the input shape
// in `input_shape_chw`. Written by `volley train` and convert/tools/export_torch.py.

#include <volley/convert/cnn_readers.hpp>
#include <volley/error.hpp>

#include "io/graph_builder.hpp"
#include "io/h5_read.hpp"

#include <algorithm>

namespace volley::convert {

namespace {

using detail::hdf5_id;

struct layer_reader {
    const std::string& file;
    hid_t group;
    std::string name, type, path;
    bool last = false;  ///< the output layer (a softmax activation is removed there)
    bool* removed_softmax = nullptr;

    std::optional<std::vector<std::int64_t>> ints(const char* attr) const {
        return detail::read_int_list_attribute(group, attr, file, path);
    }
    /// A geometry attribute that may be one value (both axes) or a pair (h, w).
    std::pair<std::size_t, std::size_t> pair(const char* attr, std::size_t fallback) const {
        auto v = ints(attr);
        if (!v) return {fallback, fallback};
        for (auto x : *v)
            if (x < 0)
                throw file_format_error(file, path + " attribute '" + attr + "'",
                                        "negative value " + std::to_string(x));
        if (v->size() == 1)
            return {static_cast<std::size_t>((*v)[0]), static_cast<std::size_t>((*v)[0])};
        if (v->size() == 2)
            return {static_cast<std::size_t>((*v)[0]), static_cast<std::size_t>((*v)[1])};
        throw file_format_error(file, path + " attribute '" + attr + "'",
                                "expected 1 or 2 values, found " + std::to_string(v->size()));
    }
    detail::float_array weight(const char* ds) const {
        return detail::read_float_array(group, ds, file, path);
    }
    std::optional<detail::float_array> optional_weight(const char* ds) const {
        if (!snn::detail::has_link(group, ds)) return std::nullopt;
        return weight(ds);
    }
};

void expect_shape(const layer_reader& r, const char* what, const detail::float_array& a,
                  const std::vector<std::size_t>& shape) {
    if (a.shape != shape)
        throw file_format_error(r.file, r.path + "/" + what,
                                "shape mismatch: " + detail::shape_text(a.shape) + ", expected " +
                                    detail::shape_text(shape));
}

bool read_activation(const layer_reader& r) {
    const auto a = detail::read_text_attribute(r.group, "activation", r.file);
    if (!a || *a == "linear" || *a == "none" || a->empty()) return false;
    if (*a == "relu") return true;
    if (*a == "softmax" && r.last) {
        *r.removed_softmax = true;
        return false;
    }
    detail::throw_unsupported(
        r.file, r.name, r.type + " with activation '" + *a + "'",
        *a == "softmax" ? "softmax is only supported on the output layer" : "");
}

layer_node read_conv(const layer_reader& r) {
    layer_node n;
    n.kind = layer_kind::conv2d;
    auto w = r.weight("weight");
    if (w.shape.size() != 4)
        throw file_format_error(
            r.file, r.path + "/weight",
            "shape mismatch: " + detail::shape_text(w.shape) + ", expected 4-D OIHW");
    auto& c = n.conv;
    c.groups = r.pair("groups", 1).first;
    c.out_channels = w.shape[0];
    c.in_channels = w.shape[1] * c.groups;
    if (auto ic = r.ints("in_channels");
        ic && static_cast<std::size_t>(ic->front()) != c.in_channels)
        throw file_format_error(r.file, r.path + "/weight",
                                "shape mismatch: " + detail::shape_text(w.shape) +
                                    " does not match in_channels = " + std::to_string(ic->front()));
    c.kernel_h = w.shape[2], c.kernel_w = w.shape[3];
    std::tie(c.stride_h, c.stride_w) = r.pair("stride", 1);
    std::tie(c.dilation_h, c.dilation_w) = r.pair("dilation", 1);
    auto pad = r.ints("padding");
    if (pad && pad->size() == 4) {  // top, bottom, left, right
        c.pad_top = static_cast<std::size_t>((*pad)[0]),
        c.pad_bottom = static_cast<std::size_t>((*pad)[1]);
        c.pad_left = static_cast<std::size_t>((*pad)[2]),
        c.pad_right = static_cast<std::size_t>((*pad)[3]);
    } else {
        const auto [ph, pw] = r.pair("padding", 0);
        c.pad_top = c.pad_bottom = ph;
        c.pad_left = c.pad_right = pw;
    }
    c.kernel = std::move(w.values);
    if (auto b = r.optional_weight("bias")) {
        expect_shape(r, "bias", *b, {c.out_channels});
        c.bias = std::move(b->values);
    } else {
        c.bias.assign(c.out_channels, 0.0f);
    }
    n.relu = read_activation(r);
    return n;
}

layer_node read_dense(const layer_reader& r) {
    layer_node n;
    n.kind = layer_kind::dense;
    auto w = r.weight("weight");
    if (w.shape.size() != 2)
        throw file_format_error(
            r.file, r.path + "/weight",
            "shape mismatch: " + detail::shape_text(w.shape) + ", expected (out, in)");
    n.dense.out_features = w.shape[0];
    n.dense.in_features = w.shape[1];
    n.dense.kernel = std::move(w.values);
    if (auto b = r.optional_weight("bias")) {
        expect_shape(r, "bias", *b, {n.dense.out_features});
        n.dense.bias = std::move(b->values);
    } else {
        n.dense.bias.assign(n.dense.out_features, 0.0f);
    }
    n.relu = read_activation(r);
    return n;
}

layer_node read_pool(const layer_reader& r, layer_kind kind) {
    layer_node n;
    n.kind = kind;
    std::tie(n.pool.pool_h, n.pool.pool_w) = r.pair("kernel", 2);
    std::tie(n.pool.stride_h, n.pool.stride_w) = r.pair("stride", n.pool.pool_h);
    if (!r.ints("stride")) n.pool.stride_w = n.pool.pool_w;
    if (auto p = r.ints("padding");
        p && std::any_of(p->begin(), p->end(), [](auto v) { return v != 0; }))
        detail::throw_unsupported(r.file, r.name, r.type + " with padding",
                                  "pooling with padding; add a zero_pad layer before it");
    return n;
}

}  // namespace

cnn_graph read_volley_h5(const std::filesystem::path& path) {
    const std::string file = path.string();
    snn::detail::hdf5_quiet quiet;
    auto h5 = snn::detail::open_hdf5_file(path, false);
    auto order = detail::read_string_list_attribute(h5.get(), "layer_order", file);
    if (!order) throw file_format_error(file, "/", "missing root attribute 'layer_order'");
    auto layers = snn::detail::open_group_if_present(h5.get(), "layers");
    if (!layers.valid()) throw file_format_error(file, "/layers", "missing group");
    auto shape = detail::read_int_list_attribute(h5.get(), "input_shape_chw", file, "/");
    if (!shape || shape->size() != 3)
        throw file_format_error(file, "/", "missing root attribute 'input_shape_chw' (c, h, w)");
    detail::graph_builder b(file, "volley");
    b.graph().input_shape = {1, static_cast<std::size_t>((*shape)[0]),
                             static_cast<std::size_t>((*shape)[1]),
                             static_cast<std::size_t>((*shape)[2])};
    std::size_t previous = detail::model_input;
    for (std::size_t li = 0; li < order->size(); ++li) {
        const std::string& name = (*order)[li];
        auto g = snn::detail::open_group_if_present(layers.get(), name);
        if (!g.valid())
            throw file_format_error(file, "/layers/" + name, "layer_order names a missing group");
        layer_reader r{file,
                       g.get(),
                       name,
                       "",
                       "/layers/" + name,
                       li + 1 == order->size(),
                       &b.graph().removed_softmax};
        const auto type = detail::read_text_attribute(g.get(), "type", file);
        if (!type) throw file_format_error(file, r.path, "missing attribute 'type'");
        r.type = *type;
        std::vector<std::size_t> inputs{previous};
        if (auto in = detail::read_string_list_attribute(g.get(), "inputs", file)) {
            inputs.clear();
            for (const auto& s : *in) inputs.push_back(b.resolve(s, name));
        }
        const bool last = li + 1 == order->size();
        const std::string& t = r.type;
        layer_node n;
        if (t == "conv2d") {
            n = read_conv(r);
        } else if (t == "dense" || t == "linear") {
            n = read_dense(r);
        } else if (t == "avgpool2d" || t == "avg_pool" || t == "avgpool") {
            n = read_pool(r, layer_kind::avg_pool);
        } else if (t == "maxpool2d" || t == "max_pool" || t == "maxpool") {
            n = read_pool(r, layer_kind::max_pool);
        } else if (t == "flatten") {
            n.kind = layer_kind::flatten;
            if (auto o = detail::read_text_attribute(g.get(), "order", file); o && *o != "CHW")
                throw file_format_error(
                    file, r.path,
                    "flatten order '" + *o + "': only CHW is part of the Volley layout");
        } else if (t == "relu") {
            n.kind = layer_kind::relu;
        } else if (t == "identity") {
            n.kind = layer_kind::identity;
        } else if (t == "add") {
            n.kind = layer_kind::add;
            n.relu = read_activation(r);
        } else if (t == "concatenate" || t == "cat") {
            n.kind = layer_kind::concatenate;
            n.relu = read_activation(r);
        } else if (t == "zero_pad" || t == "zeropad2d") {
            n.kind = layer_kind::zero_pad;
            auto p = r.ints("padding");
            if (!p || p->size() != 4)
                throw file_format_error(file, r.path,
                                        "zero_pad needs 'padding' = (top, bottom, left, right)");
            n.pad = {static_cast<std::size_t>((*p)[0]), static_cast<std::size_t>((*p)[1]),
                     static_cast<std::size_t>((*p)[2]), static_cast<std::size_t>((*p)[3])};
        } else if (t == "reshape") {
            n.kind = layer_kind::reshape;
            auto s = r.ints("shape_chw");
            if (!s || s->size() != 3)
                throw file_format_error(file, r.path, "reshape needs 'shape_chw' = (c, h, w)");
            n.output_shape = {1, static_cast<std::size_t>((*s)[0]),
                              static_cast<std::size_t>((*s)[1]), static_cast<std::size_t>((*s)[2])};
        } else if (t == "dropout") {
            b.alias(name, inputs.front());
            b.graph().removed_layers.push_back(name);
            previous = inputs.front();
            continue;
        } else if (t == "softmax" && last) {
            b.alias(name, inputs.front());
            b.graph().removed_softmax = true;
            previous = inputs.front();
            continue;
        } else if (t == "batch_norm" || t == "batchnorm2d" || t == "batchnorm1d") {
            auto gamma = r.optional_weight("gamma");
            if (!gamma) gamma = r.optional_weight("weight");
            auto beta = r.optional_weight("beta");
            if (!beta) beta = r.optional_weight("bias");
            if (!gamma) throw file_format_error(file, r.path, "missing weight dataset 'gamma'");
            if (!beta) throw file_format_error(file, r.path, "missing weight dataset 'beta'");
            const auto mean = r.weight("running_mean"), var = r.weight("running_var");
            const double eps =
                detail::read_double_attribute(g.get(), "epsilon", file, r.path).value_or(1e-5);
            b.fold_batch_norm(name, t, inputs.front(), gamma->values, beta->values, mean.values,
                              var.values, eps);
            previous = inputs.front();
            continue;
        } else {
            detail::throw_unsupported(file, name, t);
        }
        n.name = name;
        n.source_type = t;
        previous = b.add(std::move(n), inputs);
    }
    return b.finish();
}

}  // namespace volley::convert
