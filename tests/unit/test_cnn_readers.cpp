// The CNN readers and the analog forward pass against logits computed elsewhere: the shared
// torch fixture (PyTorch's own logits), its tf.keras-layout twin, and files written by real
// Keras (tests/data/keras/make_fixtures.py) with Keras's own logits.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/batch_norm.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/model_writers.hpp>
#include <volley/convert/sequential_model.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <hdf5.h>

#include "../support/h5_reference.hpp"
#include "io_test_dir.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>

namespace vc = volley::convert;

namespace {

const std::string reference_dir = std::string(VOLLEY_TEST_DATA_DIR) + "/convert/";
const std::string keras_dir = std::string(VOLLEY_TEST_DATA_DIR) + "/keras/";

/// Reads `/x` (NCHW) and `/logits` of a reference file written by make_fixtures.py.
struct reference {
    vc::tensor<float> x;
    std::vector<float> logits;
    std::size_t classes = 0;
};

using volley::testing::read_float_dataset;

reference read_reference(const std::string& path) {
    reference r;
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    EXPECT_GE(f, 0) << path;
    std::vector<hsize_t> dims;
    r.x.values = read_float_dataset(f, "x", dims);
    r.x.shape = {dims[0], dims[1], dims[2], dims[3]};
    r.logits = read_float_dataset(f, "logits", dims);
    r.classes = dims[1];
    H5Fclose(f);
    return r;
}

/// Every logit within 1e-5 relative (to the largest logit magnitude of its image).
void expect_logits_close(const vc::tensor<float>& got, const std::vector<float>& want,
                         std::size_t classes, double relative = 1e-5) {
    ASSERT_EQ(got.values.size(), want.size());
    ASSERT_EQ(got.shape.c, classes);
    for (std::size_t i = 0; i < got.shape.n; ++i) {
        double scale = 0;
        for (std::size_t c = 0; c < classes; ++c)
            scale = std::max(scale, std::abs(static_cast<double>(want[i * classes + c])));
        for (std::size_t c = 0; c < classes; ++c)
            EXPECT_NEAR(got.values[i * classes + c], want[i * classes + c], relative * scale)
                << "image " << i << " class " << c;
    }
}

void check_keras_fixture(const std::string& name, const vc::cnn_graph& g) {
    const auto ref = read_reference(keras_dir + name + ".ref.h5");
    ASSERT_EQ(g.input_shape, ref.x.shape.with_batch(1)) << vc::summary(g);
    const auto logits = vc::analog_forward(g, ref.x);
    expect_logits_close(logits, ref.logits, ref.classes);
}

}  // namespace

TEST(CnnReaders, TorchFixtureLogitsEqualStoredReference) {
    const auto file = reference_dir + "fmnist_small_torch.h5";
    EXPECT_EQ(vc::detect_cnn_format(file), vc::cnn_file_format::volley);
    const auto g = vc::read_cnn(file);
    ASSERT_EQ(g.nodes.size(), 6u) << vc::summary(g);
    EXPECT_EQ(g.parameter_count(), 20490u);
    EXPECT_TRUE(g.nodes[0].relu);
    EXPECT_FALSE(g.nodes.back().relu);
    const auto ref = vc::read_stored_reference(file, g.input_shape);
    ASSERT_TRUE(ref.has_value());
    ASSERT_EQ(ref->x.shape.n, 16u);
    const auto logits = vc::analog_forward(g, ref->x);
    expect_logits_close(logits, ref->logits.values, 10);
}

TEST(CnnReaders, KerasLayoutTwinGivesTheTorchLogits) {
    // Same weights in tf.keras layout (HWIO, channels_last, Dense rows in HWC order): only a
    // correct Flatten-trap resolution reproduces PyTorch's logits.
    const auto torch_file = reference_dir + "fmnist_small_torch.h5";
    const auto keras_file = reference_dir + "fmnist_small_keras_layout.h5";
    EXPECT_EQ(vc::detect_cnn_format(keras_file), vc::cnn_file_format::keras);
    const auto g = vc::read_cnn(keras_file);
    EXPECT_EQ(g.format, "keras");
    const auto ref = vc::read_stored_reference(torch_file, g.input_shape);
    ASSERT_TRUE(ref.has_value());
    expect_logits_close(vc::analog_forward(g, ref->x), ref->logits.values, 10);
}

TEST(CnnReaders, KerasChannelsFirstMaxPoolSamePadding) {
    const auto g = vc::read_cnn(keras_dir + "cf_maxpool_same.h5");
    EXPECT_EQ(g.input_shape, (vc::shape4{1, 2, 13, 13}));
    check_keras_fixture("cf_maxpool_same", g);
}

TEST(CnnReaders, KerasChannelsLastBatchNormIsFoldedAndSoftmaxRemoved) {
    const auto g = vc::read_cnn(keras_dir + "cl_batchnorm.h5");
    EXPECT_TRUE(g.removed_softmax);
    for (const auto& n : g.nodes) EXPECT_EQ(n.name.find("bn"), std::string::npos) << n.name;
    EXPECT_EQ(g.removed_layers, std::vector<std::string>{"drop"});
    check_keras_fixture("cl_batchnorm", g);
}

TEST(CnnReaders, KerasFunctionalResidualAddAndConcatenate) {
    const auto g = vc::read_cnn(keras_dir + "functional_residual.h5");
    bool has_add = false, has_concat = false;
    for (const auto& n : g.nodes) {
        has_add = has_add || (n.kind == vc::layer_kind::add && n.relu && n.inputs.size() == 2);
        has_concat = has_concat || n.kind == vc::layer_kind::concatenate;
    }
    EXPECT_TRUE(has_add) << vc::summary(g);
    EXPECT_TRUE(has_concat) << vc::summary(g);
    check_keras_fixture("functional_residual", g);
}

TEST(CnnReaders, KerasSaveWeightsWithSeparateJson) {
    const auto g = vc::read_cnn(keras_dir + "weights_only.h5", keras_dir + "weights_only.json");
    EXPECT_EQ(g.format, "keras-weights+json");
    check_keras_fixture("weights_only", g);
    // Without the JSON the error says what is missing.
    EXPECT_THROW(vc::read_keras_h5(keras_dir + "weights_only.h5"), volley::file_format_error);
}

TEST(CnnReaders, UnsupportedLayerNamesLayerTypeAndAlternative) {
    try {
        vc::read_cnn(keras_dir + "bad_unsupported_layer.h5");
        FAIL() << "no error";
    } catch (const volley::unsupported_model& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("'leaky'"), std::string::npos) << m;
        EXPECT_NE(m.find("LeakyReLU"), std::string::npos) << m;
        EXPECT_NE(m.find("'relu'"), std::string::npos) << m;
        EXPECT_NE(m.find("bad_unsupported_layer.h5"), std::string::npos) << m;
    }
}

namespace {

void expect_format_error(const std::string& fixture, const std::vector<std::string>& words) {
    const auto weights = keras_dir + fixture;
    try {
        vc::read_cnn(weights, keras_dir + "weights_only.json");
        FAIL() << "no error for " << fixture;
    } catch (const volley::file_format_error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find(fixture), std::string::npos) << m;
        for (const auto& w : words) EXPECT_NE(m.find(w), std::string::npos) << m;
    }
}

}  // namespace

TEST(CnnReaders, NanWeightNamesLayerAndValue) {
    expect_format_error("bad_nan_weight.h5", {"'hidden'", "nan", "index"});
}

TEST(CnnReaders, ShapeMismatchNamesLayerAndShapes) {
    expect_format_error("bad_shape_mismatch.h5", {"out", "shape mismatch", "(5, 3)", "(6, 3)"});
}

TEST(CnnReaders, MissingWeightDatasetNamesLayer) {
    expect_format_error("bad_missing_weight.h5", {"strided", "missing weight dataset", "bias"});
}

TEST(CnnReaders, ImageSizeMismatchIsInvalidParameter) {
    const auto g = vc::read_cnn(reference_dir + "fmnist_small_torch.h5");
    const vc::tensor<float> wrong(vc::shape4{2, 1, 32, 32});
    try {
        vc::analog_forward(g, wrong);
        FAIL() << "no error";
    } catch (const volley::invalid_parameter& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("(2, 1, 32, 32)"), std::string::npos) << m;
        EXPECT_NE(m.find("(2, 1, 28, 28)"), std::string::npos) << m;
    }
    EXPECT_THROW(vc::analog_forward_one(g, std::vector<float>(100)), volley::invalid_parameter);
}

TEST(CnnReaders, NotAModelFileIsFormatError) {
    EXPECT_THROW(vc::detect_cnn_format(keras_dir + "weights_only.ref.h5"),
                 volley::file_format_error);
    EXPECT_THROW(vc::read_cnn(keras_dir + "no_such_file.h5"), volley::io_error);
}

TEST(CnnReaders, AnalogForwardIsIdenticalForAnyThreadCount) {
    const auto g = vc::read_cnn(reference_dir + "fmnist_small_torch.h5");
    const auto ref = vc::read_stored_reference(reference_dir + "fmnist_small_torch.h5", g.input_shape);
    const auto one = vc::analog_forward(g, ref->x, {1});
    for (int threads : {2, 3})
        EXPECT_EQ(vc::analog_forward(g, ref->x, {threads}).values, one.values);
}

namespace {

/// The "reference" architecture (Conv-BN-ReLU-MaxPool ×2, Dense-ReLU, Dropout, Dense) with
/// non-trivial BatchNorm statistics, and 8 random images.
struct trained_like {
    vc::sequential_model<float> model = vc::make_model("reference", 5);
    vc::reference_batch batch;
    trained_like() {
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> u(0, 1);
        for (std::size_t i = 0; i < model.size(); ++i)
            if (auto* bn = dynamic_cast<vc::batch_norm<float>*>(&model.at(i))) {
                for (auto& m : bn->moving_mean()) m = u(rng) - 0.5f;
                for (auto& v : bn->moving_variance()) v = 0.2f + 2 * u(rng);
                for (auto& p : bn->parameters())
                    for (auto& v : p.values) v = 0.5f + u(rng);
            }
        vc::image_dataset data;
        data.pixels.resize(8 * 784);
        for (auto& p : data.pixels) p = u(rng);
        data.labels.assign(8, 0);
        batch = vc::make_reference_batch(model, data, 8);
    }
};

using CnnReadersRoundTrip = volley::test::io_test;

}  // namespace

TEST_F(CnnReadersRoundTrip, VolleyTrainModelsReadBackWithTheTrainersLogits) {
    // The trainer's own layers (im2col + BatchNorm in inference) are the independent reference.
    trained_like t;
    vc::write_keras_h5(t.model, dir / "model_keras.h5", t.batch, {});
    vc::write_volley_h5(t.model, dir / "model_volley.h5", t.batch, {});
    for (const char* name : {"model_keras.h5", "model_volley.h5"}) {
        const auto g = vc::read_cnn(dir / name);
        for (const auto& n : g.nodes) EXPECT_NE(n.source_type, "BatchNormalization") << name;
        EXPECT_EQ(g.removed_layers.size(), 1u) << name;  // the Dropout
        const auto logits = vc::analog_forward(g, t.batch.x);
        expect_logits_close(logits, t.batch.logits.values, 10, 2e-5);
        const auto stored = vc::read_stored_reference(dir / name, g.input_shape);
        ASSERT_TRUE(stored.has_value());
        EXPECT_EQ(stored->x.values, t.batch.x.values) << name;  // NHWC in the Keras file
    }
}

TEST(CnnReaders, TorchExporterFileMatchesPyTorchLogits) {
    // Written by convert/tools/export_torch.py from a real PyTorch model
    // (tests/data/torch/make_fixtures.py): 'same' padding with an even kernel, dilation, groups,
    // BatchNorm2d/1d, MaxPool2d, asymmetric ZeroPad2d, nested Sequential, final Softmax.
    const std::string file = std::string(VOLLEY_TEST_DATA_DIR) + "/torch/torch_export.h5";
    const auto g = vc::read_cnn(file);
    EXPECT_EQ(g.format, "volley");
    const auto ref = vc::read_stored_reference(file, g.input_shape);
    ASSERT_TRUE(ref.has_value());
    expect_logits_close(vc::analog_forward(g, ref->x), ref->logits.values, 3);
}

TEST(CnnReaders, Keras3LegacyH5WithoutColonZeroWeightNames) {
    const auto g = vc::read_cnn(keras_dir + "keras3_functional.h5");
    EXPECT_TRUE(g.removed_softmax);
    check_keras_fixture("keras3_functional", g);
}

TEST(CnnReaders, Keras22StyleModelWithFixedLengthStringsAndSplitAttributes) {
    // h5py imitation of Keras 2.2.4 (see make_fixtures.py), weights of weights_only.h5.
    const auto g = vc::read_cnn(keras_dir + "keras22_style.h5");
    check_keras_fixture("weights_only", g);
}

namespace {

/// Replaces the string attribute `name` of `object` in `file` (variable-length UTF-8).
void set_string_attribute(const std::filesystem::path& file, const std::string& object,
                          const char* name, const std::string& value) {
    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t o = H5Oopen(f, object.c_str(), H5P_DEFAULT);
    H5Adelete(o, name);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(o, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    const char* text = value.c_str();
    H5Awrite(a, type, &text);
    H5Aclose(a), H5Sclose(space), H5Tclose(type), H5Oclose(o), H5Fclose(f);
}

}  // namespace

TEST_F(CnnReadersRoundTrip, VolleyLayoutUnsupportedTypeAndActivationAreNamed) {
    trained_like t;
    const auto file = dir / "model.h5";
    vc::write_volley_h5(t.model, file, t.batch, {});
    const auto g = vc::read_cnn(file);
    const std::string conv = g.nodes.front().name;
    set_string_attribute(file, "/layers/" + conv, "activation", "sigmoid");
    try {
        vc::read_cnn(file);
        FAIL() << "no error";
    } catch (const volley::unsupported_model& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("'" + conv + "'"), std::string::npos) << m;
        EXPECT_NE(m.find("sigmoid"), std::string::npos) << m;
        EXPECT_NE(m.find("'relu'"), std::string::npos) << m;
    }
    set_string_attribute(file, "/layers/" + conv, "activation", "linear");  // BN follows
    // softmax on the output layer is removed, and the logits stay the same
    set_string_attribute(file, "/layers/" + g.nodes.back().name, "activation", "softmax");
    const auto with_softmax = vc::read_cnn(file);
    EXPECT_TRUE(with_softmax.removed_softmax);
    expect_logits_close(vc::analog_forward(with_softmax, t.batch.x), t.batch.logits.values, 10,
                        2e-5);
    set_string_attribute(file, "/layers/" + conv, "type", "deform_conv2d");
    try {
        vc::read_cnn(file);
        FAIL() << "no error";
    } catch (const volley::unsupported_model& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("deform_conv2d"), std::string::npos) << m;
        EXPECT_NE(m.find("use Conv2D"), std::string::npos) << m;
    }
}

TEST(CnnReaders, KerasDepthwiseAndSeparableConvolutionsBecomeGroupedConvolutions) {
    const auto g = vc::read_cnn(keras_dir + "depthwise_separable.h5");
    ASSERT_GE(g.nodes.size(), 3u);
    EXPECT_EQ(g.nodes[0].conv.groups, 3u);  // depthwise, multiplier 2
    EXPECT_EQ(g.nodes[0].conv.out_channels, 6u);
    EXPECT_EQ(g.nodes[1].name, "sep/depthwise");
    EXPECT_EQ(g.nodes[1].conv.groups, 6u);
    check_keras_fixture("depthwise_separable", g);
}
