// Questions, ground truth and sequence generation of volley::temporal.

#include <volley/error.hpp>
#include <volley/temporal/question.hpp>
#include <volley/temporal/sequence_generator.hpp>

#include <gtest/gtest.h>

#include <vector>

using namespace volley;
using namespace volley::temporal;

namespace {

std::vector<std::uint8_t> truth(question q, std::vector<std::uint8_t> labels) {
    task_spec t;
    t.kind = q;
    t.frames = static_cast<int>(labels.size());
    return ground_truth(t, labels);
}

/// Labels of a synthetic set: image i has class (i * 7) % 10.
std::vector<std::uint8_t> synthetic_labels(std::size_t n) {
    std::vector<std::uint8_t> l(n);
    for (std::size_t i = 0; i < n; ++i) l[i] = static_cast<std::uint8_t>((i * 7) % 10);
    return l;
}

}  // namespace

TEST(temporal_question, order_needs_a_strictly_before_b) {
    using v = std::vector<std::uint8_t>;
    EXPECT_EQ(truth(question::order, {7, 0, 8, 1}), v{1});
    EXPECT_EQ(truth(question::order, {0, 0, 7, 8}), v{1});   // adjacent, at the end
    EXPECT_EQ(truth(question::order, {8, 1, 2, 7}), v{0});   // B only before A
    EXPECT_EQ(truth(question::order, {8, 7, 8, 0}), v{1});   // a later B counts
    EXPECT_EQ(truth(question::order, {7, 7, 7, 7}), v{0});   // no B
    EXPECT_EQ(truth(question::order, {1, 2, 3, 4}), v{0});
}

TEST(temporal_question, count_is_at_least_two_frames_of_a) {
    using v = std::vector<std::uint8_t>;
    EXPECT_EQ(truth(question::count, {7, 0, 0, 7}), v{1});
    EXPECT_EQ(truth(question::count, {7, 7, 7, 0}), v{1});
    EXPECT_EQ(truth(question::count, {0, 7, 0, 0}), v{0});
    EXPECT_EQ(truth(question::count, {0, 1, 2, 3}), v{0});
}

TEST(temporal_question, change_answers_every_frame_after_the_first) {
    EXPECT_EQ(truth(question::change, {1, 1, 2, 2, 2, 3, 1, 1}), (std::vector<std::uint8_t>{0, 1, 0, 0, 1, 1, 0}));
    task_spec t;
    t.kind = question::change;
    EXPECT_EQ(t.answers_per_sequence(), 7u);
    t.kind = question::order;
    EXPECT_EQ(t.answers_per_sequence(), 1u);
}

TEST(temporal_question, bad_names_and_parameters_are_typed_errors_naming_the_value) {
    try {
        parse_question("sorting");
        FAIL() << "no error";
    } catch (const unknown_name& e) {
        EXPECT_EQ(e.name(), "sorting");
        EXPECT_EQ(e.kind(), "question");
    }
    EXPECT_EQ(parse_question("change"), question::change);
    task_spec t;
    t.class_b = 7;  // = class_a
    try {
        t.validate();
        FAIL() << "no error";
    } catch (const invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "class_b");
        EXPECT_EQ(e.value(), "7");
    }
    t.class_b = 10;
    EXPECT_THROW(t.validate(), invalid_parameter);
    t.class_b = 8;
    t.frames = 1;
    EXPECT_THROW(t.validate(), invalid_parameter);
    EXPECT_THROW(ground_truth(task_spec{}, std::vector<std::uint8_t>{1, 2, 3}), invalid_parameter);
}

// Order and count: sequence i answers yes iff i is even, so 200 sequences are exactly half yes.
// The answers are checked against brute-force definitions written here.
TEST(temporal_generator, order_and_count_are_exactly_balanced) {
    const auto labels = synthetic_labels(500);
    for (auto q : {question::order, question::count}) {
        task_spec t;
        t.kind = q;
        generator_options o;
        o.count = 200;
        o.seed = 11;
        const auto seqs = generate_sequences(t, labels, o);
        ASSERT_EQ(seqs.size(), 200u);
        std::size_t yes = 0;
        for (std::size_t i = 0; i < seqs.size(); ++i) {
            const auto& s = seqs[i];
            ASSERT_EQ(s.labels.size(), 8u);
            bool expected = false;
            if (q == question::order) {
                for (std::size_t a = 0; a < 8; ++a)
                    for (std::size_t b = a + 1; b < 8; ++b) expected |= s.labels[a] == 7 && s.labels[b] == 8;
            } else {
                int n = 0;
                for (auto l : s.labels) n += l == 7;
                expected = n >= 2;
            }
            ASSERT_EQ(s.answers, std::vector<std::uint8_t>{expected}) << "sequence " << i;
            EXPECT_EQ(expected, i % 2 == 0) << "sequence " << i;
            yes += expected;
        }
        EXPECT_EQ(yes, 100u) << to_string(q);
    }
}

TEST(temporal_generator, change_rate_is_near_one_half) {
    task_spec t;
    t.kind = question::change;
    generator_options o;
    o.count = 400;
    const auto seqs = generate_sequences(t, synthetic_labels(300), o);
    std::size_t changes = 0, frames = 0;
    for (const auto& s : seqs) {
        ASSERT_EQ(s.answers.size(), 7u);
        for (std::size_t k = 1; k < 8; ++k) {
            EXPECT_EQ(s.answers[k - 1], s.labels[k] != s.labels[k - 1]);
            changes += s.labels[k] != s.labels[k - 1];
            ++frames;
        }
    }
    // 2800 Bernoulli(1/2) frames: 3 standard deviations are 0.028.
    EXPECT_NEAR(static_cast<double>(changes) / static_cast<double>(frames), 0.5, 0.03);
}

// Every image index refers to the set passed in, with the frame's label: sequences made from
// a "train" set and a "test" set of different sizes use only their own set's indices.
TEST(temporal_generator, images_come_from_the_set_given) {
    const auto train = synthetic_labels(600);
    std::vector<std::uint8_t> test(50);
    for (std::size_t i = 0; i < test.size(); ++i) test[i] = static_cast<std::uint8_t>(9 - i % 10);
    for (auto q : {question::order, question::change, question::count}) {
        task_spec t;
        t.kind = q;
        generator_options o;
        o.count = 100;
        const auto a = generate_sequences(t, train, o);
        const auto b = generate_sequences(t, test, o);
        for (const auto& s : a)
            for (std::size_t k = 0; k < s.images.size(); ++k) {
                ASSERT_LT(s.images[k], train.size());
                EXPECT_EQ(train[s.images[k]], s.labels[k]);
            }
        for (const auto& s : b)
            for (std::size_t k = 0; k < s.images.size(); ++k) {
                ASSERT_LT(s.images[k], test.size());
                EXPECT_EQ(test[s.images[k]], s.labels[k]);
            }
        const auto used = images_used(a);
        for (std::size_t i = 1; i < used.size(); ++i) EXPECT_LT(used[i - 1], used[i]);
        EXPECT_GT(used.size(), 300u);  // 800 draws from 600 images: many distinct ones
    }
}

TEST(temporal_generator, same_seed_same_sequences_and_prefixes_do_not_depend_on_count) {
    task_spec t;
    const auto labels = synthetic_labels(400);
    generator_options o;
    o.count = 60;
    o.seed = 5;
    const auto a = generate_sequences(t, labels, o);
    const auto b = generate_sequences(t, labels, o);
    o.count = 20;
    const auto c = generate_sequences(t, labels, o);
    o.count = 60;
    o.seed = 6;
    const auto d = generate_sequences(t, labels, o);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].images, b[i].images);
        if (i < c.size()) {
            EXPECT_EQ(a[i].images, c[i].images);
        }
        differ += a[i].images != d[i].images;
    }
    EXPECT_GT(differ, 50u);
}

TEST(temporal_generator, bad_options_are_typed_errors) {
    task_spec t;
    std::vector<std::uint8_t> no_bags(100);
    for (std::size_t i = 0; i < no_bags.size(); ++i) no_bags[i] = static_cast<std::uint8_t>(i % 8);  // no 8 or 9
    try {
        generate_sequences(t, no_bags, {});
        FAIL() << "no error";
    } catch (const invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "class");
        EXPECT_EQ(e.value(), "8");
    }
    generator_options o;
    o.focus_rate = 0;
    EXPECT_THROW(generate_sequences(t, synthetic_labels(100), o), invalid_parameter);
    std::vector<std::uint8_t> bad = synthetic_labels(100);
    bad[3] = 12;
    EXPECT_THROW(generate_sequences(t, bad, {}), invalid_parameter);
}
