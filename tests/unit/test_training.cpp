// The training loop: learning (overfitting 64 images), bit-reproducibility, and bad input.

#include <volley/convert/batch_norm.hpp>
#include <volley/convert/trainer.hpp>
#include <volley/snn/distributed_context.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <span>
#include <utility>

namespace vc = volley::convert;

namespace {

/// Random images whose label is their index mod 10: for tests that need no real data.
vc::image_dataset synthetic(std::size_t count) {
    vc::image_dataset d;
    d.pixels.resize(count * d.image_size());
    for (std::size_t k = 0; k < d.pixels.size(); ++k)
        d.pixels[k] = static_cast<float>((k * 2654435761u) % 1000) / 1000.0f;
    for (std::size_t i = 0; i < count; ++i) d.labels.push_back(static_cast<std::uint8_t>(i % 10));
    return d;
}

bool have_dataset() { return std::filesystem::exists(vc::default_fashion_mnist_dir); }

std::vector<float> all_parameters(vc::sequential_model<float>& m) {
    std::vector<float> v;
    for (std::size_t l = 0; l < m.size(); ++l)
        for (const auto& p : m.at(l).parameters()) v.insert(v.end(), p.values.begin(), p.values.end());
    return v;
}

}  // namespace

TEST(Training, TinyModelOverfits64Images) {
    if (!have_dataset()) GTEST_SKIP() << "Fashion-MNIST is absent (run scripts/setup)";
    const auto data = vc::load_fashion_mnist(vc::default_fashion_mnist_dir, "train").head(64);
    auto model = vc::make_model("tiny", 3);
    auto opt = vc::make_optimizer("adam", {});
    vc::training_options o{.batch_size = 16, .epochs = 60, .learning_rate = 3e-3, .threads = 2};
    const auto report = vc::train(model, *opt, data, &data, o);
    EXPECT_EQ(report.test_accuracy, 1.0) << "final training loss " << report.epochs.back().train_loss;
    EXPECT_LT(report.epochs.back().train_loss, report.epochs.front().train_loss / 10);
}

TEST(Training, BitReproducibleForSeedAndThreadCount) {
    const auto data = synthetic(200);
    std::vector<float> first;
    for (int run = 0; run < 2; ++run) {
        auto model = vc::make_model("reference", 11);
        auto opt = vc::make_optimizer("lars", {.weight_decay = 1e-4});
        vc::training_options o{.batch_size = 64, .epochs = 1, .learning_rate = 1.0,
                               .warmup_epochs = 0.5, .threads = 3, .seed = 5, .micro_batch = 8};
        const auto report = vc::train(model, *opt, data, nullptr, o);
        EXPECT_EQ(report.steps, 4u);
        const auto params = all_parameters(model);
        if (run == 0) first = params;
        else EXPECT_TRUE(params == first) << "parameters differ between identical runs";
    }
}

// A fixed slice count makes the weights independent of who computes the slices: 1, 2 and 3
// threads in one process, and 2 and 4 processes (imitated by snn::dry_run's ranks, exchanging
// through distributed_context::gather_values, as `mpirun volley train` does) give the same
// bits, BatchNorm's moving statistics and Dropout included (the reference model, LARS).
TEST(Training, FixedSlicesGiveTheSameWeightsOnAnyThreadsAndRanks) {
    const auto data = synthetic(200);
    auto train_with = [&](int threads, vc::gradient_share share) {
        auto model = vc::make_model("reference", 11);
        auto opt = vc::make_optimizer("lars", {.weight_decay = 1e-4});
        vc::training_options o{.batch_size = 64, .epochs = 1, .learning_rate = 1.0, .warmup_epochs = 0.5,
                               .threads = threads, .seed = 5, .micro_batch = 8, .slices = 4};
        o.share = std::move(share);
        const auto report = vc::train(model, *opt, data, nullptr, o);
        EXPECT_EQ(report.slices, 4u);
        std::vector<float> all = all_parameters(model);
        for (std::size_t l = 0; l < model.size(); ++l)  // BatchNorm's moving mean and variance
            if (const auto* bn = dynamic_cast<const vc::batch_norm<float>*>(&model.at(l))) {
                all.insert(all.end(), bn->moving_mean().begin(), bn->moving_mean().end());
                all.insert(all.end(), bn->moving_variance().begin(), bn->moving_variance().end());
            }
        return std::pair{all, report.epochs.back().train_loss};
    };
    const auto [reference, loss] = train_with(1, {});
    for (int threads : {2, 3}) {
        const auto [w, l] = train_with(threads, {});
        EXPECT_TRUE(w == reference) << threads << " threads";
        EXPECT_EQ(l, loss);
    }
    for (int ranks : {2, 4}) {
        std::vector<std::vector<float>> weights(static_cast<std::size_t>(ranks));
        volley::snn::dry_run(ranks, [&](const volley::snn::distributed_context& ctx) {
            weights[static_cast<std::size_t>(ctx.id())] =
                train_with(1, {ctx.id(), ctx.size(), [&ctx](std::span<const double> mine) { return ctx.gather_values(mine); }})
                    .first;
        });
        for (const auto& w : weights) EXPECT_TRUE(w == reference) << ranks << " ranks";
    }
    // Another slice count sums in another order: different bits (the test would notice a
    // slice count that is ignored).
    auto model = vc::make_model("reference", 11);
    auto opt = vc::make_optimizer("lars", {.weight_decay = 1e-4});
    vc::training_options o{.batch_size = 64, .epochs = 1, .learning_rate = 1.0, .warmup_epochs = 0.5,
                           .threads = 1, .seed = 5, .micro_batch = 8, .slices = 3};
    vc::train(model, *opt, data, nullptr, o);
    const auto other = all_parameters(model);
    EXPECT_FALSE(std::equal(other.begin(), other.end(), reference.begin())) << "3 slices gave the bits of 4";
    EXPECT_THROW(vc::data_parallel_trainer(model, 1, 8, 4, {0, 2, {}}), volley::invalid_parameter);
}

TEST(Training, GradientsDoNotDependOnMicroBatchSplitBeyondRounding) {
    const auto data = synthetic(48);
    std::vector<std::uint32_t> batch(48);
    for (std::uint32_t i = 0; i < 48; ++i) batch[i] = i;
    auto model = vc::make_model("small", 2);
    vc::data_parallel_trainer one(model, 1, 48), many(model, 3, 5);
    const auto a = one.compute_gradients(data, batch, 1, 0);
    const auto b = many.compute_gradients(data, batch, 1, 0);
    EXPECT_NEAR(a.loss, b.loss, 1e-5);
    for (std::size_t k = 0; k < one.gradients().size(); ++k)
        for (std::size_t i = 0; i < one.gradients()[k].size(); ++i)
            ASSERT_NEAR(one.gradients()[k][i], many.gradients()[k][i], 1e-5) << k << ", " << i;
}

TEST(Training, NanLossStopsNamingEpochAndStep) {
    const auto data = synthetic(64);
    auto model = vc::make_model("tiny", 1);
    auto opt = vc::make_optimizer("sgd", {});
    vc::training_options o{.batch_size = 8, .epochs = 2, .learning_rate = 1e30, .threads = 2};
    try {
        vc::train(model, *opt, data, nullptr, o);
        FAIL() << "expected training_diverged";
    } catch (const vc::training_diverged& e) {
        EXPECT_EQ(e.epoch(), 1u);
        EXPECT_GE(e.step(), 2u);
        const std::string msg = e.what();
        EXPECT_NE(msg.find("epoch 1, step " + std::to_string(e.step())), std::string::npos) << msg;
    }
}

TEST(Training, ImpossibleBatchSizeIsRejected) {
    const auto data = synthetic(32);
    auto model = vc::make_model("tiny", 1);
    auto opt = vc::make_optimizer("adam", {});
    for (std::size_t batch : {std::size_t{0}, std::size_t{33}}) {
        vc::training_options o{.batch_size = batch, .epochs = 1};
        try {
            vc::train(model, *opt, data, nullptr, o);
            FAIL() << "batch " << batch << " accepted";
        } catch (const volley::invalid_parameter& e) {
            EXPECT_NE(std::string(e.what()).find("batch size = " + std::to_string(batch)),
                      std::string::npos)
                << e.what();
        }
    }
    vc::training_options o{.batch_size = 8, .epochs = 1, .warmup_epochs = 3};
    EXPECT_THROW(vc::train(model, *opt, data, nullptr, o), volley::invalid_parameter);
    EXPECT_THROW(vc::make_model("resnet", 1), volley::invalid_parameter);
}

TEST(Training, EveryListedModelBuildsAndAnUnknownOneNamesTheList) {
    for (const auto& name : vc::model_names()) EXPECT_GT(vc::make_model(name, 1).parameter_count(), 0u) << name;
    try {
        vc::make_model("resnet", 1);
        FAIL() << "expected invalid_parameter";
    } catch (const volley::invalid_parameter& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("resnet"), std::string::npos) << what;
        EXPECT_NE(what.find("small, small_bn, reference or tiny"), std::string::npos) << what;
    }
}
