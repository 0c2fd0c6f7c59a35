// Percentile normalisation: numpy's linear percentile on known values, the streaming radix
// select against sorting every activation, and the λ stored in the shared fixture (computed
// with numpy from PyTorch activations on 10,000 stored training images).

#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/image_dataset.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <hdf5.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>

namespace vc = volley::convert;

namespace {

const std::string torch_file =
    std::string(VOLLEY_TEST_DATA_DIR) + "/convert/fmnist_small_torch.h5";

std::vector<double> read_double_attr(hid_t obj, const char* name) {
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t s = H5Aget_space(a);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
    H5Aread(a, H5T_NATIVE_DOUBLE, v.data());
    H5Sclose(s);
    H5Aclose(a);
    return v;
}

}  // namespace

TEST(LayerNormalization, PercentileLinearMatchesNumpyDefinition) {
    // numpy: np.percentile([1,2,3,4,5], 90) = 4.6, 50 → 3, 100 → 5, 0 → 1; [3, 1] at 25 → 1.5
    EXPECT_DOUBLE_EQ(vc::percentile_linear({5, 1, 4, 2, 3}, 90), 4.6);
    EXPECT_DOUBLE_EQ(vc::percentile_linear({5, 1, 4, 2, 3}, 50), 3.0);
    EXPECT_DOUBLE_EQ(vc::percentile_linear({5, 1, 4, 2, 3}, 100), 5.0);
    EXPECT_DOUBLE_EQ(vc::percentile_linear({5, 1, 4, 2, 3}, 0), 1.0);
    EXPECT_DOUBLE_EQ(vc::percentile_linear({3, 1}, 25), 1.5);
    EXPECT_THROW(vc::percentile_linear({}, 50), volley::invalid_parameter);
}

TEST(LayerNormalization, StreamingSelectEqualsSortingAllActivations) {
    const auto g = vc::read_cnn(torch_file);
    const auto ref = vc::read_stored_reference(torch_file, g.input_shape);
    // Hold every positive activation of the 16 reference images (small enough here).
    std::vector<std::vector<float>> all(g.nodes.size());
    std::mutex lock;
    vc::analog_forward(g, ref->x, {}, [&](std::size_t, std::size_t node, std::span<const float> v) {
        std::lock_guard guard(lock);
        for (float x : v)
            if (x > 0) all[node].push_back(x);
    });
    for (double p : {50.0, 99.0, 99.9, 99.99, 100.0}) {
        vc::normalization_options o;
        o.percentile = p;
        const auto s = vc::compute_layer_scales(g, ref->x, o);
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            if (!s.measured[i]) continue;
            EXPECT_EQ(s.positive_count[i], all[i].size());
            EXPECT_DOUBLE_EQ(s.lambda[i], vc::percentile_linear(all[i], p))
                << "node " << i << " p " << p;
        }
        // pooling and flatten inherit the λ of the ReLU layer before them
        EXPECT_EQ(s.lambda[1], s.lambda[0]);
        EXPECT_FALSE(s.measured[1]);
        EXPECT_TRUE(s.measured[g.output()]);
    }
    // max_images: the first 4 images only, against a set that holds just those 4
    vc::tensor<float> four(ref->x.shape.with_batch(4));
    std::copy(ref->x.values.begin(),
              ref->x.values.begin() + static_cast<std::ptrdiff_t>(four.values.size()),
              four.values.begin());
    vc::normalization_options limited;
    limited.max_images = 4;
    const auto a = vc::compute_layer_scales(g, ref->x, limited);
    const auto b = vc::compute_layer_scales(g, four);
    EXPECT_EQ(a.images, 4u);
    EXPECT_EQ(a.lambda, b.lambda);
    EXPECT_NE(a.lambda, vc::compute_layer_scales(g, ref->x).lambda);
    // the same λ for any thread count
    for (int threads : {1, 3}) {
        vc::normalization_options o;
        o.forward.threads = threads;
        EXPECT_EQ(vc::compute_layer_scales(g, ref->x, o).lambda,
                  vc::compute_layer_scales(g, ref->x).lambda);
    }
    vc::normalization_options bad;
    bad.percentile = 0;
    EXPECT_THROW(vc::compute_layer_scales(g, ref->x, bad), volley::invalid_parameter);
}

TEST(LayerNormalization, LambdaMatchesStoredNumpyValuesOnStoredTrainingImages) {
    const std::filesystem::path data = vc::default_fashion_mnist_dir;
    if (!std::filesystem::exists(data / "train-images-idx3-ubyte.gz"))
        GTEST_SKIP() << "Fashion-MNIST is not installed (scripts/setup)";
    const auto g = vc::read_cnn(torch_file);
    hid_t f = H5Fopen(torch_file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t norm = H5Gopen2(f, "normalization", H5P_DEFAULT);
    const auto p999 = read_double_attr(norm, "lambda_p99.9");
    const auto p100 = read_double_attr(norm, "lambda_p100");
    hid_t ds = H5Dopen2(norm, "train_indices", H5P_DEFAULT);
    std::vector<std::int32_t> indices(10000);
    H5Dread(ds, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, indices.data());
    H5Dclose(ds);
    H5Gclose(norm);
    H5Fclose(f);
    const auto train = vc::load_fashion_mnist(data, "train");
    vc::tensor<float> x(vc::shape4{indices.size(), 1, 28, 28});
    for (std::size_t i = 0; i < indices.size(); ++i)
        std::copy(train.image(std::size_t(indices[i])), train.image(std::size_t(indices[i])) + 784,
                  x.image(i));
    const std::size_t measured[] = {0, 2, 5};  // conv1, conv2, fc (max(logits, 0))
    for (const auto& [p, want] : {std::pair{99.9, p999}, std::pair{100.0, p100}}) {
        vc::normalization_options o;
        o.percentile = p;
        const auto s = vc::compute_layer_scales(g, x, o);
        for (std::size_t k = 0; k < 3; ++k) {
            const double got = s.lambda[measured[k]], rel = std::abs(got - want[k]) / want[k];
            std::printf("p%g layer %zu: lambda %.9g, stored %.9g, relative error %.2e\n", p,
                        measured[k], got, want[k], rel);
            EXPECT_LT(rel, 1e-6) << "p " << p << " layer " << measured[k];
        }
    }
}
