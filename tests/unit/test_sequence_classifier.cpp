// sequence_classifier: it learns temporal questions about one-hot class sequences, it is
// deterministic for a seed whatever the thread count, and it names bad input.

#include <volley/convert/sequence_classifier.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace vc = volley::convert;

namespace {

constexpr std::size_t frames = 8, classes = 10;

/// Sequences of one-hot frames and their classes.
struct one_hot_set {
    vc::sequence_tensor<float> x;
    std::vector<std::vector<int>> labels;
    void add(const std::vector<int>& seq) {
        labels.push_back(seq);
        const std::size_t i = x.shape.n++;
        x.values.resize(x.shape.size());
        for (std::size_t t = 0; t < frames; ++t)
            x.values[(i * frames + t) * classes + static_cast<std::size_t>(seq[t])] = 1;
    }
    one_hot_set() { x.shape = {0, frames, classes}; }
};

/// True when some frame of class 7 comes before some frame of class 8.
bool seven_before_eight(const std::vector<int>& s) {
    bool seen7 = false;
    for (int c : s) {
        if (c == 8 && seen7) return true;
        if (c == 7) seen7 = true;
    }
    return false;
}

/// Uniformly random classes, half of them with 7 before 8 (rejection sampling).
one_hot_set order_task(std::size_t n, std::uint64_t seed, std::vector<float>& targets) {
    std::mt19937_64 rng(seed);
    one_hot_set set;
    std::size_t positives = 0, negatives = 0;
    while (set.x.shape.n < n) {
        std::vector<int> s(frames);
        for (auto& c : s) c = static_cast<int>(rng() % classes);
        const bool y = seven_before_eight(s);
        if ((y ? positives : negatives) >= n / 2) continue;
        ++(y ? positives : negatives);
        set.add(s);
        targets.push_back(y ? 1.0f : 0.0f);
    }
    return set;
}

/// Each frame repeats the previous class with probability ½, else draws a class uniformly;
/// target per frame t ≥ 1: the class differs from frame t − 1 (frame 0's target is unscored).
one_hot_set change_task(std::size_t n, std::uint64_t seed, std::vector<float>& targets) {
    std::mt19937_64 rng(seed);
    one_hot_set set;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<int> s(frames);
        s[0] = static_cast<int>(rng() % classes);
        for (std::size_t t = 1; t < frames; ++t)
            s[t] = (rng() & 1) ? s[t - 1] : static_cast<int>(rng() % classes);
        set.add(s);
        targets.push_back(0.0f);
        for (std::size_t t = 1; t < frames; ++t) targets.push_back(s[t] != s[t - 1] ? 1.0f : 0.0f);
    }
    return set;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(sequence_classifier, learns_whether_class_7_came_before_class_8) {
    std::vector<float> train_y, test_y;
    const auto train = order_task(2000, 1, train_y);
    const auto test = order_task(1000, 2, test_y);
    vc::sequence_classifier model({classes, frames, 16, vc::sequence_answer::per_sequence, {}, 7});
    EXPECT_EQ(model.parameter_count(), 3u * 16 * (10 + 16 + 1) + 16 + 1);
    const double untrained = model.accuracy(test.x, test_y);
    EXPECT_LT(untrained, 0.7);  // balanced classes: chance is 1/2
    vc::sequence_training_options o;
    o.epochs = 15;
    o.batch_size = 32;
    o.learning_rate = 1e-2;
    o.seed = 3;
    const auto t0 = std::chrono::steady_clock::now();
    const auto history = model.train(train.x, train_y, o);
    const double seconds = seconds_since(t0);
    const double accuracy = model.accuracy(test.x, test_y);
    RecordProperty("untrained_accuracy", std::to_string(untrained));
    RecordProperty("test_accuracy", std::to_string(accuracy));
    RecordProperty("train_s", std::to_string(seconds));
    EXPECT_GE(accuracy, 0.95) << "after " << seconds << " s, final train loss "
                              << history.epochs.back().train_loss;
    EXPECT_LT(history.epochs.back().train_loss, history.epochs.front().train_loss);
}

TEST(sequence_classifier, learns_per_frame_whether_the_class_changed) {
    std::vector<float> train_y, test_y;
    const auto train = change_task(2000, 11, train_y);
    const auto test = change_task(1000, 12, test_y);
    vc::sequence_classifier model({classes, frames, 16, vc::sequence_answer::per_frame,
                                   vc::scored_frames_from(frames, 1), 5});
    const double untrained = model.accuracy(test.x, test_y);
    EXPECT_LT(untrained, 0.7);  // changes at 0.45 of frames: "never" or "always" is below 0.6
    vc::sequence_training_options o;
    o.epochs = 15;
    o.batch_size = 32;
    o.learning_rate = 1e-2;
    o.seed = 4;
    const auto t0 = std::chrono::steady_clock::now();
    model.train(train.x, train_y, o);
    const double seconds = seconds_since(t0);
    const double accuracy = model.accuracy(test.x, test_y);
    RecordProperty("untrained_accuracy", std::to_string(untrained));
    RecordProperty("test_accuracy", std::to_string(accuracy));
    RecordProperty("train_s", std::to_string(seconds));
    EXPECT_GE(accuracy, 0.95) << "after " << seconds << " s";
    const auto p = model.predict(test.x);
    ASSERT_EQ(p.size(), test.x.shape.n * frames);
    for (float v : p) ASSERT_TRUE(v >= 0 && v <= 1);
}

TEST(sequence_classifier, training_is_deterministic_for_a_seed_and_any_thread_count) {
    std::vector<float> y;
    const auto data = order_task(200, 5, y);
    const vc::sequence_network_config c{classes, frames, 8, vc::sequence_answer::per_sequence,
                                        {},      9};
    vc::sequence_training_options o;
    o.epochs = 3;
    o.batch_size = 40;
    o.micro_batch = 8;
    const auto run = [&](int threads, std::uint64_t seed) {
        vc::sequence_classifier m(c);
        auto opts = o;
        opts.threads = threads;
        opts.seed = seed;
        const auto h = m.train(data.x, y, opts);
        std::vector<float> flat;
        for (const auto* p : std::as_const(m).network().parameters())
            flat.insert(flat.end(), p->values.begin(), p->values.end());
        for (const auto& e : h.epochs) flat.push_back(static_cast<float>(e.train_loss));
        return flat;
    };
    const auto a = run(1, 1);
    EXPECT_EQ(a, run(1, 1));
    EXPECT_EQ(a, run(2, 1));
    EXPECT_EQ(a, run(3, 1));
    EXPECT_NE(a, run(1, 2));  // the shuffling seed is used
    vc::sequence_classifier other({classes, frames, 8, vc::sequence_answer::per_sequence, {}, 10});
    vc::sequence_classifier same(c);
    EXPECT_NE(other.network().parameters()[0]->values, same.network().parameters()[0]->values);
}

TEST(sequence_classifier, every_optimiser_reduces_the_loss) {
    std::vector<float> y;
    const auto data = order_task(400, 6, y);
    for (const char* name : {"sgd", "adam", "lars"}) {
        vc::sequence_classifier m({classes, frames, 8, vc::sequence_answer::per_sequence, {}, 2});
        vc::sequence_training_options o;
        o.epochs = 6;
        o.optimizer = name;
        o.learning_rate = std::string(name) == "adam"  ? 1e-2
                          : std::string(name) == "sgd" ? 0.5
                                                       : 20;
        const auto h = m.train(data.x, y, o);
        EXPECT_LT(h.epochs.back().train_loss, 0.9 * h.epochs.front().train_loss) << name;
    }
}

namespace {

template <class F>
void expect_invalid(const F& f, const std::string& parameter, const std::string& value) {
    try {
        f();
        ADD_FAILURE() << "no exception for " << parameter;
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), parameter) << e.what();
        EXPECT_EQ(e.value(), value) << e.what();
        EXPECT_NE(std::string(e.what()).find(value), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(sequence_classifier, rejects_bad_input_naming_the_value) {
    std::vector<float> y;
    const auto data = order_task(20, 7, y);
    vc::sequence_classifier m({classes, frames, 4, vc::sequence_answer::per_sequence, {}, 1});
    vc::sequence_training_options o;
    o.epochs = 1;
    o.batch_size = 10;

    vc::sequence_tensor<float> narrow({20, frames, 9});
    expect_invalid([&] { m.train(narrow, y, o); }, "feature width", "9");
    expect_invalid([&] { m.predict(narrow); }, "feature width", "9");
    vc::sequence_tensor<float> short_seq({20, 7, classes});
    expect_invalid([&] { m.train(short_seq, y, o); }, "frames per sequence", "7");
    auto truncated = data.x;
    truncated.values.pop_back();
    expect_invalid([&] { m.train(truncated, y, o); }, "feature values",
                   std::to_string(20 * 80 - 1));

    const std::vector<float> too_few(y.begin(), y.end() - 1);
    expect_invalid([&] { m.train(data.x, too_few, o); }, "targets", "19");
    expect_invalid([&] { m.accuracy(data.x, too_few); }, "targets", "19");
    auto bad = y;
    bad[3] = 2;
    expect_invalid([&] { m.train(data.x, bad, o); }, "target 3", "2.000000");

    vc::sequence_classifier per_frame(
        {classes, frames, 4, vc::sequence_answer::per_frame, vc::scored_frames_from(frames, 1), 1});
    expect_invalid([&] { per_frame.train(data.x, y, o); }, "targets", "20");

    auto opts = o;
    opts.batch_size = 21;
    expect_invalid([&] { m.train(data.x, y, opts); }, "batch size", "21");
    opts = o;
    opts.epochs = 0;
    expect_invalid([&] { m.train(data.x, y, opts); }, "epochs", "0");
    opts = o;
    opts.threads = -1;
    expect_invalid([&] { m.train(data.x, y, opts); }, "threads", "-1");
    opts = o;
    opts.optimizer = "rmsprop";
    expect_invalid([&] { m.train(data.x, y, opts); }, "name", "rmsprop");
}
