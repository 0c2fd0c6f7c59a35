// The CNN feature path of volley::temporal on the reference CNN fixture (16 test images with
// torch's logits; tests/data/convert/README.md), with the fixture's stored p99.9 λ.

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/snn_conversion.hpp>
#include <volley/error.hpp>
#include <volley/temporal/encoding.hpp>
#include <volley/temporal/frame_features.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace volley;
using namespace volley::temporal;

namespace {

const std::string torch_file = std::string(VOLLEY_TEST_DATA_DIR) + "/convert/fmnist_small_torch.h5";

template <class T>
std::vector<T> read_dataset(hid_t file, const char* path, hid_t type, std::size_t n) {
    std::vector<T> v(n);
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
    H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Dclose(d);
    return v;
}

/// λ per node from /normalization (one value per conv/dense layer, inherited by the others).
convert::layer_scales stored_scales(const convert::cnn_graph& g, hid_t file) {
    std::vector<double> per_layer(3);
    hid_t grp = H5Gopen2(file, "normalization", H5P_DEFAULT);
    hid_t a = H5Aopen(grp, "lambda_p99.9", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_DOUBLE, per_layer.data());
    H5Aclose(a);
    H5Gclose(grp);
    convert::layer_scales s;
    std::size_t layer = 0;
    for (const auto& n : g.nodes) {
        const bool weighted = n.kind == convert::layer_kind::conv2d || n.kind == convert::layer_kind::dense;
        if (weighted) ++layer;
        s.lambda.push_back(per_layer[layer - 1]);
        s.measured.push_back(weighted);
        s.positive_count.push_back(1);
    }
    return s;
}

}  // namespace

// At T = 64 the converted network's output spike counts name torch's class on at least 15 of
// the 16 reference images (the conversion tests allow a few points at small T); the counts are
// at most one spike per step; the table's prediction is the count readout of the evidence; and
// only the requested images get rows. The first-spike code of an image puts cycle 0 on its
// prediction.
TEST(temporal_cnn_features, output_counts_name_torchs_class) {
    hid_t f = H5Fopen(torch_file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const auto x = read_dataset<float>(f, "/reference/x", H5T_NATIVE_FLOAT, 16 * 784);
    const auto logits = read_dataset<float>(f, "/reference/logits", H5T_NATIVE_FLOAT, 160);
    const auto graph = convert::read_cnn(torch_file);
    const auto scales = stored_scales(graph, f);
    H5Fclose(f);
    const auto net = convert::convert_to_snn(graph, scales);

    convert::image_dataset set;
    set.pixels = x;
    set.labels.assign(16, 0);
    std::vector<std::uint32_t> wanted(16);
    for (std::uint32_t i = 0; i < 16; ++i) wanted[i] = i;
    wanted.push_back(3);  // a repeat is evaluated once
    cnn_feature_options o;
    o.timesteps = 64;
    o.threads = 2;
    const auto table = cnn_features(net, set, wanted, o);
    ASSERT_EQ(table.images(), 16u);
    int agree = 0;
    for (std::size_t i = 0; i < 16; ++i) {
        const auto row = table.row(i);
        const auto torch = std::max_element(logits.begin() + 10 * i, logits.begin() + 10 * i + 10) - (logits.begin() + 10 * i);
        agree += table.predicted(i) == torch;
        const auto top = std::max_element(row.begin(), row.end());
        EXPECT_EQ(*top, row[static_cast<std::size_t>(table.predicted(i))]) << "image " << i;
        for (float v : row) {
            EXPECT_GE(v, 0.0f);
            EXPECT_LE(v, 64.0f);
        }
        encoding_options e;
        e.mode = encoding_mode::first_spike;
        const auto spikes = encode_frame(row, table.predicted(i), e);
        ASSERT_FALSE(spikes.empty());
        EXPECT_EQ(spikes.front().cycle, 0);
    }
    std::printf("CNN features at T = 64: %d of 16 images agree with torch\n", agree);
    EXPECT_GE(agree, 15);

    const auto part = cnn_features(net, set, std::vector<std::uint32_t>{2, 5}, o);
    EXPECT_TRUE(part.has(2));
    EXPECT_FALSE(part.has(3));
    for (std::size_t k = 0; k < 10; ++k) EXPECT_EQ(part.row(5)[k], table.row(5)[k]);
    EXPECT_THROW(cnn_features(net, set, std::vector<std::uint32_t>{16}, o), invalid_parameter);
}
