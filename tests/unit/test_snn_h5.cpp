// The converted SNN as HDF5: a written file reads back into an identical network (the
// reference CNN's convolutions, and a quantised dense network with spike input and v0), and
// bad files are file_format_errors naming the file and the object.

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/snn_h5.hpp>
#include <volley/convert/snn_quantization.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <hdf5.h>

#include <filesystem>
#include <fstream>

namespace volley::convert {
namespace {

const std::string torch_file = std::string(VOLLEY_TEST_DATA_DIR) + "/convert/fmnist_small_torch.h5";

std::filesystem::path temp(const std::string& name) { return std::filesystem::temp_directory_path() / name; }

layer_scales scales_for(const cnn_graph& g) {
    layer_scales s;
    for (std::size_t k = 0; k < g.nodes.size(); ++k) {
        s.lambda.push_back(1.0 + 0.37 * static_cast<double>(k));
        s.measured.push_back(true);
        s.positive_count.push_back(1);
    }
    return s;
}

void expect_same(const converted_snn& a, const converted_snn& b) {
    EXPECT_TRUE(a.network == b.network);
    ASSERT_EQ(a.layers.size(), b.layers.size());
    for (std::size_t l = 0; l < a.layers.size(); ++l) {
        EXPECT_EQ(a.layers[l].name, b.layers[l].name);
        EXPECT_EQ(a.layers[l].node, b.layers[l].node);
        EXPECT_EQ(a.layers[l].population, b.layers[l].population);
        EXPECT_EQ(a.layers[l].size(), b.layers[l].size());
        EXPECT_EQ(a.layers[l].height, b.layers[l].height);
        EXPECT_EQ(a.layers[l].lambda, b.layers[l].lambda);
    }
    EXPECT_EQ(a.input, b.input);
    EXPECT_EQ(a.channels, b.channels);
    EXPECT_EQ(a.height, b.height);
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.options.reset, b.options.reset);
    EXPECT_EQ(a.options.v0, b.options.v0);
    EXPECT_EQ(a.options.input, b.options.input);
    EXPECT_EQ(a.options.max_rate, b.options.max_rate);
    EXPECT_EQ(a.source_file, b.source_file);
    EXPECT_TRUE(a.first_map == b.first_map);
    EXPECT_EQ(a.first_weights, b.first_weights);
    EXPECT_EQ(a.first_bias, b.first_bias);
}

TEST(snn_h5, the_reference_cnn_round_trips) {
    const auto g = read_cnn(torch_file);
    const auto net = convert_to_snn(g, scales_for(g), {.reset = reset_rule::zero, .v0 = 0.5});
    const auto file = temp("volley_snn_ref.h5");
    write_snn_h5({.snn = net, .options = {{"percentile", "99.9"}, {"timesteps", {8, 16}}}}, file.string());
    const auto back = read_snn_h5(file.string());
    expect_same(net, back.snn);
    EXPECT_EQ(back.quantized_bits, 0);
    EXPECT_EQ(back.options["percentile"], "99.9");
    EXPECT_EQ(back.options["timesteps"][1], 16);
    ASSERT_TRUE(std::holds_alternative<snn::convolution>(back.snn.first_map));
    std::filesystem::remove(file);
}

cnn_graph dense_chain() {
    cnn_graph g;
    g.source_file = "chain.h5";
    g.input_shape = {1, 5, 1, 1};
    const std::size_t sizes[3] = {5, 6, 3};
    for (int l = 0; l < 2; ++l) {
        layer_node d;
        d.name = "d" + std::to_string(l);
        d.kind = layer_kind::dense;
        if (l > 0) d.inputs = {0};
        d.output_shape = {1, sizes[l + 1], 1, 1};
        d.relu = l == 0;
        d.dense.in_features = sizes[l];
        d.dense.out_features = sizes[l + 1];
        for (std::size_t k = 0; k < sizes[l] * sizes[l + 1]; ++k) d.dense.kernel.push_back(static_cast<float>((k * 37 % 11)) / 11.0f - 0.45f);
        for (std::size_t k = 0; k < sizes[l + 1]; ++k) d.dense.bias.push_back(0.01f * static_cast<float>(k));
        g.nodes.push_back(d);
    }
    return g;
}

TEST(snn_h5, a_quantised_spike_input_network_round_trips) {
    const auto g = dense_chain();
    const auto net = convert_to_snn(g, scales_for(g), {.v0 = 0.5, .input = input_coding::poisson, .max_rate = 0.5});
    const auto q = quantize_snn(net, {.bits = 6});
    const auto file = temp("volley_snn_q.h5");
    write_snn_h5({.snn = q.snn, .quantized_bits = 6}, file.string());
    const auto back = read_snn_h5(file.string());
    expect_same(q.snn, back.snn);
    EXPECT_EQ(back.quantized_bits, 6);
    ASSERT_TRUE(back.snn.input.has_value());
    std::filesystem::remove(file);
}

TEST(snn_h5, bad_files_name_the_file_and_the_object) {
    const auto g = dense_chain();
    const auto net = convert_to_snn(g, scales_for(g));
    const auto file = temp("volley_snn_bad.h5");
    auto expect_error = [&](const std::string& object) {
        try {
            (void)read_snn_h5(file.string());
            FAIL() << object;
        } catch (const file_format_error& e) {
            const std::string m = e.what();
            EXPECT_NE(m.find(file.string()), std::string::npos) << m;
            EXPECT_NE(m.find(object), std::string::npos) << m;
        }
    };
    auto edit = [&](const char* group, const char* attribute) {
        write_snn_h5({.snn = net}, file.string());
        hid_t f = H5Fopen(file.string().c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        hid_t grp = H5Gopen2(f, group, H5P_DEFAULT);
        H5Adelete(grp, attribute);
        H5Gclose(grp);
        H5Fclose(f);
    };
    edit("/projections/0", "target");
    expect_error("/projections/0 attribute 'target'");
    edit("/populations/1", "v_threshold");
    expect_error("/populations/1 attribute 'v_threshold'");
    edit("/", "format");
    expect_error("attribute 'format'");
    // A dataset of the wrong length.
    write_snn_h5({.snn = net}, file.string());
    {
        hid_t f = H5Fopen(file.string().c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        H5Ldelete(f, "/first_map/bias", H5P_DEFAULT);
        const hsize_t n = 2;
        hid_t space = H5Screate_simple(1, &n, nullptr);
        hid_t set = H5Dcreate2(f, "/first_map/bias", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        const double v[2] = {1, 2};
        H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        H5Dclose(set);
        H5Sclose(space);
        H5Fclose(f);
    }
    expect_error("/first_map/bias");
    // Not HDF5 at all.
    {
        std::ofstream out(file);
        out << "not an HDF5 file\n";
    }
    EXPECT_THROW((void)read_snn_h5(file.string()), file_format_error);
    std::filesystem::remove(file);
}

}  // namespace
}  // namespace volley::convert
