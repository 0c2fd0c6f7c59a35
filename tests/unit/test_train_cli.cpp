// `volley train` end to end: the JSON curve and figures, the written file, and input errors with
// exit status 2.

#include "../support/cli_runner.hpp"

#include "io_test_dir.hpp"

#include <volley/convert/image_dataset.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>

using train_cli = volley::test::io_test;

namespace {

using result = volley::testing::cli_result;
using volley::testing::run_volley;

bool have_dataset() {
    return std::filesystem::exists(volley::convert::default_fashion_mnist_dir);
}

}  // namespace

TEST_F(train_cli, JsonHoldsTheCurveAndTheFiguresAndTheFileIsWritten) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
    const auto model = dir / "tiny.h5";
    const auto r = run_volley("train --model tiny --epochs 2 --batch 32 --lr 0.01 --train-images 512 --threads 2 --json --out " +
                                  model.string(),
                              dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["epochs"].size(), 2u);
    EXPECT_EQ(j["epochs"][1]["epoch"], 2);
    for (const char* key : {"train_loss", "test_accuracy", "images_per_s", "learning_rate"})
        EXPECT_TRUE(j["epochs"][0].contains(key)) << key;
    EXPECT_GT(j["test_accuracy"].get<double>(), 0.2);  // well above chance (0.1)
    EXPECT_LE(j["test_accuracy"].get<double>(), 1.0);
    EXPECT_GT(j["wall_s"].get<double>(), 0.0);
    EXPECT_GT(j["images_per_s"].get<double>(), 0.0);
    EXPECT_EQ(j["train_images"], 512);
    const hid_t f = H5Fopen(model.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_GT(H5Aexists(f, "model_config"), 0);
    H5Fclose(f);
}

TEST_F(train_cli, MissingDataTellsTheUserToRunSetup) {
    const auto r = run_volley("train --data-dir " + (dir / "nowhere").string() + " --out " +
                                  (dir / "m.h5").string(),
                              dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("scripts/setup"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("train-images-idx3-ubyte.gz"), std::string::npos) << r.err;
}

TEST_F(train_cli, ImpossibleBatchAndUnknownChoicesAreInputErrors) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
    auto r = run_volley("train --model tiny --batch 0 --out " + (dir / "m.h5").string(), dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("batch size = 0"), std::string::npos) << r.err;
    r = run_volley("train --model tiny --train-images 100 --batch 101 --out " + (dir / "m.h5").string(), dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("batch size = 101"), std::string::npos) << r.err;
    r = run_volley("train --optimizer rmsprop --out " + (dir / "m.h5").string(), dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("rmsprop"), std::string::npos) << r.err;
    r = run_volley("train --model tiny --train-images 64 --batch 8 --optimizer sgd --lr 1e30 --out " + (dir / "m.h5").string(), dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("training diverged"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("epoch 1, step"), std::string::npos) << r.err;
}
