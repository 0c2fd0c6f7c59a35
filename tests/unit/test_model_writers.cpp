// The Keras and Volley HDF5 writers, checked by reading the files back with the plain HDF5 C API,
// and the Keras ↔ Volley layout conversions.

#include <volley/convert/keras_layout.hpp>
#include <volley/convert/model_writers.hpp>
#include <volley/error.hpp>

#include "io_test_dir.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <nlohmann/json.hpp>

#include <random>

namespace vc = volley::convert;
using model_writers = volley::test::io_test;

namespace {

vc::image_dataset synthetic(std::size_t count) {
    vc::image_dataset d;
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> u(0, 1);
    d.pixels.resize(count * d.image_size());
    for (auto& p : d.pixels) p = u(rng);
    for (std::size_t i = 0; i < count; ++i) d.labels.push_back(static_cast<std::uint8_t>(i % 10));
    return d;
}

std::string string_attribute(hid_t obj, const char* name) {
    const hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    EXPECT_GE(a, 0) << name;
    const hid_t t = H5Aget_type(a);
    std::string out;
    if (H5Tis_variable_str(t) > 0) {
        char* s = nullptr;
        const hid_t mt = H5Tget_native_type(t, H5T_DIR_ASCEND);
        H5Aread(a, mt, &s);
        out = s;
        H5free_memory(s);
        H5Tclose(mt);
    }
    H5Tclose(t);
    H5Aclose(a);
    return out;
}

/// A 1-D attribute of fixed-length strings, trailing NULs removed.
std::vector<std::string> string_array_attribute(hid_t obj, const char* name) {
    const hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    const hid_t t = H5Aget_type(a), s = H5Aget_space(a);
    std::vector<std::string> out;
    if (H5Tget_class(t) == H5T_STRING) {
        const std::size_t width = H5Tget_size(t);
        const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(s));
        std::vector<char> buf(width * n);
        H5Aread(a, t, buf.data());
        for (std::size_t i = 0; i < n; ++i) {
            std::string v(buf.data() + i * width, width);
            out.push_back(v.substr(0, v.find('\0')));
        }
    }
    H5Sclose(s);
    H5Tclose(t);
    H5Aclose(a);
    return out;
}

std::vector<hsize_t> dataset_shape(hid_t file, const std::string& path) {
    const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    if (d < 0) return {};
    const hid_t s = H5Dget_space(d);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(s)));
    H5Sget_simple_extent_dims(s, dims.data(), nullptr);
    H5Sclose(s);
    H5Dclose(d);
    return dims;
}

std::vector<float> read_floats(hid_t file, const std::string& path) {
    const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    const hid_t s = H5Dget_space(d);
    std::vector<float> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
    H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Sclose(s);
    H5Dclose(d);
    return v;
}

using dims = std::vector<hsize_t>;

}  // namespace

TEST_F(model_writers, KerasFileReadsBackWithThePlainHdf5Api) {
    auto model = vc::make_model("small", 9);
    const auto ref = vc::make_reference_batch(model, synthetic(20), 16);
    const auto path = dir / "small.h5";
    vc::model_provenance prov;
    prov.test_accuracy = 0.5;
    prov.epochs = 3;
    vc::write_keras_h5(model, path, ref, prov);

    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(string_attribute(f, "backend"), "tensorflow");
    EXPECT_EQ(string_attribute(f, "dataset").rfind("fashion-mnist", 0), 0u);
    const auto config = nlohmann::json::parse(string_attribute(f, "model_config"));
    EXPECT_EQ(config["class_name"], "Sequential");
    std::vector<std::string> classes;
    for (const auto& l : config["config"]["layers"]) classes.push_back(l["class_name"]);
    EXPECT_EQ(classes, (std::vector<std::string>{"InputLayer", "Conv2D", "AveragePooling2D", "Conv2D",
                                                 "AveragePooling2D", "Flatten", "Dense"}));
    const auto& conv = config["config"]["layers"][1]["config"];
    EXPECT_EQ(conv["name"], "conv2d");
    EXPECT_EQ(conv["activation"], "relu");
    EXPECT_EQ(conv["padding"], "same");
    EXPECT_EQ(conv["data_format"], "channels_last");
    EXPECT_EQ(conv["batch_input_shape"], nlohmann::json::parse("[null, 28, 28, 1]"));
    EXPECT_EQ(config["config"]["layers"][6]["config"]["activation"], "linear");

    const hid_t weights = H5Gopen2(f, "model_weights", H5P_DEFAULT);
    EXPECT_EQ(string_array_attribute(weights, "layer_names"),
              (std::vector<std::string>{"conv2d", "average_pooling2d", "conv2d_1",
                                        "average_pooling2d_1", "flatten", "dense"}));
    const hid_t conv_group = H5Gopen2(weights, "conv2d_1", H5P_DEFAULT);
    EXPECT_EQ(string_array_attribute(conv_group, "weight_names"),
              (std::vector<std::string>{"conv2d_1/kernel:0", "conv2d_1/bias:0"}));
    H5Gclose(conv_group);
    H5Gclose(weights);
    EXPECT_EQ(dataset_shape(f, "model_weights/conv2d/conv2d/kernel:0"), (dims{3, 3, 1, 16}));
    EXPECT_EQ(dataset_shape(f, "model_weights/conv2d_1/conv2d_1/kernel:0"), (dims{3, 3, 16, 32}));
    EXPECT_EQ(dataset_shape(f, "model_weights/conv2d_1/conv2d_1/bias:0"), (dims{32}));
    EXPECT_EQ(dataset_shape(f, "model_weights/dense/dense/kernel:0"), (dims{1568, 10}));
    EXPECT_EQ(dataset_shape(f, "reference/x"), (dims{16, 28, 28, 1}));
    EXPECT_EQ(dataset_shape(f, "reference/logits"), (dims{16, 10}));

    // Values: HWIO[ky][kx][i][o] = OIHW[o][i][ky][kx]; Dense rows in HWC order.
    const auto hwio = read_floats(f, "model_weights/conv2d_1/conv2d_1/kernel:0");
    const auto& oihw = model.at(3).parameters()[0].values;
    EXPECT_EQ(hwio[((2 * 3 + 1) * 16 + 5) * 32 + 7], oihw[((7 * 16 + 5) * 3 + 2) * 3 + 1]);
    const auto keras_dense = read_floats(f, "model_weights/dense/dense/kernel:0");
    const auto& volley_dense = model.at(7).parameters()[0].values;  // (10, 32·7·7) over CHW
    const std::size_t c = 4, y = 5, x = 6, o = 3;
    EXPECT_EQ(keras_dense[((y * 7 + x) * 32 + c) * 10 + o], volley_dense[o * 1568 + (c * 7 + y) * 7 + x]);
    H5Fclose(f);
}

TEST_F(model_writers, KerasSmallBnModelIsSmallWithBatchNormAfterEachConvolution) {
    auto model = vc::make_model("small_bn", 1);
    // small's 20,490 parameters and, per convolution channel, BatchNorm's trainable gamma and beta
    EXPECT_EQ(model.parameter_count(), 20490u + 2 * (16 + 32));
    const auto path = dir / "small_bn.h5";
    vc::write_keras_h5(model, path, vc::make_reference_batch(model, synthetic(4), 4), {});
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const auto config = nlohmann::json::parse(string_attribute(f, "model_config"));
    std::vector<std::string> classes;
    for (const auto& l : config["config"]["layers"]) classes.push_back(l["class_name"]);
    EXPECT_EQ(classes, (std::vector<std::string>{"InputLayer", "Conv2D", "BatchNormalization", "ReLU",
                                                 "AveragePooling2D", "Conv2D", "BatchNormalization",
                                                 "ReLU", "AveragePooling2D", "Flatten", "Dense"}));
    EXPECT_EQ(config["config"]["layers"][1]["config"]["padding"], "same");
    EXPECT_EQ(dataset_shape(f, "model_weights/batch_normalization_1/batch_normalization_1/"
                               "moving_variance:0"),
              (dims{32}));
    H5Fclose(f);
}

TEST_F(model_writers, KerasReferenceModelFoldsReluAndKeepsDropout) {
    auto model = vc::make_model("reference", 1);
    const auto ref = vc::make_reference_batch(model, synthetic(4), 4);
    const auto path = dir / "reference.h5";
    vc::write_keras_h5(model, path, ref, {});
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const auto config = nlohmann::json::parse(string_attribute(f, "model_config"));
    std::vector<std::string> classes;
    for (const auto& l : config["config"]["layers"]) classes.push_back(l["class_name"]);
    EXPECT_EQ(classes, (std::vector<std::string>{"InputLayer", "Conv2D", "BatchNormalization",
                                                 "ReLU", "MaxPooling2D", "Conv2D",
                                                 "BatchNormalization", "ReLU", "MaxPooling2D",
                                                 "Flatten", "Dense", "Dropout", "Dense"}));
    EXPECT_EQ(config["config"]["layers"][1]["config"]["padding"], "valid");
    EXPECT_EQ(config["config"]["layers"][1]["config"]["activation"], "linear");
    EXPECT_EQ(config["config"]["layers"][2]["config"]["axis"], nlohmann::json::parse("[3]"));
    EXPECT_EQ(config["config"]["layers"][10]["config"]["activation"], "relu");
    EXPECT_EQ(dataset_shape(f, "model_weights/batch_normalization_1/batch_normalization_1/"
                               "moving_variance:0"),
              (dims{64}));
    EXPECT_EQ(dataset_shape(f, "model_weights/dense/dense/kernel:0"), (dims{1600, 128}));
    EXPECT_EQ(dataset_shape(f, "model_weights/dense_1/dense_1/kernel:0"), (dims{128, 10}));
    const hid_t pool = H5Gopen2(f, "model_weights/max_pooling2d", H5P_DEFAULT);
    EXPECT_TRUE(string_array_attribute(pool, "weight_names").empty());
    H5Gclose(pool);
    H5Fclose(f);
}

TEST_F(model_writers, VolleyLayoutMatchesTheFixtureConventions) {
    auto model = vc::make_model("small", 9);
    const auto ref = vc::make_reference_batch(model, synthetic(20), 16);
    const auto path = dir / "small_volley.h5";
    vc::write_volley_h5(model, path, ref, {});
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(string_array_attribute(f, "layer_order"),
              (std::vector<std::string>{"conv2d", "average_pooling2d", "conv2d_1",
                                        "average_pooling2d_1", "flatten", "dense"}));
    const hid_t g = H5Gopen2(f, "layers/conv2d_1", H5P_DEFAULT);
    EXPECT_EQ(string_attribute(g, "type"), "conv2d");
    EXPECT_EQ(string_attribute(g, "activation"), "relu");
    H5Gclose(g);
    EXPECT_EQ(dataset_shape(f, "layers/conv2d_1/weight"), (dims{32, 16, 3, 3}));
    EXPECT_EQ(dataset_shape(f, "layers/dense/weight"), (dims{10, 1568}));
    EXPECT_EQ(dataset_shape(f, "reference/x"), (dims{16, 1, 28, 28}));
    EXPECT_EQ(read_floats(f, "reference/logits"), ref.logits.values);
    EXPECT_EQ(read_floats(f, "layers/conv2d/weight"), model.at(0).parameters()[0].values);
    H5Fclose(f);
}

TEST_F(model_writers, UnwritablePathIsAnIoErrorNamingTheFile) {
    auto model = vc::make_model("tiny", 1);
    const auto ref = vc::make_reference_batch(model, synthetic(2), 2);
    const auto bad = dir / "no_such_dir" / "m.h5";
    try {
        vc::write_keras_h5(model, bad, ref, {});
        FAIL() << "expected io_error";
    } catch (const volley::io_error& e) {
        EXPECT_NE(std::string(e.what()).find("no_such_dir"), std::string::npos) << e.what();
    }
}

TEST(KerasLayout, DenseKernelPermutationPreservesTheFunction) {
    // A dense layer over a CHW-flattened map gives the same outputs as the Keras kernel over the
    // HWC-flattened (channels_last) map.
    const std::size_t c = 3, h = 2, w = 4, out = 5, in = c * h * w;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> kernel(out * in), chw(in);
    for (auto& v : kernel) v = u(rng);
    for (auto& v : chw) v = u(rng);
    const auto keras = vc::dense_to_keras(kernel, out, c, h, w);
    const auto hwc = vc::nchw_to_nhwc(chw, 1, c, h, w);
    for (std::size_t o = 0; o < out; ++o) {
        double a = 0, b = 0;
        for (std::size_t i = 0; i < in; ++i) a += kernel[o * in + i] * chw[i];
        for (std::size_t i = 0; i < in; ++i) b += keras[i * out + o] * hwc[i];
        EXPECT_NEAR(a, b, 1e-12);
    }
    EXPECT_EQ(vc::dense_from_keras(keras, out, c, h, w), kernel);
}

TEST(KerasLayout, ConvKernelRoundTrip) {
    std::vector<int> oihw(2 * 3 * 4 * 5);
    for (std::size_t i = 0; i < oihw.size(); ++i) oihw[i] = static_cast<int>(i);
    const auto hwio = vc::oihw_to_hwio(oihw, 2, 3, 4, 5);
    EXPECT_EQ(hwio[((1 * 5 + 2) * 3 + 1) * 2 + 1], oihw[((1 * 3 + 1) * 4 + 1) * 5 + 2]);
    EXPECT_EQ(vc::hwio_to_oihw(hwio, 2, 3, 4, 5), oihw);
}
