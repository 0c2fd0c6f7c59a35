// The pipeline's stages called one by one from C++ (volley/pipeline/*.hpp): the model from its
// cache, the conversion, the evaluation, the hardware head; the converted network saved with
// write_snn_h5 and read back gives the same evaluation; bad options are refused by name.

#include <volley/convert/snn_h5.hpp>
#include <volley/error.hpp>
#include <volley/pipeline/pipeline.hpp>

#include <volley/snn/sonata_spikes.hpp>

#include "../support/file_size_limit.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>

namespace {

namespace fs = std::filesystem;
using namespace volley;

class PipelineStages : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!fs::exists(fs::path(convert::default_fashion_mnist_dir) / "t10k-images-idx3-ubyte.gz")) return;
        // One folder per process: ctest runs each test of this suite in a process of its own, at once.
        dir_ = fs::temp_directory_path() / ("volley_pipeline_stages_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        train_ = convert::load_fashion_mnist(convert::default_fashion_mnist_dir, "train");
        test_ = convert::load_fashion_mnist(convert::default_fashion_mnist_dir, "test").head(200);
        settings_.epochs = 1;
        settings_.train_images = 2000;
    }
    static void TearDownTestSuite() {
        if (!dir_.empty()) fs::remove_all(dir_);
    }
    void SetUp() override {
        if (dir_.empty()) GTEST_SKIP() << "Fashion-MNIST is not installed (scripts/setup installs it)";
    }

    static inline fs::path dir_;
    static inline std::optional<convert::image_dataset> train_, test_;
    static inline pipeline::training_settings settings_;
};

TEST_F(PipelineStages, EachStageRunsAloneAndTheSavedConversionGivesTheSameEvaluation) {
    const auto model = pipeline::obtain_model(dir_ / "cache", settings_, *train_, *test_, 2, false);
    EXPECT_FALSE(model.from_cache);
    EXPECT_TRUE(pipeline::obtain_model(dir_ / "cache", settings_, *train_, *test_, 2, false).from_cache)
        << "the second call reuses the cached model";

    const auto converted = pipeline::convert_model(model.file, *train_, {.norm_images = 300, .threads = 2});
    EXPECT_EQ(converted.norm_images, 300u);
    ASSERT_FALSE(converted.net.layers.empty());

    pipeline::evaluation_stage_options eo;
    eo.images = 60;
    eo.snn.timesteps = {16, 64};
    eo.snn.threads = 2;
    const auto ev = pipeline::evaluate_model(converted, *test_, eo);
    EXPECT_EQ(ev.images, 60u);
    EXPECT_EQ(ev.cnn_predictions.size(), test_->count()) << "the CNN runs on every given test image";
    ASSERT_EQ(ev.snn.checkpoints.size(), 2u);
    // The CNN's accuracy on the evaluated images, counted here from its predictions and labels.
    std::size_t right = 0;
    for (std::size_t i = 0; i < 60; ++i) right += ev.cnn_predictions[i] == test_->labels[i];
    EXPECT_DOUBLE_EQ(ev.cnn_accuracy, static_cast<double>(right) / 60.0);
    EXPECT_GT(ev.snn.checkpoints[1].agreement, 0.8) << "the converted network follows the CNN at T = 64";

    // The conversion stage's result saved as `volley convert --out` saves it, and read back.
    const auto file = dir_ / "snn.h5";
    convert::write_snn_h5({.snn = converted.net}, file.string());
    const pipeline::conversion_stage_result reread{
        .graph = converted.graph, .net = convert::read_snn_h5(file.string()).snn, .norm_images = 300};
    const auto again = pipeline::evaluate_model(reread, *test_, eo);
    EXPECT_EQ(again.snn.predictions, ev.snn.predictions);
    for (std::size_t c = 0; c < 2; ++c)
        EXPECT_EQ(again.snn.checkpoints[c].spikes_per_image, ev.snn.checkpoints[c].spikes_per_image) << c;

    // The hardware head: danna2 and RISP give the engine's integer-mode answer on every image.
    const auto hw = pipeline::run_hardware_stage(converted, ev, *test_, {.timesteps = 32, .images = 10, .threads = 2, .out_dir = {}});
    ASSERT_TRUE(hw.ran()) << hw.note;
    ASSERT_EQ(hw.processors.size(), 2u);
    for (const auto& p : hw.processors) EXPECT_DOUBLE_EQ(p.agreement, 1.0) << p.processor;
    EXPECT_TRUE(hw.processors.front().head_file.empty()) << "no out_dir: nothing written";
    pipeline::hardware_stage_options none;
    none.timesteps = 0;
    const auto skipped = pipeline::run_hardware_stage(converted, ev, *test_, none);
    EXPECT_FALSE(skipped.ran());
    EXPECT_NE(skipped.note.find("skipped"), std::string::npos) << skipped.note;
}

TEST_F(PipelineStages, BadOptionsAreRefusedByName) {
    const auto refused = [](pipeline::pipeline_options o) -> std::string {
        try {
            pipeline::run_pipeline(std::move(o));
        } catch (const invalid_parameter& e) {
            return e.parameter();
        }
        return "accepted";
    };
    pipeline::pipeline_options o;
    o.out_dir = dir_ / "bad";
    o.cache_dir = dir_ / "cache";
    o.training = settings_;
    o.raster_steps = 0;
    EXPECT_EQ(refused(o), "raster_steps");
    o.raster_steps = 16;
    o.threads = 0;
    EXPECT_EQ(refused(o), "threads");
    o.threads = 1;
    o.raster_image = 10000;
    EXPECT_EQ(refused(o), "raster_image");
    const pipeline::conversion_stage_options bad_percentile{.percentile = 0};
    EXPECT_THROW(pipeline::convert_model(dir_ / "none.h5", *train_, bad_percentile), invalid_parameter);
}

// results.h5 is written to results.h5.tmp and renamed once complete: on a full disk (a file-size
// limit, in a child process) the write is an io_error naming the file, and a file there before
// is kept; without the limit, the same record reads back.
TEST(PipelineResultsFile, AFullDiskKeepsThePreviousFileAndAWholeFileReadsBack) {
    const auto dir = fs::temp_directory_path() / ("volley_results_file_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    pipeline::results_record r;
    r.model_file = "m.h5";
    r.timesteps = {8, 16};
    r.snn_accuracy = {0.5, 0.75};
    r.agreement = r.spikes_per_image = r.synops_per_image = {1, 2};
    r.layer_names = {"a"};
    r.layer_neurons = {1000};
    r.layer_lambda = r.layer_rate = {1};
    pipeline::layer_spike_train t{.layer = "a", .node_ids = {}, .times_ms = {}};
    for (std::uint64_t i = 0; i < 50000; ++i) t.node_ids.push_back(i % 1000), t.times_ms.push_back(static_cast<double>(i / 1000));
    r.spikes = {t};
    const auto file = dir / "results.h5";
    std::ofstream(file) << "a file that was there before";
    EXPECT_EQ(volley::testing::write_under_file_size_limit(20000, [&] { pipeline::write_results_file(file, r); },
                                                           {"results.h5"}),
              2)
        << "0: written past the limit; -1: died; 3, 4: another error";
    std::ifstream in(file);
    const std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(before, "a file that was there before");
    EXPECT_FALSE(fs::exists(dir / "results.h5.tmp"));

    pipeline::write_results_file(file, r);
    const auto spikes = snn::read_sonata_spikes(file);
    ASSERT_EQ(spikes.size(), 1u);
    EXPECT_EQ(spikes[0].node_ids.size(), t.node_ids.size());
    EXPECT_EQ(spikes[0].timestamps_ms.back(), t.times_ms.back());
    fs::remove_all(dir);
}

}  // namespace
