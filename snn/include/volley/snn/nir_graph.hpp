#pragma once
// A typed, in-memory NIR graph (docs/specs/NIR.md): the nodes, parameters and edges of a NIR file,
// with the facts a reader derives from them (topological order, recurrent edges, shapes).
// read_nir and write_nir (nir_file.hpp) move it to and from HDF5; the engine maps it onto an
// snn::network.

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace volley::snn {

/// How a parameter is stored on disk. Every integer width reads as int64; float16 and float32
/// read as float32, wider floats as float64.
enum class nir_dtype { float32, float64, int64, text };

/// One NIR parameter: a numeric array of any rank (a scalar has an empty shape), or a string
/// (`padding` may be "same" or "valid").
struct nir_array {
    nir_dtype dtype = nir_dtype::float64;
    /// Dimensions in C order; empty for a scalar.
    std::vector<std::size_t> shape;
    /// The values in C order (int64 values are exact up to 2^53); empty for text.
    std::vector<double> values;
    /// The string, when dtype is text.
    std::string text;

    /// A numeric scalar.
    static nir_array scalar(double value, nir_dtype dtype = nir_dtype::float64);
    /// A 1-D numeric array.
    static nir_array vector(std::vector<double> values, nir_dtype dtype = nir_dtype::float64);
    /// A string parameter.
    static nir_array string(std::string text);

    /// True for a string parameter.
    bool is_text() const noexcept { return dtype == nir_dtype::text; }
    /// Number of elements (1 for a scalar, 0 for text).
    std::size_t size() const noexcept { return values.size(); }

    friend bool operator==(const nir_array&, const nir_array&) = default;
};

struct nir_graph;

/// One node of a NIR graph: a primitive, or a nested graph (type "NIRGraph").
struct nir_node {
    /// The node's name, free text (it may contain dots: "lif1.lif").
    std::string name;
    /// One of nir_primitive_types(), or "NIRGraph".
    std::string type;
    /// The parameters by name, as stored (plus the spec's defaults: v_reset = 0, w_in = 1).
    std::map<std::string, nir_array> params;
    /// The node's own `metadata/` datasets, kept opaque for the round trip.
    std::map<std::string, nir_array> metadata;
    /// The nested graph when type is "NIRGraph", else null.
    std::unique_ptr<nir_graph> subgraph;
    /// Inferred per-sample shape of the node's input (no batch axis); empty when unknown.
    std::vector<std::size_t> input_shape;
    /// Inferred per-sample shape of the node's output; empty when unknown.
    std::vector<std::size_t> output_shape;

    nir_node();
    nir_node(std::string name, std::string type, std::map<std::string, nir_array> params = {});
    nir_node(const nir_node& other);
    nir_node(nir_node&& other) noexcept;
    nir_node& operator=(const nir_node& other);
    nir_node& operator=(nir_node&& other) noexcept;
    ~nir_node();

    /// The parameter `key`, or null.
    const nir_array* param(std::string_view key) const;

    /// Equal names, types, parameters, metadata and subgraphs (inferred shapes are not compared:
    /// they follow from the rest).
    friend bool operator==(const nir_node& a, const nir_node& b);
};

/// A NIR graph: nodes, edges `[source, target]` and optional metadata. An endpoint names a node
/// of this graph, or a node inside a nested graph as "graph.node" (exact names match first).
struct nir_graph {
    /// The file's version string ("0.2.0", "1.0.8", ...); the writer ignores it.
    std::string version;
    /// The nodes, in file order (alphabetical, hence meaningless).
    std::vector<nir_node> nodes;
    /// The edges as `[source, target]`, in file order.
    std::vector<std::pair<std::string, std::string>> edges;
    /// The graph's `metadata/` datasets, kept opaque for the round trip.
    std::map<std::string, nir_array> metadata;

    /// Derived by analyse_nir_graph: node indices in topological order (sources first).
    std::vector<std::size_t> order;
    /// Derived: indices into `edges` of the recurrent edges (those that close a cycle); each one
    /// takes a one-step delay when run.
    std::vector<std::size_t> recurrent_edges;
    /// Derived: what the reader repaired or assumed, one sentence each (e.g. an Output shape
    /// that disagreed with the inferred one).
    std::vector<std::string> notes;

    /// The node called `name` in this graph (exact match, no descent), or null.
    const nir_node* find(std::string_view name) const;
    /// True when edge `index` is recurrent.
    bool is_recurrent(std::size_t index) const;

    /// Equal content: the same nodes (matched by name, in any order), the same edges in the same
    /// order, the same metadata. Derived fields and the version string are not compared.
    friend bool operator==(const nir_graph& a, const nir_graph& b);
};

/// The NIR primitive type names, in the spec's order (its 17 primitives, with Input and Output
/// counted apart).
const std::vector<std::string>& nir_primitive_types();

/// The chain of node names that `endpoint` denotes from `graph` outward in: {"fc1"} for a plain
/// node, {"lif1", "lin"} for "lif1.lin" when only the nested node exists. Exact names win.
/// Empty when nothing matches.
std::vector<std::string> resolve_nir_endpoint(const nir_graph& graph, std::string_view endpoint);

/// Validates `graph` (types, parameter names and values, edges), fills in the spec's defaults,
/// and derives `order`, `recurrent_edges` and every node's shapes, recursively. read_nir calls
/// it; call it on a graph built in memory. `source` names the file in error messages.
/// Throws file_format_error (naming the node) or invalid_parameter (negative τ, ...).
void analyse_nir_graph(nir_graph& graph, const std::string& source = "<memory>");

}  // namespace volley::snn
