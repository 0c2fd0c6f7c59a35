// The graph builder shared by the CNN readers, and the "unsupported layer" advice.

#include "io/graph_builder.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cctype>

namespace volley::convert::detail {

graph_builder::graph_builder(std::string file, std::string format) {
    graph_.source_file = std::move(file);
    graph_.format = std::move(format);
}

void graph_builder::name_input(const std::string& name) {
    names_[name] = model_input;
}

std::size_t graph_builder::resolve(const std::string& name, const std::string& reader) const {
    if (auto f = folded_.find(name); f != folded_.end())
        throw unsupported_model(graph_.source_file,
                                "layer '" + reader + "' reads '" + name +
                                    "' before its BatchNormalization '" + f->second +
                                    "', which is folded into it; only the BatchNorm output may "
                                    "be read");
    auto it = names_.find(name);
    if (it == names_.end())
        throw file_format_error(graph_.source_file, "layer '" + reader + "'",
                                "reads unknown layer '" + name + "'");
    return it->second;
}

std::size_t graph_builder::add(layer_node node, const std::vector<std::size_t>& inputs) {
    const std::size_t index = graph_.nodes.size();
    node.inputs.clear();
    for (auto i : inputs) {
        if (i == model_input) {
            if (inputs.size() > 1)
                throw unsupported_model(graph_.source_file,
                                        "layer '" + node.name + "' (" + node.source_type +
                                            ") combines the model input directly with another "
                                            "tensor; insert an identity layer (e.g. a 1x1 "
                                            "convolution) on the input branch");
            continue;
        }
        node.inputs.push_back(i);
        ++readers_[i];
    }
    if (names_.count(node.name))
        throw file_format_error(graph_.source_file, "layer '" + node.name + "'",
                                "the name is used twice");
    names_[node.name] = index;
    graph_.nodes.push_back(std::move(node));
    readers_.push_back(0);
    return index;
}

void graph_builder::alias(const std::string& name, std::size_t target) {
    names_[name] = target;
}

void graph_builder::fold_batch_norm(const std::string& name, const std::string& type,
                                    std::size_t target, const std::vector<float>& gamma,
                                    const std::vector<float>& beta, const std::vector<float>& mean,
                                    const std::vector<float>& variance, double epsilon) {
    const bool foldable = target != model_input &&
                          (graph_.nodes[target].kind == layer_kind::conv2d ||
                           graph_.nodes[target].kind == layer_kind::dense) &&
                          !graph_.nodes[target].relu && readers_[target] == 0;
    if (!foldable)
        throw_unsupported(graph_.source_file, name, type,
                          "a BatchNorm can only be folded when it directly follows a Conv2D or "
                          "Dense layer without activation, whose output nothing else reads");
    try {
        convert::fold_batch_norm(graph_.nodes[target], gamma, beta, mean, variance, epsilon);
    } catch (const invalid_parameter& e) {
        throw file_format_error(graph_.source_file, "layer '" + name + "'", e.what());
    }
    folded_[graph_.nodes[target].name] = name;
    names_.erase(graph_.nodes[target].name);
    names_[name] = target;
}

cnn_graph graph_builder::finish() {
    auto& nodes = graph_.nodes;
    if (nodes.empty()) throw file_format_error(graph_.source_file, "", "the model has no layers");
    // Readers of every node, over the final list.
    auto count_readers = [&] {
        std::vector<std::size_t> r(nodes.size(), 0);
        for (const auto& n : nodes)
            for (auto i : n.inputs) ++r[i];
        return r;
    };
    // 1. Remove ReLU and identity nodes that can become a flag on (or vanish into) their input,
    //    one at a time until none can; the output stays the last node.
    for (bool changed = true; changed;) {
        changed = false;
        const auto readers = count_readers();
        for (std::size_t i = 0; i < nodes.size() && !changed; ++i) {
            const auto& n = nodes[i];
            const bool is_relu =
                n.kind == layer_kind::relu || (n.kind == layer_kind::identity && n.relu);
            if (n.inputs.size() != 1 || (!is_relu && n.kind != layer_kind::identity)) continue;
            const std::size_t p = n.inputs.front();
            const bool last = i + 1 == nodes.size();
            if (last && p + 1 != i) continue;
            if (is_relu) {
                if (!nodes[p].relu && readers[p] != 1) continue;
                nodes[p].relu = true;
            }
            nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(i));
            for (auto& m : nodes)
                for (auto& in : m.inputs) in = in == i ? p : (in > i ? in - 1 : in);
            changed = true;
        }
    }
    // 2. Fold Flatten permutations into the Dense layers that read them.
    const auto r2 = count_readers();
    for (std::size_t f = 0; f < nodes.size(); ++f) {
        auto& flat = nodes[f];
        if (flat.kind != layer_kind::flatten || flat.permutation.empty() || r2[f] == 0) continue;
        bool all_dense = true;
        for (const auto& n : nodes)
            for (auto i : n.inputs)
                if (i == f && n.kind != layer_kind::dense) all_dense = false;
        if (!all_dense) continue;
        for (auto& n : nodes) {
            if (n.inputs.empty() || n.inputs.front() != f || n.kind != layer_kind::dense) continue;
            auto& d = n.dense;
            if (d.in_features != flat.permutation.size()) continue;  // validate() reports it
            std::vector<float> w(d.kernel.size());
            for (std::size_t o = 0; o < d.out_features; ++o)
                for (std::size_t j = 0; j < d.in_features; ++j)
                    w[o * d.in_features + flat.permutation[j]] = d.kernel[o * d.in_features + j];
            d.kernel = std::move(w);
        }
        flat.permutation.clear();
    }
    graph_.validate();
    return std::move(graph_);
}

void throw_unsupported(const std::string& file, const std::string& layer, const std::string& type,
                       const std::string& detail) {
    std::string message = "layer '" + layer + "' of type '" + type + "' is not supported";
    if (!detail.empty()) message += " (" + detail + ")";
    const auto advice = suggest_alternative(type);
    if (!advice.empty()) message += "; " + advice;
    throw unsupported_model(file, message);
}

std::string suggest_alternative(const std::string& type) {
    std::string t;
    for (char c : type) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&](const char* s) { return t.find(s) != std::string::npos; };
    if (has("leaky") || has("prelu") || has("elu") || has("gelu") || has("swish") || has("silu") ||
        has("sigmoid") || has("tanh") || has("relu6") || has("softplus") || has("hard") ||
        has("mish") || has("thresholded"))
        return "the closest supported activation is 'relu' (retrain with ReLU)";
    if (has("softmax")) return "softmax is only supported on the output layer, where it is removed";
    if (has("globalmax")) return "use GlobalAveragePooling2D or AveragePooling2D";
    if (has("maxpool") || has("max_pool")) return "use MaxPooling2D with 'valid' padding";
    if (has("transpose")) return "use UpSampling by a strided Conv2D is not supported; use Conv2D";
    if (has("upsampling") || has("cropping")) return "use ZeroPadding2D/Conv2D geometry instead";
    if (has("multiply") || has("subtract") || has("average") || has("maximum") || has("minimum") ||
        has("dot"))
        return "the supported merge layers are Add and Concatenate";
    if (has("lstm") || has("gru") || has("rnn") || has("attention"))
        return "recurrent and attention layers cannot be rate-converted; use Conv2D/Dense";
    if (has("lambda")) return "replace the Lambda by built-in layers (Conv2D, Dense, Add, ...)";
    if (has("batchnorm") || has("batch_norm") || has("batchnormalization"))
        return "place BatchNormalization directly after a Conv2D or Dense layer";
    if (has("conv")) return "use Conv2D";
    if (has("pool")) return "use AveragePooling2D or MaxPooling2D with 'valid' padding";
    if (has("norm")) return "use BatchNormalization (folded into the layer before it)";
    return "supported layers: Conv2D, Dense, AveragePooling2D, MaxPooling2D, Flatten, Reshape, "
           "ZeroPadding2D, BatchNormalization, ReLU, Add, Concatenate, Dropout";
}

}  // namespace volley::convert::detail
