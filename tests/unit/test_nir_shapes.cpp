// Shape inference through each primitive, on small graphs built in memory, with expected shapes
// worked out by hand from PyTorch's formulas; and the reader's width and scalar-pair rules on a
// file written with the plain HDF5 C API.

#include "io_test_dir.hpp"

#include <volley/error.hpp>
#include <volley/snn/nir_file.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>

namespace vs = volley::snn;
using shape = std::vector<std::size_t>;
using params = std::map<std::string, vs::nir_array>;

namespace {

vs::nir_array ints(std::vector<double> v) {
    return vs::nir_array::vector(std::move(v), vs::nir_dtype::int64);
}

vs::nir_array ones(shape s) {
    vs::nir_array a;
    a.shape = s;
    std::size_t n = 1;
    for (auto d : s) n *= d;
    a.values.assign(n, 1.0);
    return a;
}

/// Input(in) -> node -> Output, analysed; returns the node's output shape.
shape through(const shape& in, const std::string& type, params p) {
    vs::nir_graph g;
    g.nodes.emplace_back("in", "Input", params{{"shape", ints({in.begin(), in.end()})}});
    g.nodes.emplace_back("x", type, std::move(p));
    g.nodes.emplace_back("out", "Output");
    g.edges = {{"in", "x"}, {"x", "out"}};
    vs::analyse_nir_graph(g);
    EXPECT_EQ(g.find("out")->output_shape, g.find("x")->output_shape);
    return g.find("x")->output_shape;
}

}  // namespace

TEST(nir_shapes, conv2d_with_stride_dilation_and_groups) {
    // H' = floor((20 + 2*1 - 2*(3-1) - 1) / 2) + 1 = 9; W' = floor((11 + 0 - 2 - 1) / 1) + 1 = 9
    EXPECT_EQ(through({4, 20, 11}, "Conv2d",
                      {{"weight", ones({6, 2, 3, 3})},
                       {"stride", ints({2, 1})},
                       {"padding", ints({1, 0})},
                       {"dilation", ints({2, 1})},
                       {"groups", vs::nir_array::scalar(2, vs::nir_dtype::int64)}}),
              (shape{6, 9, 9}));
}

TEST(nir_shapes, conv_padding_strings) {
    EXPECT_EQ(through({3, 10, 10}, "Conv2d",
                      {{"weight", ones({5, 3, 3, 3})}, {"padding", vs::nir_array::string("same")}}),
              (shape{5, 10, 10}));
    EXPECT_EQ(through({3, 10}, "Conv1d",
                      {{"weight", ones({5, 3, 4})},
                       {"padding", vs::nir_array::string("valid")},
                       {"stride", vs::nir_array::scalar(2, vs::nir_dtype::int64)}}),
              (shape{5, 4}));  // (10 - 4) / 2 + 1
}

TEST(nir_shapes, pools_default_their_stride_to_the_kernel) {
    EXPECT_EQ(through({2, 9, 8}, "AvgPool2d",
                      {{"kernel_size", vs::nir_array::scalar(3, vs::nir_dtype::int64)}}),
              (shape{2, 3, 2}));
    EXPECT_EQ(
        through(
            {2, 9, 8}, "SumPool2d",
            {{"kernel_size", ints({2, 2})}, {"stride", ints({1, 1})}, {"padding", ints({1, 1})}}),
        (shape{2, 10, 9}));
}

TEST(nir_shapes, flatten_counts_per_sample_dims) {
    EXPECT_EQ(through({2, 3, 4}, "Flatten", {}), (shape{24}));
    EXPECT_EQ(through({2, 3, 4}, "Flatten",
                      {{"start_dim", vs::nir_array::scalar(1, vs::nir_dtype::int64)},
                       {"end_dim", vs::nir_array::scalar(-1, vs::nir_dtype::int64)}}),
              (shape{2, 12}));
    EXPECT_EQ(through({2, 3, 4}, "Flatten",
                      {{"start_dim", vs::nir_array::scalar(0, vs::nir_dtype::int64)},
                       {"end_dim", vs::nir_array::scalar(-2, vs::nir_dtype::int64)}}),
              (shape{6, 4}));
}

TEST(nir_shapes, elementwise_nodes_keep_the_shape) {
    EXPECT_EQ(through({2, 3}, "Scale", {{"scale", ones({2, 3})}}), (shape{2, 3}));
    EXPECT_EQ(through({5}, "Threshold", {{"threshold", vs::nir_array::scalar(0.5)}}), (shape{5}));
    EXPECT_EQ(through({5}, "Delay", {{"delay", ones({5})}}), (shape{5}));
    EXPECT_EQ(through({5}, "I", {{"r", ones({5})}}), (shape{5}));
    EXPECT_EQ(through({5}, "CubaLI",
                      {{"tau_syn", ones({5})},
                       {"tau_mem", ones({5})},
                       {"r", ones({5})},
                       {"v_leak", ones({5})}}),
              (shape{5}));
}

TEST(nir_shapes, mismatched_conv_channels_name_the_node) {
    try {
        through({3, 8, 8}, "Conv2d", {{"weight", ones({4, 2, 3, 3})}});
        FAIL();
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.location(), "/node/nodes/x");
        EXPECT_NE(std::string(e.what()).find("Conv2d node 'x'"), std::string::npos) << e.what();
    }
}

class nir_widths : public volley::test::io_test {};

TEST_F(nir_widths, narrow_ints_half_floats_and_scalar_pairs_read) {
    auto path = dir / "widths.nir";
    vs::nir_graph g;
    g.nodes.emplace_back("in", "Input", params{{"shape", ints({1, 6, 6})}});
    g.nodes.emplace_back("pool", "SumPool2d", params{{"kernel_size", ints({2, 2})}});
    g.nodes.emplace_back("lif", "LIF",
                         params{{"tau", vs::nir_array::scalar(0.01)},
                                {"r", vs::nir_array::scalar(1)},
                                {"v_leak", vs::nir_array::scalar(0)},
                                {"v_threshold", vs::nir_array::scalar(1)}});
    g.edges = {{"in", "pool"}, {"pool", "lif"}};
    vs::write_nir(g, path);
    {
        hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        H5Ldelete(f, "/node/nodes/pool/kernel_size", H5P_DEFAULT);
        H5Ldelete(f, "/node/nodes/lif/tau", H5P_DEFAULT);
        hid_t scalar = H5Screate(H5S_SCALAR);
        hid_t k = H5Dcreate2(f, "/node/nodes/pool/kernel_size", H5T_STD_U8LE, scalar, H5P_DEFAULT,
                             H5P_DEFAULT, H5P_DEFAULT);
        int three = 3;
        H5Dwrite(k, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &three);
        hid_t half = H5Tcopy(H5T_IEEE_F32LE);  // IEEE binary16
        H5Tset_fields(half, 15, 10, 5, 0, 10);
        H5Tset_size(half, 2);
        H5Tset_ebias(half, 15);
        hid_t t = H5Dcreate2(f, "/node/nodes/lif/tau", half, scalar, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT);
        double tau = 0.25;
        H5Dwrite(t, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &tau);
        H5Dclose(t), H5Tclose(half), H5Dclose(k), H5Sclose(scalar), H5Fclose(f);
    }
    auto read = vs::read_nir(path);
    EXPECT_EQ(read.find("pool")->output_shape, (shape{1, 2, 2}));  // kernel 3 -> (3, 3)
    EXPECT_EQ(read.find("pool")->param("kernel_size")->dtype, vs::nir_dtype::int64);
    const auto* tau = read.find("lif")->param("tau");
    EXPECT_EQ(tau->dtype, vs::nir_dtype::float32);
    EXPECT_EQ(tau->values, std::vector<double>{0.25});
    EXPECT_EQ(read.find("lif")->output_shape, (shape{1, 2, 2}));
}
