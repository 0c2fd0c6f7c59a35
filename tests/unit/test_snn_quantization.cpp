// Integer mode of a converted network: a tiny dense network quantised here by hand (the rule of
// snn_quantization.hpp written out independently) and simulated by a hand-written integer IF
// loop must give the engine's spikes, step by step; bad bit widths are errors.

#include "../support/conversion_test_support.hpp"

#include <volley/convert/snn_quantization.hpp>
#include <volley/error.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace volley::convert {
namespace {

/// in -> dense(hidden, ReLU) -> dense(out), weights from a fixed LCG in [-1, 1), biases small.
cnn_graph tiny_dense(std::size_t in, std::size_t hidden, std::size_t out) {
    std::uint64_t state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<float>(static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1);
    };
    cnn_graph g;
    g.source_file = "tiny.h5";
    g.input_shape = {1, in, 1, 1};
    const std::size_t sizes[3] = {in, hidden, out};
    for (int l = 0; l < 2; ++l) {
        layer_node d;
        d.name = l == 0 ? "hidden" : "out";
        d.kind = layer_kind::dense;
        d.inputs = l == 0 ? std::vector<std::size_t>{} : std::vector<std::size_t>{0};
        d.output_shape = {1, sizes[l + 1], 1, 1};
        d.relu = l == 0;
        d.dense.in_features = sizes[l];
        d.dense.out_features = sizes[l + 1];
        for (std::size_t k = 0; k < sizes[l] * sizes[l + 1]; ++k) d.dense.kernel.push_back(next() * 0.6f);
        for (std::size_t k = 0; k < sizes[l + 1]; ++k) d.dense.bias.push_back(next() * 0.05f);
        g.nodes.push_back(d);
    }
    return g;
}

using testing::unit_scales;

/// The rule by hand: s = (2^(B-1)-1)/max|W|, W -> round(W s), theta = round(s), b -> round(b s).
struct int_layer {
    std::size_t in = 0, out = 0;
    std::vector<double> w;  // (out, in)
    std::vector<double> b;
    double theta = 1;
    bool zero_reset = false;
};

int_layer quantise_by_hand(const dense_spec& d, int bits, bool zero_reset) {
    double m = 0;
    for (float x : d.kernel) m = std::max(m, std::abs(static_cast<double>(x)));
    const double s = (std::pow(2.0, bits - 1) - 1) / m;
    int_layer l;
    l.in = d.in_features;
    l.out = d.out_features;
    for (float x : d.kernel) l.w.push_back(std::round(static_cast<double>(x) * s));
    for (float x : d.bias) l.b.push_back(std::round(static_cast<double>(x) * s));
    l.theta = std::round(s);
    l.zero_reset = zero_reset;
    return l;
}

TEST(snn_quantization, engine_integer_mode_equals_a_hand_written_integer_if_network) {
    const auto g = tiny_dense(6, 7, 4);
    const auto net = convert_to_snn(g, unit_scales(2));
    for (const int bits : {3, 5, 8, 12}) {
        const auto q = quantize_snn(net, {.bits = bits});
        ASSERT_EQ(q.head_first, 1u);  // the output layer is fed by a dense projection from "hidden"
        const auto l1 = quantise_by_hand(g.nodes[0].dense, bits, false);
        const auto l2 = quantise_by_hand(g.nodes[1].dense, bits, true);
        EXPECT_EQ(q.layers[0].threshold, static_cast<std::int64_t>(l1.theta));
        EXPECT_EQ(q.layers[1].threshold, static_cast<std::int64_t>(l2.theta));
        const double max_int = std::pow(2.0, bits - 1) - 1;
        for (double w : l2.w) EXPECT_LE(std::abs(w), max_int);
        // The hidden->out delay, in steps, as the converter built it.
        const auto& proj = q.snn.network.projections().at(0);
        const auto delay = static_cast<std::size_t>(std::lround(std::get<double>(proj.synapse.delay_ms)));

        const std::vector<float> x = {0.9f, 0.1f, 0.55f, 0.0f, 0.7f, 0.33f};
        snn::simulation sim(q.snn.network, snn::context{.threads = 1}, {.dt_ms = 1.0});
        auto s1 = sim.record_spikes(q.snn.layers[0].population);
        auto s2 = sim.record_spikes(q.snn.layers[1].population);
        sim.set_input(q.snn.layers[0].population, volley::snn::constant_input{q.snn.first_layer_current(x)});
        const std::int64_t T = 60;
        sim.run(static_cast<double>(T));

        // The integer IF network by hand.
        std::vector<double> c1(l1.out);
        for (std::size_t j = 0; j < l1.out; ++j) {
            c1[j] = l1.b[j];
            for (std::size_t i = 0; i < l1.in; ++i) c1[j] += l1.w[j * l1.in + i] * static_cast<double>(x[i]);
        }
        std::vector<double> v1(l1.out, 0), v2(l2.out, 0);
        std::vector<std::vector<std::uint32_t>> fired1(T), fired2(T);
        for (std::int64_t t = 0; t < T; ++t) {
            for (std::size_t j = 0; j < l1.out; ++j) {
                v1[j] += c1[j];
                if (v1[j] > l1.theta) {
                    v1[j] -= l1.theta;
                    fired1[t].push_back(static_cast<std::uint32_t>(j));
                }
            }
            for (std::size_t k = 0; k < l2.out; ++k) {
                double in = l2.b[k];
                const std::int64_t src = t - static_cast<std::int64_t>(delay);
                if (src >= 0)
                    for (auto j : fired1[static_cast<std::size_t>(src)]) in += l2.w[k * l2.in + j];
                v2[k] += in;
                if (v2[k] > l2.theta) {
                    v2[k] = 0;
                    fired2[t].push_back(static_cast<std::uint32_t>(k));
                }
            }
        }
        // The engine stamps a spike of update t (0-based) with the step t + 1 (its time is the
        // end of the step).
        auto by_step = [&](const snn::spike_recorder& r) {
            std::vector<std::vector<std::uint32_t>> s(T);
            for (std::size_t k = 0; k < r.size(); ++k) {
                const auto step = r.steps()[k] - 1;
                EXPECT_TRUE(step >= 0 && step < T) << r.steps()[k];
                if (step >= 0 && step < T) s[static_cast<std::size_t>(step)].push_back(r.node_ids()[k]);
            }
            for (auto& v : s) std::sort(v.begin(), v.end());
            return s;
        };
        EXPECT_EQ(by_step(s1), fired1) << bits << " bits";
        EXPECT_EQ(by_step(s2), fired2) << bits << " bits";
        std::size_t n2 = 0;
        for (const auto& f : fired2) n2 += f.size();
        EXPECT_GT(n2, 0u) << "the test must exercise the head";
    }
}

TEST(snn_quantization, bits_out_of_range_are_an_error_naming_the_value) {
    const auto net = convert_to_snn(tiny_dense(3, 3, 2), unit_scales(2));
    for (const int bits : {1, 0, -4, 32, 64}) {
        try {
            (void)quantize_snn(net, {.bits = bits});
            FAIL() << bits;
        } catch (const invalid_parameter& e) {
            EXPECT_NE(std::string(e.what()).find(std::to_string(bits)), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("bits"), std::string::npos) << e.what();
        }
    }
    EXPECT_NO_THROW((void)quantize_snn(net, {.bits = 2}));
    EXPECT_NO_THROW((void)quantize_snn(net, {.bits = 31}));
}

}  // namespace
}  // namespace volley::convert
