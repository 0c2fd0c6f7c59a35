#include <volley/snn/nir_graph.hpp>

#include <algorithm>

namespace volley::snn {

nir_array nir_array::scalar(double value, nir_dtype dtype) {
    nir_array a;
    a.dtype = dtype;
    a.values = {value};
    return a;
}

nir_array nir_array::vector(std::vector<double> values, nir_dtype dtype) {
    nir_array a;
    a.dtype = dtype;
    a.shape = {values.size()};
    a.values = std::move(values);
    return a;
}

nir_array nir_array::string(std::string text) {
    nir_array a;
    a.dtype = nir_dtype::text;
    a.text = std::move(text);
    return a;
}

nir_node::nir_node() = default;

nir_node::nir_node(std::string name_, std::string type_, std::map<std::string, nir_array> params_)
    : name(std::move(name_)), type(std::move(type_)), params(std::move(params_)) {}

nir_node::nir_node(const nir_node& other)
    : name(other.name),
      type(other.type),
      params(other.params),
      metadata(other.metadata),
      subgraph(other.subgraph ? std::make_unique<nir_graph>(*other.subgraph) : nullptr),
      input_shape(other.input_shape),
      output_shape(other.output_shape) {}

nir_node::nir_node(nir_node&& other) noexcept = default;

nir_node& nir_node::operator=(const nir_node& other) {
    if (this != &other) {
        nir_node copy(other);
        *this = std::move(copy);
    }
    return *this;
}

nir_node& nir_node::operator=(nir_node&& other) noexcept = default;

nir_node::~nir_node() = default;

const nir_array* nir_node::param(std::string_view key) const {
    auto it = params.find(std::string(key));
    return it == params.end() ? nullptr : &it->second;
}

bool operator==(const nir_node& a, const nir_node& b) {
    if (a.name != b.name || a.type != b.type || a.params != b.params || a.metadata != b.metadata)
        return false;
    if (!a.subgraph || !b.subgraph) return !a.subgraph && !b.subgraph;
    return *a.subgraph == *b.subgraph;
}

const nir_node* nir_graph::find(std::string_view name) const {
    auto it =
        std::find_if(nodes.begin(), nodes.end(), [&](const nir_node& n) { return n.name == name; });
    return it == nodes.end() ? nullptr : &*it;
}

bool nir_graph::is_recurrent(std::size_t index) const {
    return std::find(recurrent_edges.begin(), recurrent_edges.end(), index) !=
           recurrent_edges.end();
}

bool operator==(const nir_graph& a, const nir_graph& b) {
    if (a.nodes.size() != b.nodes.size() || a.edges != b.edges || a.metadata != b.metadata)
        return false;
    // Node order is meaningless (files list nodes alphabetically): match them by name.
    return std::all_of(a.nodes.begin(), a.nodes.end(), [&](const nir_node& n) {
        const nir_node* other = b.find(n.name);
        return other != nullptr && *other == n;
    });
}

const std::vector<std::string>& nir_primitive_types() {
    static const std::vector<std::string> types = {
        "Input",  "Output",  "Affine",    "Linear",    "Scale",     "Conv1d",
        "Conv2d", "Flatten", "SumPool2d", "AvgPool2d", "Threshold", "Delay",
        "I",      "IF",      "LI",        "LIF",       "CubaLI",    "CubaLIF"};
    return types;
}

std::vector<std::string> resolve_nir_endpoint(const nir_graph& graph, std::string_view endpoint) {
    if (graph.find(endpoint) != nullptr) return {std::string(endpoint)};
    // "a.b.c" may be node "a.b" holding "c", or node "a" holding "b.c": try each split.
    for (std::size_t dot = endpoint.find('.'); dot != std::string_view::npos;
         dot = endpoint.find('.', dot + 1)) {
        const nir_node* outer = graph.find(endpoint.substr(0, dot));
        if (outer == nullptr || !outer->subgraph) continue;
        auto inner = resolve_nir_endpoint(*outer->subgraph, endpoint.substr(dot + 1));
        if (inner.empty()) continue;
        inner.insert(inner.begin(), outer->name);
        return inner;
    }
    return {};
}

}  // namespace volley::snn
