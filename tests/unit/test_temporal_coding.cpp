// Encoding, decoding and the ideal bound of volley::temporal, against hand-derived values.

#include <volley/error.hpp>
#include <volley/temporal/decoding.hpp>
#include <volley/temporal/encoding.hpp>
#include <volley/temporal/ideal_bound.hpp>

#include <gtest/gtest.h>

#include <vector>

using namespace volley;
using namespace volley::temporal;

namespace {

using events = std::vector<input_event>;
const std::vector<float> evidence = {0, 2, 4, 1, 0, 0.2f, 0, 0, 0, 0};  // top = 4

}  // namespace

// C = 10, gap 2: A = 8 active cycles. v = e / 4: class 2 v = 1 -> 4 spikes at 0, 2, 4, 6;
// class 1 v = 0.5 -> 2 spikes at 0, 4; class 3 v = 0.25 -> 1 spike at 0; class 5 v = 0.05 is
// below the threshold 0.1.
TEST(temporal_encoding, rate_spreads_round_v_times_max_spikes_evenly) {
    encoding_options o;
    o.mode = encoding_mode::rate;
    const events expected = {{1, 0}, {2, 0}, {3, 0}, {2, 2}, {1, 4}, {2, 4}, {2, 6}};
    EXPECT_EQ(encode_frame(evidence, 2, o), expected);
}

// first_spike: cycle round((1 - v) * 7): v = 1 -> 0, v = 0.5 -> round(3.5) = 4, v = 0.25 ->
// round(5.25) = 5; v = 0.05 -> none.
TEST(temporal_encoding, first_spike_fires_stronger_evidence_earlier) {
    encoding_options o;
    o.mode = encoding_mode::first_spike;
    const events expected = {{2, 0}, {1, 4}, {3, 5}};
    EXPECT_EQ(encode_frame(evidence, 2, o), expected);
    const std::vector<float> silent(10, 0.0f);
    EXPECT_TRUE(encode_frame(silent, 0, o).empty());
}

TEST(temporal_encoding, winner_is_one_spike_at_the_frame_start) {
    encoding_options o;
    EXPECT_EQ(encode_frame(evidence, 3, o), (events{{3, 0}}));  // the given prediction, not the argmax
    EXPECT_THROW(encode_frame(evidence, 10, o), invalid_parameter);
}

// A sequence of three frames (images 2, 0, 1 of a table) puts frame k at k * C.
TEST(temporal_encoding, sequences_shift_frame_k_by_k_cycles_per_frame) {
    const auto table = oracle_features(std::vector<std::uint8_t>{4, 9, 1});
    sequence s;
    s.images = {2, 0, 1};
    s.labels = {1, 4, 9};
    s.answers = {1, 1};
    encoding_options o;
    o.cycles_per_frame = 6;
    o.gap_cycles = 1;
    const auto e = encode_sequence(s, table, o);
    EXPECT_EQ(e.events, (events{{1, 0}, {4, 6}, {9, 12}}));
    EXPECT_EQ(e.answers, s.answers);
    o.mode = encoding_mode::rate;
    o.max_spikes = 2;  // A = 5: cycles 0 and floor(5 / 2) = 2
    EXPECT_EQ(encode_sequence(s, table, o).events, (events{{1, 0}, {1, 2}, {4, 6}, {4, 8}, {9, 12}, {9, 14}}));
}

TEST(temporal_encoding, bad_settings_are_typed_errors_naming_the_value) {
    encoding_options o;
    o.gap_cycles = 10;
    try {
        o.validate();
        FAIL() << "no error";
    } catch (const invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "gap_cycles");
        EXPECT_EQ(e.value(), "10");
    }
    o.gap_cycles = 2;
    o.mode = encoding_mode::rate;
    o.max_spikes = 9;  // > A = 8
    EXPECT_THROW(o.validate(), invalid_parameter);
    try {
        parse_encoding_mode("poisson");
        FAIL() << "no error";
    } catch (const unknown_name& e) {
        EXPECT_EQ(e.name(), "poisson");
    }
    const auto table = oracle_features(std::vector<std::uint8_t>{1});
    sequence s;
    s.images = {3};
    EXPECT_THROW(encode_sequence(s, table, encoding_options{}), invalid_parameter);  // no features for image 3
}

// K = 4 frames of C = 10, latency 2: frame k's window is [10k + 2, 10k + 12); the run lasts
// 40 + tail 4 = 44 cycles.
TEST(temporal_decoding, change_windows_are_shifted_by_the_latency) {
    task_spec t;
    t.kind = question::change;
    t.frames = 4;
    decoding_options d;
    EXPECT_EQ(d.run_cycles(t, 10), 44);
    using v = std::vector<std::uint8_t>;
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{12, 33}), (v{1, 0, 1}));
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{11, 21.0, 41}), (v{1, 0, 1}));  // 11: frame 0
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{42, 43}), (v{0, 0, 0}));        // after frame 3's window
    d.answer_latency = 0;
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{11, 20}), (v{1, 1, 0}));
}

TEST(temporal_decoding, order_and_count_read_the_whole_run_or_the_last_frame) {
    task_spec t;
    t.frames = 4;
    decoding_options d;
    using v = std::vector<std::uint8_t>;
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{3}), v{1});
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{}), v{0});
    d.window = answer_window::last_frame;  // [30, 44)
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{3, 29}), v{0});
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{43}), v{1});
    EXPECT_EQ(decode_answers(t, 10, d, std::vector<double>{44}), v{0});
    d.tail_cycles = 1;
    d.answer_latency = 2;
    EXPECT_THROW(d.validate(), invalid_parameter);
    answer_tally tally;
    tally_answers(tally, v{1, 0, 1}, v{1, 1, 1});
    EXPECT_EQ(tally.correct, 2u);
    EXPECT_EQ(tally.total, 3u);
    EXPECT_THROW(tally_answers(tally, v{1}, v{1, 0}), invalid_parameter);
}

// Six images; image 3 (a 7) is predicted as 0 and image 5 (a 2) as 8. By hand:
//   order  [7, 8, 1, 8]   predicted [7, 8, 1, 8]: truth yes, ideal yes
//   order  [7(3), 8, 1, 0] predicted [0, 8, 1, 0]: truth yes, ideal no
//   order  [7, 2(5), 1, 1] predicted [7, 8, 1, 1]: truth no,  ideal yes
//   -> 1 of 3 correct.
//   change [7, 7(3), 8, 2(5)] predicted [7, 0, 8, 8]: truth [0, 1, 1], ideal [1, 1, 0]: 1 of 3.
TEST(temporal_ideal_bound, equals_the_temporal_logic_on_predicted_classes) {
    feature_table f = oracle_features(std::vector<std::uint8_t>{7, 8, 1, 7, 0, 2});
    f.prediction[3] = 0;
    f.prediction[5] = 8;
    auto seq = [](std::vector<std::uint32_t> images, std::vector<std::uint8_t> labels) {
        sequence s;
        s.images = std::move(images);
        s.labels = std::move(labels);
        return s;
    };
    task_spec order;
    order.frames = 4;
    const std::vector<sequence> orders = {seq({0, 1, 2, 1}, {7, 8, 1, 8}), seq({3, 1, 2, 4}, {7, 8, 1, 0}),
                                          seq({0, 5, 2, 2}, {7, 2, 1, 1})};
    const auto a = ideal_bound(order, orders, f);
    EXPECT_EQ(a.correct, 1u);
    EXPECT_EQ(a.total, 3u);
    task_spec change = order;
    change.kind = question::change;
    const auto b = ideal_bound(change, {seq({0, 3, 1, 5}, {7, 7, 8, 2})}, f);
    EXPECT_EQ(b.correct, 1u);
    EXPECT_EQ(b.total, 3u);
    // On oracle features the bound is 100%.
    const auto exact = ideal_bound(order, orders, oracle_features(std::vector<std::uint8_t>{7, 8, 1, 7, 0, 2}));
    EXPECT_EQ(exact.correct, 3u);
}
