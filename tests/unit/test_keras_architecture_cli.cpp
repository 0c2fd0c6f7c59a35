// `volley convert WEIGHTS.h5 --architecture MODEL.json`: a Keras save_weights file (written by
// tf.keras, tests/data/keras/make_fixtures.py) with its model.to_json(), end to end, on images
// labelled with the class Keras itself predicts (make_legacy_fixtures.py), and the errors that
// point the user at the option.

#include "../support/cli_runner.hpp"

#include "io_test_dir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using keras_architecture_cli = volley::test::io_test;

namespace {

const std::string keras_dir = std::string(VOLLEY_TEST_DATA_DIR) + "/keras/";
const std::string weights = keras_dir + "weights_only.h5";
const std::string architecture = keras_dir + "weights_only.json";
const std::string images = "npz:" + keras_dir + "weights_only_images.npz";

using volley::testing::run_volley;

}  // namespace

TEST_F(keras_architecture_cli, weights_and_json_convert_and_reproduce_the_keras_predictions) {
    const auto out = dir / "snn.json";
    const auto r = run_volley("convert " + weights + " --architecture " + architecture + " --data " +
                                  images + " --norm-images 0 --timesteps 8,32 --threads 1 --json --out " +
                                  out.string(),
                              dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["images"], 4);
    EXPECT_EQ(j["model"], weights);
    // The labels are Keras's own predictions, so the CNN read from weights + JSON gets all four.
    EXPECT_DOUBLE_EQ(j["cnn_accuracy"].get<double>(), 1.0);
    ASSERT_EQ(j["timesteps"].size(), 2u);
    EXPECT_EQ(j["layers"].size(), 4u);  // dilated, strided, hidden, out
    EXPECT_TRUE(std::filesystem::exists(out));
}

TEST_F(keras_architecture_cli, weights_without_json_say_to_pass_architecture) {
    const auto r = run_volley("convert " + weights + " --data " + images + " --norm-images 0", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("weights_only.h5"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("save_weights"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--architecture model.json"), std::string::npos) << r.err;
}

TEST_F(keras_architecture_cli, a_missing_architecture_file_is_named) {
    const auto missing = (dir / "missing.json").string();
    const auto r = run_volley("convert " + weights + " --architecture " + missing + " --data " + images, dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
}
