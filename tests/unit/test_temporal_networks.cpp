// The hand-built temporal networks on RISP and the DANNA models, the runner's checks and the
// EONS fitness of volley::temporal.

#include <volley/error.hpp>
#include <volley/hw/risp_processor.hpp>
#include <volley/temporal/fitness.hpp>
#include <volley/temporal/hand_networks.hpp>
#include <volley/temporal/ideal_bound.hpp>
#include <volley/temporal/motifs.hpp>
#include <volley/temporal/sequence_runner.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

using namespace volley;
using namespace volley::temporal;

namespace {

/// 200 images of a synthetic set, image i of class i % 10, as oracle features.
const std::vector<std::uint8_t>& set_labels() {
    static const std::vector<std::uint8_t> l = [] {
        std::vector<std::uint8_t> v(200);
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint8_t>(i % 10);
        return v;
    }();
    return l;
}

task_spec task_of(question q) {
    task_spec t;
    t.kind = q;
    return t;
}

processor_spec spec_of(const std::string& kind, const encoding_options& e) {
    processor_spec s;
    s.kind = kind;
    s.proc_params = temporal_risp_params(e);
    return s;
}

std::vector<encoded_sequence> oracle_sequences(const task_spec& t, const encoding_options& e, std::size_t n,
                                               std::uint64_t seed) {
    generator_options o;
    o.count = n;
    o.seed = seed;
    return encode_sequences(generate_sequences(t, set_labels(), o), oracle_features(set_labels()), e);
}

/// The hand-built network of `q` with `timing` on RISP (winner code, oracle features) run on
/// one sequence of the synthetic set's `images`; decoded with the timing's latency.
sequence_outcome run_hand_built(question q, const std::vector<std::uint32_t>& images, const motif_timing& timing) {
    encoding_options e;
    const auto spec = spec_of("risp", e);
    task_spec t = task_of(q);
    t.frames = static_cast<int>(images.size());
    sequence s;
    s.images = images;
    for (auto i : images) s.labels.push_back(set_labels()[i]);
    s.answers = ground_truth(t, s.labels);
    sequence_runner r(spec, hand_built_network(t, e, spec, timing), t, e, hand_built_decoding(timing));
    return r.run(encode_sequence(s, oracle_features(set_labels()), e));
}

decoding_options decoding_for() {
    decoding_options d;
    d.answer_latency = motif_timing{}.change_latency();
    return d;
}

}  // namespace

// The acceptance test of the motifs: every answer right on 240 oracle sequences per question
// (240 for order and count, 240 x 7 frames for change), with single-spike codes and, for order
// and count, rate coding. The sequences are balanced, so a network that always answers the same
// scores 50%.
TEST(temporal_hand_networks, answer_every_oracle_sequence_right_on_risp) {
    for (auto q : {question::order, question::count, question::change})
        for (auto mode : {encoding_mode::winner, encoding_mode::first_spike, encoding_mode::rate}) {
            if (q == question::change && mode == encoding_mode::rate) continue;  // built for one spike per frame
            const auto t = task_of(q);
            encoding_options e;
            e.mode = mode;
            const auto spec = spec_of("risp", e);
            const auto net = hand_built_network(t, e, spec);
            const auto seqs = oracle_sequences(t, e, 240, 3);
            const auto score = evaluate_network(spec, net, t, e, decoding_for(), seqs);
            EXPECT_EQ(score.tally.correct, score.tally.total) << to_string(q) << " " << to_string(mode);
            EXPECT_EQ(score.tally.total, q == question::change ? 240u * 7 : 240u);
            if (mode == encoding_mode::winner)
                std::printf("%s: %lld neurons, %lld synapses; accuracy %.4f; %.1f cycles, %.1f events, %.2f output fires per sequence\n",
                            to_string(q).c_str(), static_cast<long long>(score.neurons),
                            static_cast<long long>(score.synapses), score.accuracy, score.mean_cycles, score.mean_events,
                            score.mean_output_fires);
        }
}

// Sizes by construction (motifs.hpp): order and count = 10 inputs + output + latch + level relay
// + pulse relay, 8 synapses; change = 10 inputs + output + 4 neurons and 9 synapses per class.
TEST(temporal_hand_networks, have_the_sizes_of_their_motifs) {
    encoding_options e;
    const auto spec = spec_of("risp", e);
    const auto order = hand_built_network(task_of(question::order), e, spec);
    EXPECT_EQ(order.nodes.size(), 14u);
    EXPECT_EQ(order.edges.size(), 8u);
    const auto count = hand_built_network(task_of(question::count), e, spec);
    EXPECT_EQ(count.nodes.size(), 14u);
    EXPECT_EQ(count.edges.size(), 8u);
    const auto change = hand_built_network(task_of(question::change), e, spec);
    EXPECT_EQ(change.nodes.size(), 51u);
    EXPECT_EQ(change.edges.size(), 90u);
    // The layout eons::network_template expects: inputs 0..9, output 10.
    for (int i = 0; i < 10; ++i) EXPECT_EQ(change.inputs[static_cast<std::size_t>(i)], static_cast<hw::node_id>(i));
    EXPECT_EQ(change.outputs, std::vector<hw::node_id>{10});
    // The network JSON round-trips through the TENNLab reader.
    const auto back = hw::tennlab_network::from_json(change.to_json(), "<string>");
    EXPECT_EQ(back.edges.size(), 90u);
}

// Output fire times by hand: frames of C = 10, winner code. order: A (7) in frame 1 and B (8)
// in frame 3 -> B's input fires at 30, the output at 31. count: 7 in frames 2 and 5 -> 51.
// change [3, 3, 4, 4, 3]: changes in frames 2 and 4 -> fires at 22 and 42; frame 0 (a class
// "now and not one frame ago") also fires, at 2, outside every decoded window.
TEST(temporal_hand_networks, fire_at_the_hand_derived_cycles) {
    auto run = [](question q, std::vector<std::uint32_t> images) { return run_hand_built(q, images, {}); };
    const auto o = run(question::order, {0, 7, 1, 8, 2});
    EXPECT_EQ(o.output_fires, std::vector<double>{31});
    EXPECT_EQ(o.answers, std::vector<std::uint8_t>{1});
    EXPECT_EQ(o.cycles, 54);
    EXPECT_GT(o.events, 0);
    EXPECT_EQ(run(question::order, {8, 1, 7, 2}).output_fires, std::vector<double>{});
    EXPECT_EQ(run(question::count, {0, 1, 7, 2, 3, 17, 4}).output_fires, std::vector<double>{51});
    const auto c = run(question::change, {3, 13, 4, 14, 23});
    EXPECT_EQ(c.output_fires, (std::vector<double>{2, 22, 42}));
    EXPECT_EQ(c.answers, (std::vector<std::uint8_t>{0, 1, 0, 1}));
}

// danna2 runs the same network with the same output fire times on every sequence.
TEST(temporal_hand_networks, run_identically_on_danna2) {
    for (auto q : {question::order, question::count, question::change}) {
        const auto t = task_of(q);
        encoding_options e;
        const auto risp = spec_of("risp", e);
        const auto net = hand_built_network(t, e, risp);
        const auto seqs = oracle_sequences(t, e, 40, 9);
        sequence_runner a(risp, net, t, e, decoding_for());
        for (const std::string kind : {"danna2"}) {
            sequence_runner b(spec_of(kind, e), net, t, e, decoding_for());
            for (std::size_t i = 0; i < seqs.size(); ++i) {
                const auto x = a.run(seqs[i]);
                const auto y = b.run(seqs[i]);
                ASSERT_EQ(x.output_fires, y.output_fires) << kind << " " << to_string(q) << " sequence " << i;
                EXPECT_EQ(y.answers, seqs[i].answers);
                EXPECT_EQ(y.cycles, x.cycles);
            }
        }
    }
}

// With time unit 1 the DANNA grid cannot place the change network: its delay-1 synapses leave
// no cycle for fan-out hops, so place and route refuses it, and the fitness scores it 0.
TEST(temporal_hand_networks, do_not_route_on_the_danna_grid_with_time_unit_1) {
    encoding_options e;
    const auto t = task_of(question::change);
    const auto net = hand_built_network(t, e, spec_of("risp", e));
    EXPECT_THROW(sequence_runner(spec_of("danna", e), net, t, e, decoding_for()), unroutable_network);
    auto problem = std::make_shared<training_problem>();
    problem->task = t;
    problem->encoding = e;
    problem->decoding = decoding_for();
    problem->processor = spec_of("danna", e);
    problem->sequences = oracle_sequences(t, e, 4, 1);
    EXPECT_EQ(make_fitness(problem)(net), 0.0);
}

// With the grid's timing every question's hand-built network is placed and routed, answers
// every oracle sequence right there, and fires at the same cycles as on danna2 and RISP.
TEST(temporal_hand_networks, route_on_the_danna_grid_with_longer_delays) {
    for (auto q : {question::order, question::count, question::change}) {
        const auto t = task_of(q);
        encoding_options e;
        const auto grid = spec_of("danna", e);
        const auto timing = hand_built_timing(t, e, grid);
        const auto fast = hand_built_timing(t, e, spec_of("danna2", e));
        EXPECT_EQ(fast.time_unit, 1);
        EXPECT_EQ(fast.report_delay, 1);
        EXPECT_GE(timing.time_unit, 1);
        EXPECT_LE(timing.time_unit, e.cycles_per_frame / 2);
        std::printf("%s: grid time unit %d, report delay %d\n", to_string(q).c_str(), timing.time_unit,
                    timing.report_delay);
        const auto net = hand_built_network(t, e, grid, timing);
        EXPECT_EQ(net.associated_data["temporal"]["time_unit"], timing.time_unit);
        decoding_options d;
        d.answer_latency = timing.change_latency();
        d.tail_cycles = std::max(d.tail_cycles, d.answer_latency);
        const auto seqs = oracle_sequences(t, e, 60, 5);
        sequence_runner on_grid(grid, net, t, e, d), on_d2(spec_of("danna2", e), net, t, e, d),
            on_risp(spec_of("risp", e), net, t, e, d);
        for (std::size_t i = 0; i < seqs.size(); ++i) {
            const auto x = on_grid.run(seqs[i]);
            ASSERT_EQ(x.output_fires, on_d2.run(seqs[i]).output_fires) << to_string(q) << " sequence " << i;
            ASSERT_EQ(x.output_fires, on_risp.run(seqs[i]).output_fires) << to_string(q) << " sequence " << i;
            EXPECT_EQ(x.answers, seqs[i].answers) << to_string(q) << " sequence " << i;
        }
    }
}

// Timing by hand: the sequences of fire_at_the_hand_derived_cycles with time unit u = 3 fire
// u - 1 cycles later (order, count); with report delay 5 as well, change fires u - 1 + 4 cycles
// later. A unit the change detector cannot hold (2u > C) is refused.
TEST(temporal_hand_networks, slow_down_by_their_time_unit) {
    auto run = [](question q, std::vector<std::uint32_t> images) { return run_hand_built(q, images, {3, 5}); };
    EXPECT_EQ(run(question::order, {0, 7, 1, 8, 2}).output_fires, std::vector<double>{33});
    EXPECT_EQ(run(question::order, {8, 1, 7, 2}).output_fires, std::vector<double>{});
    EXPECT_EQ(run(question::count, {0, 1, 7, 2, 3, 17, 4}).output_fires, std::vector<double>{53});
    const auto c = run(question::change, {3, 13, 4, 14, 23});
    EXPECT_EQ(c.output_fires, (std::vector<double>{8, 28, 48}));
    EXPECT_EQ(c.answers, (std::vector<std::uint8_t>{0, 1, 0, 1}));
    encoding_options e;
    const auto spec = spec_of("risp", e);
    EXPECT_THROW(hand_built_network(task_of(question::change), e, spec, {6, 1}), invalid_parameter);
    EXPECT_THROW(hand_built_network(task_of(question::order), e, spec, {0, 1}), invalid_parameter);
    EXPECT_THROW(hand_built_network(task_of(question::change), e, spec, {1, 0}), invalid_parameter);
}

TEST(temporal_runner, rejects_networks_and_processors_that_do_not_fit) {
    encoding_options e;
    const auto spec = spec_of("risp", e);
    network_builder b(spec.network_properties(), spec.proc_params, 9, 1);
    try {
        sequence_runner r(spec, b.network(), task_of(question::order), e, decoding_options{});
        FAIL() << "no error";
    } catch (const invalid_parameter& ex) {
        EXPECT_EQ(ex.parameter(), "inputs");
        EXPECT_EQ(ex.value(), "9");
    }
    processor_spec loihi = spec;
    loihi.kind = "loihi";
    try {
        loihi.make();
        FAIL() << "no error";
    } catch (const unknown_name& ex) {
        EXPECT_EQ(ex.name(), "loihi");
    }
    network_builder c(spec.network_properties(), spec.proc_params, 10, 1);
    try {
        c.add_edge(0, 10, 9, 1);  // W = 8
        FAIL() << "no error";
    } catch (const invalid_parameter& ex) {
        EXPECT_EQ(ex.parameter(), "Weight");
        EXPECT_EQ(ex.value(), "9");
    }
    EXPECT_THROW(c.add_edge(0, 10, 1, 21), invalid_parameter);  // max_delay = 2 C = 20
    c.add_edge(0, 10, 1, 1);
    EXPECT_THROW(c.add_edge(0, 10, 2, 1), invalid_parameter);  // a second synapse 0 -> 10
    risp_settings small;
    small.max_delay = 10;  // < C + 1
    EXPECT_THROW(temporal_risp_params(e, small), invalid_parameter);
}

// The fitness is the accuracy: 1 for the hand-built network, 1/2 on balanced order sequences
// for a network whose output never fires, identical when called from several threads at once.
TEST(temporal_fitness, is_the_accuracy_on_the_training_sequences) {
    encoding_options e;
    auto problem = std::make_shared<training_problem>();
    problem->task = task_of(question::order);
    problem->encoding = e;
    problem->decoding = decoding_for();
    problem->processor = spec_of("risp", e);
    problem->sequences = oracle_sequences(problem->task, e, 100, 21);
    const auto shape = make_network_template(problem->task, problem->processor);
    EXPECT_EQ(shape.inputs, 10);
    EXPECT_EQ(shape.outputs, 1);
    EXPECT_TRUE(shape.properties.matches(hw::risp_processor(problem->processor.proc_params).network_properties()));
    const auto fitness = make_fitness(problem);
    const auto hand = hand_built_network(problem->task, e, problem->processor);
    const network_builder empty(shape.properties, problem->processor.proc_params, 10, 1);
    EXPECT_DOUBLE_EQ(fitness(hand), 1.0);
    EXPECT_DOUBLE_EQ(fitness(empty.network()), 0.5);
    std::vector<double> results(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < results.size(); ++i)
        threads.emplace_back([&, i] { results[i] = fitness(i % 2 ? hand : empty.network()); });
    for (auto& th : threads) th.join();
    EXPECT_EQ(results, (std::vector<double>{0.5, 1.0, 0.5, 1.0}));
    network_builder nine(shape.properties, problem->processor.proc_params, 9, 1);
    EXPECT_THROW(fitness(nine.network()), invalid_parameter);
    auto none = std::make_shared<training_problem>(*problem);
    none->sequences.clear();
    EXPECT_THROW(make_fitness(none), invalid_parameter);
    EXPECT_THROW(make_case_fitness(none), invalid_parameter);

    // As cases (lexicase selection): one per sequence; the silent output is right exactly on
    // the "no" sequences (the odd ones, sequence_generator.hpp), and the mean is the accuracy.
    const auto cases = make_case_fitness(problem);
    const auto silent = cases(empty.network());
    ASSERT_EQ(silent.size(), 100u);
    for (std::size_t i = 0; i < silent.size(); ++i) EXPECT_EQ(silent[i], i % 2 ? 1.0 : 0.0) << i;
    EXPECT_EQ(cases(hand), std::vector<double>(100, 1.0));
}

// Behind an imperfect front end, the hand-built networks with the winner code are exactly the
// ideal bound: the temporal logic applied to the predicted classes. Every third image of the
// set is "misclassified" as (label + 3) % 10; the networks see only the predictions, the ideal
// bound computes the logic directly, and the two must agree on every answer count.
TEST(temporal_hand_networks, equal_the_ideal_bound_behind_a_wrong_front_end) {
    auto features = oracle_features(set_labels());
    for (std::size_t i = 0; i < features.images(); i += 3) {
        const auto p = static_cast<std::size_t>((set_labels()[i] + 3) % 10);
        for (std::size_t k = 0; k < 10; ++k) features.evidence[i * 10 + k] = k == p ? 1.0f : 0.0f;
        features.prediction[i] = static_cast<std::int32_t>(p);
    }
    for (auto q : {question::order, question::count, question::change}) {
        const auto t = task_of(q);
        encoding_options e;
        generator_options o;
        o.count = 200;
        o.seed = 17;
        const auto seqs = generate_sequences(t, set_labels(), o);
        const auto bound = ideal_bound(t, seqs, features);
        for (const std::string kind : {"risp", "danna2"}) {
            const auto spec = spec_of(kind, e);
            const auto score = evaluate_network(spec, hand_built_network(t, e, spec), t, e, decoding_for(),
                                                encode_sequences(seqs, features, e));
            EXPECT_EQ(score.tally.correct, bound.correct) << kind << " " << to_string(q);
            EXPECT_EQ(score.tally.total, bound.total);
        }
        EXPECT_LT(bound.accuracy(), 0.95) << to_string(q);  // the errors do reach the answers
    }
}
