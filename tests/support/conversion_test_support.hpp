#pragma once
// Helpers shared by the conversion tests.

#include <volley/convert/cnn_graph.hpp>
#include <volley/convert/normalization.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace volley::convert::testing {

/// λ = 1 for every node (weights stay as they are), each marked measured.
inline layer_scales unit_scales(std::size_t nodes) {
    layer_scales s;
    s.lambda.assign(nodes, 1.0);
    s.measured.assign(nodes, true);
    s.positive_count.assign(nodes, 1);
    return s;
}

/// Dense layers over n inputs with identity weights, no bias and a ReLU: one layer, or a second
/// identical one behind the first.
inline cnn_graph identity_chain(std::size_t n, bool two_layers) {
    cnn_graph g;
    g.source_file = "identity.h5";
    g.input_shape = {1, n, 1, 1};
    for (int l = 0; l < (two_layers ? 2 : 1); ++l) {
        layer_node d;
        d.name = "dense" + std::to_string(l);
        d.kind = layer_kind::dense;
        d.inputs = l == 0 ? std::vector<std::size_t>{} : std::vector<std::size_t>{0};
        d.output_shape = {1, n, 1, 1};
        d.relu = true;
        d.dense.in_features = d.dense.out_features = n;
        d.dense.kernel.assign(n * n, 0.0f);
        for (std::size_t i = 0; i < n; ++i) d.dense.kernel[i * n + i] = 1.0f;
        d.dense.bias.assign(n, 0.0f);
        g.nodes.push_back(d);
    }
    return g;
}

}  // namespace volley::convert::testing
