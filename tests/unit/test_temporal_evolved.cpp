// The networks EONS designed from random networks, carried by volley::temporal
// (evolved_networks.hpp, temporal/networks/): each says it was evolved from random networks on
// danna2, fits its question's network shape, answers the same on danna2 and RISP (thresholds
// >= 1: the two agree), at least as accurately as the evolve run's own test measured (on other
// sequences here: synthetic oracle sequences), and is refused for a setting it was not made for.

#include <volley/error.hpp>
#include <volley/temporal/evolved_networks.hpp>
#include <volley/temporal/hand_networks.hpp>
#include <volley/temporal/sequence_runner.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace volley;
using namespace volley::temporal;

namespace {

/// 200 images of a synthetic set, image i of class i % 10.
std::vector<std::uint8_t> set_labels() {
    std::vector<std::uint8_t> v(200);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint8_t>(i % 10);
    return v;
}

processor_spec spec_of(const std::string& kind) {
    processor_spec s;
    s.kind = kind;
    s.proc_params = temporal_risp_params(encoding_options{});
    return s;
}

/// The test accuracy (oracle features, 1,000 Fashion-MNIST test sequences) that `volley evolve`
/// printed for each kept network (temporal/networks/README.md).
struct recorded {
    question kind;
    double test_accuracy;
};

}  // namespace

TEST(temporal_evolved_networks, were_evolved_from_random_networks_on_danna2_and_answer_as_recorded) {
    const encoding_options enc;
    const auto labels = set_labels();
    for (const auto& [kind, accuracy] : {recorded{question::count, 1.0}, recorded{question::order, 0.854},
                                         recorded{question::change, 0.564}}) {
        task_spec task;
        task.kind = kind;
        SCOPED_TRACE(to_string(kind));
        const auto net = evolved_network(task, enc);
        const auto& made = net.associated_data.at("volley_evolve");
        EXPECT_EQ(made.at("started_from"), "random networks");
        EXPECT_EQ(made.at("processor"), "danna2");
        EXPECT_EQ(made.at("task"), to_string(kind));
        EXPECT_EQ(made.at("features"), "oracle");

        const auto dec = hand_built_decoding(hand_built_timing(task, enc, spec_of("danna")));
        const auto seqs = encode_sequences(generate_sequences(task, labels, {.count = 400, .seed = 99, .focus_rate = 0.25, .repeat_rate = 0.5, .max_tries = 100000}),
                                           oracle_features(labels), enc);
        sequence_runner on_d2(spec_of("danna2"), net, task, enc, dec), on_risp(spec_of("risp"), net, task, enc, dec);
        answer_tally tally;
        for (const auto& s : seqs) {
            const auto a = on_d2.run(s);
            EXPECT_EQ(a.answers, on_risp.run(s).answers);
            tally_answers(tally, a.answers, s.answers);
        }
        const double n = static_cast<double>(tally.total);
        EXPECT_GE(tally.accuracy(), accuracy - 4 * std::sqrt(accuracy * (1 - accuracy) / n) - 1e-12);
    }
}

TEST(temporal_evolved_networks, are_refused_for_settings_they_were_not_evolved_for) {
    task_spec task;
    task.kind = question::order;
    task.class_b = 3;
    EXPECT_THROW(evolved_network(task, {}), invalid_parameter);
    task = {};
    task.frames = 6;
    EXPECT_THROW(evolved_network(task, {}), invalid_parameter);
    encoding_options enc;
    enc.cycles_per_frame = 12;
    try {
        evolved_network(task_spec{}, enc);
        ADD_FAILURE() << "a network evolved for 10 cycles a frame was given for 12";
    } catch (const invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("cycles_per_frame"), std::string::npos) << e.what();
    }
    enc = {};
    enc.mode = encoding_mode::rate;
    EXPECT_THROW(evolved_network(task_spec{}, enc), invalid_parameter);
}
