#include "nir/nir_topology.hpp"

#include <volley/error.hpp>

#include <functional>
#include <numeric>

namespace volley::snn::detail {

namespace {

using shape_t = std::vector<std::size_t>;

std::size_t element_count(const shape_t& s) {
    return std::accumulate(s.begin(), s.end(), std::size_t{1}, std::multiplies<>());
}

shape_t shape_values(const nir_array& a) {
    shape_t s;
    for (double v : a.values) s.push_back(static_cast<std::size_t>(v));
    return s;
}

nir_location node_location(const nir_location& graph, const nir_node& node) {
    return {graph.file, graph.path + "/nodes/" + node.name};
}

[[noreturn]] void shape_error(const nir_node& node, const nir_location& where,
                              const std::string& what) {
    throw file_format_error(where.file, where.path,
                            node.type + " node '" + node.name + "': " + what);
}

/// Parameters applied element-wise must hold one value or one per input element.
void check_elementwise(const nir_node& node, const shape_t& in, const nir_location& where) {
    for (const auto& [key, a] : node.params)
        if (a.values.size() != 1 && a.values.size() != element_count(in))
            shape_error(node, where,
                        "parameter '" + key + "' has shape " + nir_shape_text(a.shape) +
                            " but the input has shape " + nir_shape_text(in));
}

/// A disconnected node's input shape, where its parameters tell it; empty when they do not.
shape_t shape_from_params(const nir_node& node) {
    const auto& t = node.type;
    if (t == "Affine" || t == "Linear") {
        const auto& w = node.params.at("weight");
        return w.shape.size() == 2 ? shape_t{w.shape[1]} : shape_t{};
    }
    if (t == "Conv1d" || t == "Conv2d") {
        const auto& w = node.params.at("weight");
        const nir_array* spatial = node.param("input_shape");
        if (spatial == nullptr || w.shape.size() < 2) return {};
        const nir_array* g = node.param("groups");
        shape_t in{w.shape[1] * (g ? static_cast<std::size_t>(g->values.at(0)) : 1)};
        for (std::size_t v : shape_values(*spatial)) in.push_back(v);
        return in;
    }
    if (t == "Flatten") {
        const nir_array* it = node.param("input_type");
        return it ? shape_values(*it) : shape_t{};
    }
    if (t == "SumPool2d" || t == "AvgPool2d" || t == "Input" || t == "Output") return {};
    shape_t widest;
    for (const auto& [key, a] : node.params)
        if (a.values.size() > element_count(widest) || widest.empty())
            if (!a.shape.empty() && a.values.size() > 1) widest = a.shape;
    return widest;
}

shape_t dense_output(const nir_node& node, const shape_t& in, const nir_location& where) {
    const auto& w = node.params.at("weight");
    if (w.shape.size() != 2)
        shape_error(node, where,
                    "weight has shape " + nir_shape_text(w.shape) + "; expected (out, in)");
    if (in.empty() || in.back() != w.shape[1])
        shape_error(node, where,
                    "weight has shape " + nir_shape_text(w.shape) + " but the input has shape " +
                        nir_shape_text(in));
    if (const nir_array* b = node.param("bias"); b && b->size() != 1 && b->size() != w.shape[0])
        shape_error(node, where,
                    "bias has shape " + nir_shape_text(b->shape) + " but weight has shape " +
                        nir_shape_text(w.shape));
    shape_t out = in;
    out.back() = w.shape[0];
    return out;
}

/// One spatial output size, PyTorch semantics: floor((L + 2p - d(k - 1) - 1) / s) + 1.
long long window_output(long long length, long long kernel, long long stride, long long pad,
                        long long dilation) {
    return (length + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
}

shape_t conv_output(const nir_node& node, const shape_t& in, std::size_t dims,
                    const nir_location& where) {
    const auto& w = node.params.at("weight");
    if (w.shape.size() != dims + 2)
        shape_error(node, where,
                    "weight has shape " + nir_shape_text(w.shape) + "; expected (Cout, Cin/groups" +
                        (dims == 2 ? ", kH, kW)" : ", k)"));
    const long long groups = nir_int_tuple(node, "groups", 1, 1, where)[0];
    if (in.size() != dims + 1 || in[0] != w.shape[1] * static_cast<std::size_t>(groups))
        shape_error(node, where,
                    "weight has shape " + nir_shape_text(w.shape) + " (groups " +
                        std::to_string(groups) + ") but the input has shape " + nir_shape_text(in));
    if (w.shape[0] % static_cast<std::size_t>(groups) != 0)
        shape_error(node, where,
                    "Cout " + std::to_string(w.shape[0]) + " is not a multiple of groups " +
                        std::to_string(groups));
    if (const nir_array* b = node.param("bias"); b && b->size() != 1 && b->size() != w.shape[0])
        shape_error(node, where,
                    "bias has " + std::to_string(b->size()) + " values but the convolution has " +
                        std::to_string(w.shape[0]) + " output channels");
    if (const nir_array* s = node.param("input_shape")) {
        shape_t declared = shape_values(*s);
        if (declared != shape_t(in.begin() + 1, in.end()) &&
            !(declared.size() == 1 && dims == 1 && declared[0] == in[1]))
            shape_error(node, where,
                        "input_shape " + nir_shape_text(declared) +
                            " disagrees with the inferred input " + nir_shape_text(in));
    }
    auto stride = nir_int_tuple(node, "stride", dims, 1, where);
    auto dilation = nir_int_tuple(node, "dilation", dims, 1, where);
    const nir_array* pad = node.param("padding");
    shape_t out{w.shape[0]};
    for (std::size_t d = 0; d < dims; ++d) {
        const auto length = static_cast<long long>(in[d + 1]);
        const auto kernel = static_cast<long long>(w.shape[d + 2]);
        long long size = 0;
        if (pad && pad->is_text() && pad->text == "same")
            size = (length + stride[d] - 1) / stride[d];
        else {
            long long p =
                pad && pad->is_text() ? 0 : nir_int_tuple(node, "padding", dims, 0, where)[d];
            size = window_output(length, kernel, stride[d], p, dilation[d]);
        }
        if (size < 1)
            shape_error(node, where,
                        "the input " + nir_shape_text(in) + " is smaller than the kernel");
        out.push_back(static_cast<std::size_t>(size));
    }
    return out;
}

shape_t pool_output(const nir_node& node, const shape_t& in, const nir_location& where) {
    if (in.size() != 3)
        shape_error(node, where,
                    "the input has shape " + nir_shape_text(in) + "; expected (C, H, W)");
    auto kernel = nir_int_tuple(node, "kernel_size", 2, 1, where);
    auto stride = node.param("stride") ? nir_int_tuple(node, "stride", 2, 1, where) : kernel;
    const nir_array* pad = node.param("padding");
    shape_t out{in[0]};
    for (std::size_t d = 0; d < 2; ++d) {
        long long p = pad && pad->is_text() ? 0 : nir_int_tuple(node, "padding", 2, 0, where)[d];
        long long size =
            pad && pad->is_text() && pad->text == "same"
                ? (static_cast<long long>(in[d + 1]) + stride[d] - 1) / stride[d]
                : window_output(static_cast<long long>(in[d + 1]), kernel[d], stride[d], p, 1);
        if (size < 1)
            shape_error(node, where,
                        "the input " + nir_shape_text(in) + " is smaller than the window");
        out.push_back(static_cast<std::size_t>(size));
    }
    return out;
}

/// C-order flatten of the per-sample dims start_dim..end_dim (inclusive; negative counts back).
shape_t flatten_output(const nir_node& node, const shape_t& in, const nir_location& where) {
    const auto n = static_cast<long long>(in.size());
    long long start = nir_int_tuple(node, "start_dim", 1, 0, where)[0];
    long long end = nir_int_tuple(node, "end_dim", 1, -1, where)[0];
    if (start < 0) start += n;
    if (end < 0) end += n;
    if (start < 0 || end >= n || start > end)
        shape_error(node, where,
                    "start_dim/end_dim do not fit the input shape " + nir_shape_text(in));
    if (const nir_array* it = node.param("input_type");
        it && element_count(shape_values(*it)) != element_count(in))
        shape_error(node, where,
                    "input_type " + nir_shape_text(shape_values(*it)) +
                        " disagrees with the inferred input " + nir_shape_text(in));
    shape_t out(in.begin(), in.begin() + start);
    out.push_back(element_count(shape_t(in.begin() + start, in.begin() + end + 1)));
    out.insert(out.end(), in.begin() + end + 1, in.end());
    return out;
}

/// The output shape of an Output port, repairing a declared shape that differs from the inferred
/// one but holds as many elements (Rockpool writes [1, 1, 1] for a 1-element output).
shape_t output_port(nir_graph& graph, nir_node& node, const shape_t& in,
                    const nir_location& where) {
    auto it = node.params.find("shape");
    if (it == node.params.end() || in.empty()) return in;
    shape_t declared = shape_values(it->second);
    if (declared == in) return in;
    if (element_count(declared) != element_count(in))
        shape_error(node, where,
                    "declared shape " + nir_shape_text(declared) +
                        " does not match the inferred input shape " + nir_shape_text(in));
    graph.notes.push_back("Output '" + node.name + "' (" + where.path + "): declared shape " +
                          nir_shape_text(declared) + " disagrees with the inferred " +
                          nir_shape_text(in) + "; using " + nir_shape_text(in));
    std::vector<double> values(in.begin(), in.end());
    it->second = nir_array::vector(std::move(values), nir_dtype::int64);
    return in;
}

/// The output shape an endpoint "a" or "g.x" names, after its node has been inferred.
const shape_t* endpoint_output(const nir_graph& graph, const std::string& endpoint) {
    auto chain = resolve_nir_endpoint(graph, endpoint);
    const nir_graph* g = &graph;
    const nir_node* node = nullptr;
    for (const auto& name : chain) {
        node = g->find(name);
        if (node->subgraph) g = node->subgraph.get();
    }
    return node ? &node->output_shape : nullptr;
}

}  // namespace

void infer_nir_shapes(nir_graph& graph, const nir_location& where, const shape_t* fed) {
    for (std::size_t index : graph.order) {
        nir_node& node = graph.nodes[index];
        const nir_location at = node_location(where, node);
        shape_t in;
        for (std::size_t e = 0; e < graph.edges.size(); ++e) {
            if (graph.is_recurrent(e) ||
                resolve_nir_endpoint(graph, graph.edges[e].second).front() != node.name)
                continue;
            const shape_t* s = endpoint_output(graph, graph.edges[e].first);
            if (s == nullptr || s->empty()) continue;
            if (!in.empty() && *s != in)
                shape_error(node, at,
                            "its inputs have different shapes, " + nir_shape_text(in) + " and " +
                                nir_shape_text(*s));
            in = *s;
        }
        const auto& t = node.type;
        if (t == "Input") {
            shape_t declared = shape_values(node.params.at("shape"));
            if (fed && element_count(*fed) != element_count(declared))
                shape_error(node, at,
                            "declared shape " + nir_shape_text(declared) +
                                " but the enclosing graph feeds it " + nir_shape_text(*fed));
            node.input_shape = node.output_shape = declared;
            continue;
        }
        if (in.empty()) in = shape_from_params(node);
        node.input_shape = in;
        if (in.empty() && t != "NIRGraph") continue;
        if (t == "Output")
            node.output_shape = output_port(graph, node, in, at);
        else if (t == "Affine" || t == "Linear")
            node.output_shape = dense_output(node, in, at);
        else if (t == "Conv1d")
            node.output_shape = conv_output(node, in, 1, at);
        else if (t == "Conv2d")
            node.output_shape = conv_output(node, in, 2, at);
        else if (t == "SumPool2d" || t == "AvgPool2d")
            node.output_shape = pool_output(node, in, at);
        else if (t == "Flatten")
            node.output_shape = flatten_output(node, in, at);
        else if (t == "NIRGraph") {
            infer_nir_shapes(*node.subgraph, at, in.empty() ? nullptr : &in);
            for (const auto& inner : node.subgraph->nodes)
                if (inner.type == "Output") node.output_shape = inner.output_shape;
        } else {
            check_elementwise(node, in, at);
            node.output_shape = in;
        }
    }
    for (std::size_t e : graph.recurrent_edges) {
        const shape_t* s = endpoint_output(graph, graph.edges[e].first);
        const nir_node* target =
            graph.find(resolve_nir_endpoint(graph, graph.edges[e].second).front());
        if (s && !s->empty() && !target->input_shape.empty() &&
            element_count(*s) != element_count(target->input_shape))
            shape_error(*target, node_location(where, *target),
                        "recurrent edge from '" + graph.edges[e].first + "' brings shape " +
                            nir_shape_text(*s) + " to an input of shape " +
                            nir_shape_text(target->input_shape));
    }
}

}  // namespace volley::snn::detail
