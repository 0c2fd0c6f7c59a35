// Every NIR fixture in tests/data/nir (written by make_fixtures.py there) loads with the expected node types, topological order,
// recurrent edges and inferred shapes; the shapes were derived by hand from each architecture.

#include <volley/error.hpp>
#include <volley/snn/nir_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace vs = volley::snn;
using shape = std::vector<std::size_t>;

namespace {

std::string fixture(const std::string& name) {
    return VOLLEY_TEST_DATA_DIR "/nir/" + name;
}

const vs::nir_node& node(const vs::nir_graph& g, const std::string& name) {
    const vs::nir_node* n = g.find(name);
    if (n == nullptr) throw std::runtime_error("no node " + name);
    return *n;
}

/// Position of `name` in the graph's topological order.
std::size_t rank(const vs::nir_graph& g, const std::string& name) {
    for (std::size_t i = 0; i < g.order.size(); ++i)
        if (g.nodes[g.order[i]].name == name) return i;
    throw std::runtime_error("not ordered: " + name);
}

void expect_node(const vs::nir_graph& g, const std::string& name, const std::string& type,
                 const shape& in, const shape& out) {
    const auto& n = node(g, name);
    EXPECT_EQ(n.type, type) << name;
    EXPECT_EQ(n.input_shape, in) << name;
    EXPECT_EQ(n.output_shape, out) << name;
}

}  // namespace

TEST(nir_fixtures, lif_affine_is_affine_then_lif_with_default_reset) {
    auto g = vs::read_nir(fixture("lif_affine.nir"));
    EXPECT_EQ(g.version, "0.1.1");
    expect_node(g, "input", "Input", {1}, {1});
    expect_node(g, "0", "Affine", {1}, {1});
    expect_node(g, "1", "LIF", {1}, {1});
    expect_node(g, "output", "Output", {1}, {1});
    EXPECT_LT(rank(g, "input"), rank(g, "0"));
    EXPECT_LT(rank(g, "0"), rank(g, "1"));
    EXPECT_LT(rank(g, "1"), rank(g, "output"));
    EXPECT_TRUE(g.recurrent_edges.empty());
    const auto& lif = node(g, "1");
    EXPECT_NEAR(lif.param("tau")->values.at(0), 0.002, 1e-9);
    EXPECT_NEAR(lif.param("v_threshold")->values.at(0), 0.12, 1e-7);
    ASSERT_NE(lif.param("v_reset"), nullptr);  // the spec's default
    EXPECT_EQ(lif.param("v_reset")->values, std::vector<double>{0.0});
    EXPECT_TRUE(g.notes.empty());
}

TEST(nir_fixtures, lif_linear_output_shape_is_repaired_and_reported) {
    auto g = vs::read_nir(fixture("lif_linear_bad_output.nir"));
    EXPECT_EQ(g.version, "0.2.0");
    expect_node(g, "0_Linear", "Linear", {1}, {1});
    expect_node(g, "1_LIF", "LIF", {1}, {1});
    expect_node(g, "output", "Output", {1}, {1});
    EXPECT_EQ(node(g, "output").param("shape")->values, std::vector<double>{1.0});
    ASSERT_EQ(g.notes.size(), 1u);
    EXPECT_NE(g.notes[0].find("[1, 1, 1]"), std::string::npos) << g.notes[0];
    EXPECT_NEAR(node(g, "1_LIF").param("r")->values.at(0), 20.0, 1e-6);
    EXPECT_NEAR(node(g, "0_Linear").param("weight")->values.at(0), 0.05, 1e-7);
}

TEST(nir_fixtures, two_lif_is_a_float64_chain) {
    auto g = vs::read_nir(fixture("two_lif.nir"));
    for (const char* name : {"in", "linear1", "lif1", "linear2", "lif2", "out"})
        EXPECT_EQ(node(g, name).output_shape, shape{1}) << name;
    EXPECT_EQ(node(g, "lif1").param("tau")->dtype, vs::nir_dtype::float64);
    std::vector<std::string> ordered;
    for (std::size_t i : g.order) ordered.push_back(g.nodes[i].name);
    EXPECT_EQ(ordered,
              (std::vector<std::string>{"in", "linear1", "lif1", "linear2", "lif2", "out"}));
}

TEST(nir_fixtures, cnn_conv_if_shapes_follow_the_convolutions) {
    auto g = vs::read_nir(fixture("cnn_conv_if.nir"));
    expect_node(g, "input", "Input", {2, 34, 34}, {2, 34, 34});
    // (34 + 2 - 5) / 2 + 1 = 16
    expect_node(g, "0", "Conv2d", {2, 34, 34}, {16, 16, 16});
    expect_node(g, "1", "IF", {16, 16, 16}, {16, 16, 16});
    expect_node(g, "2", "Conv2d", {16, 16, 16}, {16, 16, 16});
    expect_node(g, "3", "IF", {16, 16, 16}, {16, 16, 16});
    expect_node(g, "4", "SumPool2d", {16, 16, 16}, {16, 8, 8});
    expect_node(g, "5", "Conv2d", {16, 8, 8}, {8, 8, 8});
    expect_node(g, "6", "IF", {8, 8, 8}, {8, 8, 8});
    expect_node(g, "7", "SumPool2d", {8, 8, 8}, {8, 4, 4});
    // start_dim 0 counts per-sample dims: the whole [8, 4, 4] flattens to 128.
    expect_node(g, "8", "Flatten", {8, 4, 4}, {128});
    expect_node(g, "9", "Affine", {128}, {256});
    expect_node(g, "10", "IF", {256}, {256});
    expect_node(g, "11", "Affine", {256}, {10});
    expect_node(g, "12", "IF", {10}, {10});
    expect_node(g, "output", "Output", {10}, {10});
    for (int i = 0; i < 12; ++i)
        EXPECT_LT(rank(g, std::to_string(i)), rank(g, std::to_string(i + 1)));
    EXPECT_TRUE(g.recurrent_edges.empty());
    EXPECT_EQ(node(g, "0").param("weight")->dtype, vs::nir_dtype::float32);
    EXPECT_EQ(node(g, "0").param("stride")->dtype, vs::nir_dtype::int64);
}

TEST(nir_fixtures, rnn_cuba_has_cuba_lif_38_with_recurrence) {
    auto g = vs::read_nir(fixture("rnn_cuba.nir"));
    expect_node(g, "input", "Input", {12}, {12});
    expect_node(g, "fc1", "Affine", {12}, {38});
    expect_node(g, "lif1.lif", "CubaLIF", {38}, {38});
    expect_node(g, "lif1.w_rec", "Affine", {38}, {38});
    expect_node(g, "fc2", "Affine", {38}, {7});
    expect_node(g, "lif2", "CubaLIF", {7}, {7});
    expect_node(g, "output", "Output", {7}, {7});
    ASSERT_EQ(g.recurrent_edges.size(), 1u);
    const auto& edge = g.edges[g.recurrent_edges[0]];
    EXPECT_EQ(edge, (std::pair<std::string, std::string>{"lif1.w_rec", "lif1.lif"}));
    EXPECT_LT(rank(g, "lif1.lif"), rank(g, "lif1.w_rec"));
    EXPECT_LT(rank(g, "lif1.lif"), rank(g, "fc2"));
    EXPECT_EQ(node(g, "lif2").param("v_reset")->values, std::vector<double>(7, 0.0));
    EXPECT_EQ(node(g, "lif2").param("w_in")->size(), 7u);
}

TEST(nir_fixtures, rnn_cuba_linear_has_linear_layers_and_40_hidden) {
    auto g = vs::read_nir(fixture("rnn_cuba_linear.nir"));
    expect_node(g, "fc1", "Linear", {12}, {40});
    expect_node(g, "lif1.lif", "CubaLIF", {40}, {40});
    expect_node(g, "lif1.w_rec", "Linear", {40}, {40});
    expect_node(g, "fc2", "Linear", {40}, {7});
    expect_node(g, "lif2", "CubaLIF", {7}, {7});
    ASSERT_EQ(g.recurrent_edges.size(), 1u);
    EXPECT_EQ(g.edges[g.recurrent_edges[0]].second, "lif1.lif");
}

TEST(nir_fixtures, rnn_subgraph_fails_naming_the_missing_inner_node) {
    try {
        vs::read_nir(fixture("rnn_cuba_subgraph.nir"));
        FAIL() << "expected file_format_error";
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "/node/nodes/lif1/edges");
        EXPECT_NE(std::string(e.what()).find("'lif'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("'lif1'"), std::string::npos) << e.what();
    }
}

TEST(nir_fixtures, all_primitives_file_has_twelve_primitive_types) {
    auto g = vs::read_nir(fixture("allprims.nir"));
    EXPECT_EQ(g.version, "1.0.7");
    std::vector<std::string> types;
    for (const auto& n : g.nodes) types.push_back(n.type);
    std::sort(types.begin(), types.end());
    EXPECT_EQ(types,
              (std::vector<std::string>{"AvgPool2d", "Conv1d", "CubaLI", "Delay", "I", "IF",
                                        "Input", "LI", "Linear", "Output", "Scale", "Threshold"}));
    expect_node(g, "input", "Input", {3}, {3});
    expect_node(g, "lin", "Linear", {3}, {3});
    expect_node(g, "output", "Output", {3}, {3});
    // Disconnected nodes take their shape from their parameters.
    expect_node(g, "conv1", "Conv1d", {3, 16}, {2, 16});  // padding "same"
    expect_node(g, "culi", "CubaLI", {3}, {3});
    expect_node(g, "avg", "AvgPool2d", {}, {});  // nothing tells its input
    EXPECT_EQ(node(g, "conv1").param("padding")->text, "same");
    EXPECT_EQ(node(g, "conv1").param("stride")->shape, shape{});  // a scalar, kept as stored
}

TEST(nir_fixtures, dotted_endpoints_resolve_exact_names_first) {
    auto g = vs::read_nir(fixture("rnn_cuba.nir"));
    EXPECT_EQ(vs::resolve_nir_endpoint(g, "lif1.lif"), std::vector<std::string>{"lif1.lif"});
    EXPECT_TRUE(vs::resolve_nir_endpoint(g, "lif1").empty());
}
