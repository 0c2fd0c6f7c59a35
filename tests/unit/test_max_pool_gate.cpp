// The gated max-pool (max_pool_gate connector, SNN Toolbox's fir_max): the engine against a
// step-by-step implementation written here on random spike trains, for 1, 2 and 3 threads;
// validation and the network file; and the conversion of a channels_first Keras model with
// MaxPooling2D ('same' and a window that does not tile) against the analog CNN.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/error.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

namespace volley {
namespace {

struct spike_trains {
    std::vector<std::vector<std::int64_t>> steps;  ///< per source neuron, ascending
};

spike_trains random_trains(std::size_t n, std::int64_t T, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    spike_trains s;
    s.steps.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double p = i % 7 == 3 ? 0.0 : u(rng) * 0.8;  // some silent neurons: all-zero ties
        for (std::int64_t t = 1; t < T; ++t)  // spike_source times are > 0
            if (u(rng) < p) s.steps[i].push_back(t);
    }
    return s;
}

/// The gate step by step, from its definition: the window's leader is the source with the
/// highest count including this step's spikes, ties to the first in row-major order; the
/// window's relay fires `delay` steps after a step in which its leader spiked (0: the same step).
std::vector<std::vector<std::int64_t>> reference_gate(const snn::max_pool_gate& g, const spike_trains& in,
                                                      std::int64_t T, std::int64_t delay) {
    const std::size_t oh = g.out_height(), ow = g.out_width();
    std::vector<std::vector<std::int64_t>> out(g.channels * oh * ow);
    std::vector<int> count(in.steps.size(), 0);
    std::vector<char> fired(in.steps.size());
    // Recorded steps count from 1 (a spike of spike_source time t ms is step t at dt = 1 ms),
    // and a run of T steps records up to step T.
    for (std::int64_t t = 1; t + delay <= T; ++t) {
        for (std::size_t i = 0; i < in.steps.size(); ++i) {
            fired[i] = std::binary_search(in.steps[i].begin(), in.steps[i].end(), t);
            count[i] += fired[i];
        }
        for (std::size_t c = 0; c < g.channels; ++c)
            for (std::size_t oy = 0; oy < oh; ++oy)
                for (std::size_t ox = 0; ox < ow; ++ox) {
                    long best = -1;
                    for (long a = 0; a < static_cast<long>(g.pool_h); ++a)
                        for (long b = 0; b < static_cast<long>(g.pool_w); ++b) {
                            const long y = static_cast<long>(oy * g.stride_h) + a - static_cast<long>(g.pad_top);
                            const long x = static_cast<long>(ox * g.stride_w) + b - static_cast<long>(g.pad_left);
                            if (y < 0 || x < 0 || y >= static_cast<long>(g.in_height) || x >= static_cast<long>(g.in_width)) continue;
                            const long i = (static_cast<long>(c) * g.in_height + y) * g.in_width + x;
                            if (best < 0 || count[static_cast<std::size_t>(i)] > count[static_cast<std::size_t>(best)]) best = i;
                        }
                    if (fired[static_cast<std::size_t>(best)]) out[(c * oh + oy) * ow + ox].push_back(t + delay);
                }
    }
    return out;
}

std::vector<std::vector<std::int64_t>> run_gate(const snn::max_pool_gate& g, const spike_trains& in, std::int64_t T,
                                                double delay_ms, int threads) {
    snn::network net;
    snn::spike_source src;
    for (const auto& steps : in.steps) {
        src.spike_times_ms.emplace_back();
        for (auto t : steps) src.spike_times_ms.back().push_back(static_cast<double>(t));
    }
    const auto s = net.add_population("src", static_cast<std::uint32_t>(in.steps.size()), src);
    snn::discrete_neuron relay;
    relay.p.v_threshold = 0.5;
    const auto r = net.add_population("relay", g.channels * g.out_height() * g.out_width(), relay);
    net.connect(s, r, g, {.weight = 1.0, .delay_ms = delay_ms});
    snn::simulation sim(net, snn::context{.threads = threads}, {.dt_ms = 1.0});
    auto rec = sim.record_spikes(r);
    sim.run(static_cast<double>(T));
    std::vector<std::vector<std::int64_t>> out(net.at(r).size);
    for (std::size_t k = 0; k < rec.size(); ++k) out[rec.node_ids()[k]].push_back(rec.steps()[k]);
    return out;
}

TEST(max_pool_gate, passes_the_spikes_of_the_leading_input_as_defined) {
    const std::int64_t T = 200;
    // Tiling 2x2, overlapping 3x3 stride 2 with padding, and a 2x3 window with stride 1.
    std::vector<snn::max_pool_gate> gates(3);
    gates[0] = {.channels = 2, .in_height = 6, .in_width = 6};
    gates[1] = {.channels = 3, .in_height = 7, .in_width = 6, .pool_h = 3, .pool_w = 3, .pad_top = 1, .pad_bottom = 1, .pad_left = 1};
    gates[2] = {.channels = 1, .in_height = 5, .in_width = 7, .pool_h = 2, .pool_w = 3, .stride_h = 1, .stride_w = 1};
    for (std::size_t k = 0; k < gates.size(); ++k) {
        const auto& g = gates[k];
        const auto in = random_trains(std::size_t{g.channels} * g.in_height * g.in_width, T, 5 + static_cast<unsigned>(k));
        for (const double delay : {0.0, 1.0, 3.0}) {
            const auto want = reference_gate(g, in, T, static_cast<std::int64_t>(delay));
            std::size_t passed = 0;
            for (const auto& w : want) passed += w.size();
            EXPECT_GT(passed, 100u);
            for (int threads : {1, 2, 3}) {
                const auto got = run_gate(g, in, T, delay, threads);
                ASSERT_EQ(got.size(), want.size());
                for (std::size_t j = 0; j < got.size(); ++j) {
                    EXPECT_EQ(got[j], want[j]) << "gate " << k << " window " << j << " threads " << threads << " delay " << delay;
                }
            }
        }
    }
}

TEST(max_pool_gate, bad_geometry_is_an_error_and_the_file_keeps_it) {
    snn::network net;
    const auto s = net.add_population("src", 2 * 4 * 4, snn::discrete_neuron{});
    const auto r = net.add_population("relay", 2 * 2 * 2, snn::discrete_neuron{});
    snn::max_pool_gate g{.channels = 2, .in_height = 4, .in_width = 4};
    auto bad = g;
    bad.pad_left = 2;
    EXPECT_THROW(net.connect(s, r, bad, {.weight = 1.0, .delay_ms = 1.0}), invalid_parameter);
    bad = g;
    bad.in_width = 5;
    try {
        net.connect(s, r, bad, {.weight = 1.0, .delay_ms = 1.0});
        ADD_FAILURE() << "no error";
    } catch (const invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("source size"), std::string::npos) << e.what();
    }
    EXPECT_THROW(net.connect(s, r, g, {.weight = std::vector<double>(8, 1.0), .delay_ms = 1.0}), invalid_parameter);
    net.connect(s, r, g, {.weight = 1.0, .delay_ms = 2.0});
    const auto path = (std::filesystem::temp_directory_path() / "volley_max_pool_gate.json").string();
    snn::save_network_json(net, path, {});
    const auto back = snn::load_network_json(path);
    ASSERT_EQ(back.net.projections().size(), 1u);
    EXPECT_EQ(std::get<snn::max_pool_gate>(back.net.projections()[0].rule), g);
    std::filesystem::remove(path);
}

// The channels_first fixture: conv → MaxPool 2 'same' (13 → 7, padded) → conv → MaxPool 2
// 'valid' on 4x7 (the windows do not tile: avg-pool replacement cannot convert it) → Dense.
TEST(max_pool_gate, converted_keras_max_pool_follows_the_cnn) {
    using namespace convert;
    const auto g = read_cnn(std::string(VOLLEY_TEST_DATA_DIR) + "/keras/cf_maxpool_same.h5");
    tensor<float> x(g.input_shape.with_batch(12));
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& v : x.values) v = u(rng);
    normalization_options no;
    no.percentile = 100;
    const auto scales = compute_layer_scales(g, x, no);
    conversion_options avg;
    avg.max_pool_as_avg = true;
    EXPECT_THROW(convert_to_snn(g, scales, avg), unsupported_model);
    const auto net = convert_to_snn(g, scales);
    std::vector<std::string> names;
    for (const auto& l : net.layers) names.push_back(l.name);
    EXPECT_EQ(names, (std::vector<std::string>{"conv_a", "pool_same", "conv_b", "pool_valid", "logits"}));
    std::vector<std::int32_t> cnn;
    const auto logits = analog_forward(g, x);
    for (std::size_t i = 0; i < 12; ++i) {
        const float* l = logits.values.data() + i * 5;
        cnn.push_back(static_cast<std::int32_t>(std::max_element(l, l + 5) - l));
    }
    evaluation_options o;
    o.timesteps = {100, 2000};
    o.threads = 2;
    const auto r = evaluate_snn(net, x.values, {}, cnn, o);
    std::printf("agreement with the CNN: T=100 %.3f, T=2000 %.3f; rates:", r.checkpoints[0].agreement,
                r.checkpoints[1].agreement);
    for (const auto& l : r.layers) std::printf(" %s %.3f", l.name.c_str(), l.spikes_per_step);
    std::printf("\n");
    EXPECT_EQ(r.checkpoints[1].agreement, 1.0);

    // Per layer, spike count / T against the analog activation / λ (λ = the maximum over these
    // images: nothing clips); for the gates, the analog max over the window.
    std::vector<std::vector<std::vector<float>>> act(3, std::vector<std::vector<float>>(g.nodes.size()));
    tensor<float> three(g.input_shape.with_batch(3));
    std::copy_n(x.values.begin(), three.values.size(), three.values.begin());
    analog_forward(g, three, {.threads = 1}, [&](std::size_t i, std::size_t k, std::span<const float> v) {
        act[i][k].assign(v.begin(), v.end());
    });
    const std::int64_t T = 2000;
    for (std::size_t i = 0; i < 3; ++i) {
        snn::simulation sim(net.network, snn::context{.threads = 1}, {.dt_ms = 1.0});
        std::vector<snn::spike_recorder> rec;
        for (const auto& l : net.layers) rec.push_back(sim.record_spikes(l.population));
        sim.set_input(net.layers.front().population, volley::snn::constant_input{net.first_layer_current({x.values.data() + i * g.input_shape.per_image(), g.input_shape.per_image()})});
        sim.run(static_cast<double>(T));
        for (std::size_t l = 0; l + 1 < net.layers.size(); ++l) {
            const auto& layer = net.layers[l];
            const auto& a = act[i][layer.node];
            ASSERT_EQ(a.size(), layer.size());
            std::vector<double> count(a.size(), 0.0);
            for (const auto id : rec[l].node_ids()) ++count[id];
            double err = 0, mean = 0;
            for (std::size_t j = 0; j < a.size(); ++j) {
                err += std::abs(count[j] / static_cast<double>(T) - a[j] / layer.lambda) / static_cast<double>(a.size());
                mean += a[j] / layer.lambda / static_cast<double>(a.size());
            }
            EXPECT_LT(err, 0.005) << "image " << i << " layer " << layer.name << " mean " << mean;
            EXPECT_GT(mean, 0.02) << "image " << i << " layer " << layer.name;
        }
    }
}

}  // namespace
}  // namespace volley
