// The CNN readers and the analog forward pass against logits computed elsewhere: the shared
// torch fixture (PyTorch's own logits), its tf.keras-layout twin, and files written by real
// Keras (tests/data/keras/make_fixtures.py) with Keras's own logits.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace vc = volley::convert;

namespace {

const std::string shared_dir = std::string(VOLLEY_SHARED_DIR) + "/data/convert/";
const std::string keras_dir = std::string(VOLLEY_TEST_DATA_DIR) + "/keras/";

/// Reads `/x` (NCHW) and `/logits` of a reference file written by make_fixtures.py.
struct reference {
    vc::tensor<float> x;
    std::vector<float> logits;
    std::size_t classes = 0;
};

std::vector<float> read_dataset(hid_t file, const char* name, std::vector<hsize_t>& dims) {
    hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t space = H5Dget_space(ds);
    dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    std::size_t n = 1;
    for (auto d : dims) n *= d;
    std::vector<float> v(n);
    H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Sclose(space);
    H5Dclose(ds);
    return v;
}

reference read_reference(const std::string& path) {
    reference r;
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    EXPECT_GE(f, 0) << path;
    std::vector<hsize_t> dims;
    r.x.values = read_dataset(f, "x", dims);
    r.x.shape = {dims[0], dims[1], dims[2], dims[3]};
    r.logits = read_dataset(f, "logits", dims);
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
    const auto file = shared_dir + "fmnist_small_torch.h5";
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
    const auto torch_file = shared_dir + "fmnist_small_torch.h5";
    const auto keras_file = shared_dir + "fmnist_small_keras_layout.h5";
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
    const auto g = vc::read_cnn(shared_dir + "fmnist_small_torch.h5");
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
    EXPECT_THROW(vc::detect_cnn_format(keras_dir + "weights_only.ref.h5"), volley::file_format_error);
    EXPECT_THROW(vc::read_cnn(keras_dir + "no_such_file.h5"), volley::io_error);
}

TEST(CnnReaders, AnalogForwardIsIdenticalForAnyThreadCount) {
    const auto g = vc::read_cnn(shared_dir + "fmnist_small_torch.h5");
    const auto ref = vc::read_stored_reference(shared_dir + "fmnist_small_torch.h5", g.input_shape);
    const auto one = vc::analog_forward(g, ref->x, {1});
    for (int threads : {2, 3}) EXPECT_EQ(vc::analog_forward(g, ref->x, {threads}).values, one.values);
}
