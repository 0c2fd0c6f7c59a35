// Old Keras files: a Keras 2.0 file trained on Theano (flipped kernels, Theano's 'same'
// padding), Keras 1.2 files (Convolution2D, `_W`/`_b` weights, 'th' and 'tf' orderings,
// Sequential and the Functional Model), against logits of numpy forward passes written from the
// backends' definitions (tests/data/keras/make_legacy_fixtures.py), and the errors for what
// Volley refuses to guess.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>
#include <nlohmann/json.hpp>

#include "../support/h5_reference.hpp"
#include "io_test_dir.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

namespace vc = volley::convert;

namespace {

const std::string keras_dir = std::string(VOLLEY_TEST_DATA_DIR) + "/keras/";

using volley::testing::read_float_dataset;

/// The root attribute `name` of `file`, a fixed-length string as h5py writes np.bytes_.
std::string read_root_text(const std::string& file, const char* name) {
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    std::string s(H5Tget_size(t), '\0');
    H5Aread(a, t, s.data());
    H5Tclose(t);
    H5Aclose(a);
    H5Fclose(f);
    s.resize(std::strlen(s.c_str()));
    return s;
}

/// The model's logits on the stored images against the stored numpy logits: every logit
/// within 1e-5 of the reference, relative to the image's largest logit magnitude (at least 1).
void expect_reference_logits(const std::string& name, const vc::cnn_graph& g) {
    hid_t f = H5Fopen((keras_dir + name + ".ref.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << name;
    std::vector<hsize_t> dims;
    vc::tensor<float> x;
    x.values = read_float_dataset(f, "x", dims);
    x.shape = {dims[0], dims[1], dims[2], dims[3]};
    const auto want = read_float_dataset(f, "logits", dims);
    const std::size_t classes = dims[1];
    H5Fclose(f);
    ASSERT_EQ(g.input_shape, x.shape.with_batch(1)) << vc::summary(g);
    const auto got = vc::analog_forward(g, x);
    ASSERT_EQ(got.values.size(), want.size());
    for (std::size_t i = 0; i < x.shape.n; ++i) {
        double scale = 1;
        for (std::size_t c = 0; c < classes; ++c)
            scale = std::max(scale, std::abs(static_cast<double>(want[i * classes + c])));
        for (std::size_t c = 0; c < classes; ++c)
            EXPECT_NEAR(got.values[i * classes + c], want[i * classes + c], 1e-5 * scale)
                << name << " image " << i << " class " << c;
    }
}

template <class E>
std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    ADD_FAILURE() << "no exception of the expected type";
    return "";
}

}  // namespace

TEST(KerasLegacy, TheanoBackendKernelsAreRotatedAndPaddedAsTheanoPads) {
    const auto file = keras_dir + "keras2_theano_lenet.h5";
    const auto g = vc::read_cnn(file);
    EXPECT_TRUE(g.removed_softmax);
    expect_reference_logits("keras2_theano_lenet", g);
}

TEST(KerasLegacy, Keras1TheanoSequentialWithThOrderingAndBatchNorm) {
    const auto g = vc::read_cnn(keras_dir + "keras1_theano_sequential.h5");
    EXPECT_EQ(g.input_shape, (vc::shape4{1, 2, 12, 12}));
    EXPECT_TRUE(g.removed_softmax);
    expect_reference_logits("keras1_theano_sequential", g);
}

TEST(KerasLegacy, Keras1TensorFlowFunctionalModelWithTfOrderingAndMergeSum) {
    const auto g = vc::read_cnn(keras_dir + "keras1_tf_functional.h5");
    EXPECT_EQ(g.input_shape, (vc::shape4{1, 3, 8, 8}));
    expect_reference_logits("keras1_tf_functional", g);
}

TEST(KerasLegacy, UnknownBackendIsUnsupportedModelNamingFileAndValue) {
    const auto file = keras_dir + "bad_unknown_backend.h5";
    const auto m = message_of<volley::unsupported_model>([&] { vc::read_cnn(file); });
    EXPECT_NE(m.find("bad_unknown_backend.h5"), std::string::npos) << m;
    EXPECT_NE(m.find("'mxnet'"), std::string::npos) << m;
    EXPECT_NE(m.find("backend"), std::string::npos) << m;
}

using KerasLegacyFiles = volley::test::io_test;

TEST_F(KerasLegacyFiles, TheanoLayersWhosePaddingOrKernelsDifferAreRefused) {
    // The Theano LeNet's architecture, altered, over its own weights (read_keras_weights).
    const auto weights = keras_dir + "keras2_theano_lenet.h5";
    const auto model = nlohmann::json::parse(read_root_text(weights, "model_config"));
    auto write = [&](const nlohmann::json& m) {
        const auto path = dir / "model.json";
        std::ofstream(path) << m.dump();
        return path;
    };
    auto pool_same = model;
    pool_same["config"][1]["config"]["padding"] = "same";
    auto m = message_of<volley::unsupported_model>(
        [&] { vc::read_keras_weights(weights, write(pool_same)); });
    EXPECT_NE(m.find("max_pooling2d_1"), std::string::npos) << m;
    EXPECT_NE(m.find("Theano"), std::string::npos) << m;
    auto depthwise = model;
    depthwise["config"][0]["class_name"] = "DepthwiseConv2D";
    m = message_of<volley::unsupported_model>(
        [&] { vc::read_keras_weights(weights, write(depthwise)); });
    EXPECT_NE(m.find("conv2d_1"), std::string::npos) << m;
    EXPECT_NE(m.find("Theano"), std::string::npos) << m;
}

TEST_F(KerasLegacyFiles, Keras1BatchNormOutsideModeZeroIsRefused) {
    const auto file = keras_dir + "keras1_theano_sequential.h5";
    auto model = nlohmann::json::parse(read_root_text(file, "model_config"));
    model["config"][3]["config"]["mode"] = 2;
    const auto path = dir / "model.json";
    std::ofstream(path) << model.dump();
    const auto m =
        message_of<volley::unsupported_model>([&] { vc::read_keras_weights(file, path); });
    EXPECT_NE(m.find("batchnormalization_1"), std::string::npos) << m;
    EXPECT_NE(m.find("mode 2"), std::string::npos) << m;
}
