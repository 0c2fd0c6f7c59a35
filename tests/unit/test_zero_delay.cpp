// Zero-delay projections (synapse delay_ms = 0): a spike reaches its targets in the step it is
// fired, so a feed-forward chain is updated layer after layer within one step. Checked against
// a step-by-step simulation written here, against the one-step-delay path shifted by one step,
// for 1, 2 and 3 threads, and for the errors that guard it (cycles, drawn zero delays,
// plastic synapses).

#include "../support/snn_test_support.hpp"

#include <cmath>
#include <random>

namespace volley::snn {
namespace {

using testing::raster;
using testing::raster_event;
using testing::throws_naming;

/// Plain IF neurons: v += input each step, a spike when v > 1, reset by subtracting 1.
discrete_neuron if_neuron() {
    discrete_neuron n;
    n.reset = discrete_neuron::reset_mode::subtract;
    return n;
}

// Three IF layers joined by dense zero-delay projections. The reference updates layer 1, then
// layer 2 with layer 1's spikes of the same step, then layer 3: the numpy reference of a
// converted CNN. Every spike step and membrane must match, for any thread count. Layer 1 has
// no input but its bias; with `inhibitory`, layer 2 also hears layer 1 through its inhibitory
// receptor (the engine's three IF steps: no input, one receptor, two). Layers of 45, 37 and 19
// neurons take the vectorised step in blocks of 8 plus a remainder.
void check_if_layers(std::size_t n1, std::size_t n2, std::size_t n3, bool inhibitory) {
    const std::size_t steps = 40;
    std::mt19937 gen(3);
    std::uniform_real_distribution<double> bias_d(0.05, 0.9), w_d(-0.4, 0.8), wi_d(-0.5, 0.1);
    std::vector<double> bias(n1), w12(n1 * n2), w12i(n1 * n2), w23(n2 * n3);
    for (auto& b : bias) b = bias_d(gen);
    for (auto& w : w12) w = w_d(gen);
    for (auto& w : w23) w = w_d(gen);
    for (auto& w : w12i) w = wi_d(gen);
    // The engine adds weights in fixed point: each addition rounds by at most max|w|·2^-30
    // (fixed_point_weights), so layer 3's membrane may drift by that per input spike.
    double max_w23 = 0;
    for (const double w : w23) max_w23 = std::max(max_w23, std::abs(w));
    const double per_input = max_w23 * std::ldexp(1.0, -30);

    // The reference: spikes[layer][step] = the neurons that fired.
    std::vector<double> v1(n1, 0), v2(n2, 0), v3(n3, 0);
    std::vector<std::vector<double>> v3_trace;
    std::vector<std::size_t> inputs3;  ///< spikes layer 3 has heard, up to each step
    std::vector<raster_event> expected;
    auto fire = [&](std::vector<double>& v, std::uint32_t first, std::size_t s) {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < v.size(); ++i)
            if (v[i] > 1) {
                v[i] -= 1;
                out.push_back(i);
                expected.push_back({static_cast<std::int64_t>(s + 1), first + static_cast<std::uint32_t>(i)});
            }
        return out;
    };
    for (std::size_t s = 0; s < steps; ++s) {
        for (std::size_t i = 0; i < n1; ++i) v1[i] += bias[i];
        const auto s1 = fire(v1, 0, s);
        std::vector<double> in2(n2, 0.0);
        for (const auto i : s1)
            for (std::size_t j = 0; j < n2; ++j) {
                in2[j] += w12[i * n2 + j];
                if (inhibitory) in2[j] += w12i[i * n2 + j];
            }
        for (std::size_t j = 0; j < n2; ++j) v2[j] += in2[j];
        const auto s2 = fire(v2, static_cast<std::uint32_t>(n1), s);
        for (const auto j : s2)
            for (std::size_t k = 0; k < n3; ++k) v3[k] += w23[j * n3 + k];
        fire(v3, static_cast<std::uint32_t>(n1 + n2), s);
        v3_trace.push_back(v3);
        inputs3.push_back((inputs3.empty() ? 0 : inputs3.back()) + s2.size());
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_GT(expected.size(), 8 * (n1 + n2 + n3));

    network net;
    const auto l1 = net.add_population("l1", static_cast<std::uint32_t>(n1), if_neuron());
    const auto l2 = net.add_population("l2", static_cast<std::uint32_t>(n2), if_neuron());
    const auto l3 = net.add_population("l3", static_cast<std::uint32_t>(n3), if_neuron());
    net.set_parameter(l1, "i_bias", bias);
    // Declared out of order: the engine must still update l1, l2, l3 in this order.
    net.connect(l2, l3, all_to_all{}, {.weight = w23, .delay_ms = 0.0});
    net.connect(l1, l2, all_to_all{}, {.weight = w12, .delay_ms = 0.0});
    if (inhibitory) net.connect(l1, l2, all_to_all{}, {.weight = w12i, .delay_ms = 0.0, .receptor = receptor_type::inhibitory});
    for (int threads : {1, 2, 3}) {
        simulation sim(net, context{.threads = threads}, {.dt_ms = 1.0});
        auto r1 = sim.record_spikes(l1);
        auto r2 = sim.record_spikes(l2);
        auto r3 = sim.record_spikes(l3);
        auto v = sim.record_state(l3, "v", 1.0);
        sim.run(static_cast<double>(steps));
        EXPECT_EQ(raster({&r1, &r2, &r3}), expected) << threads << " threads";
        for (std::size_t s = 0; s < steps; ++s)
            for (std::size_t k = 0; k < n3; ++k)
                EXPECT_NEAR(v.at(s + 1, k), v3_trace[s][k], 1e-12 + per_input * static_cast<double>(inputs3[s]))
                    << "step " << s << " neuron " << k;
    }
}

TEST(zero_delay, if_layers_hear_the_layer_below_in_the_same_step) { check_if_layers(7, 5, 3, false); }

TEST(zero_delay, wide_if_layers_with_both_receptors_hear_the_layer_below_in_the_same_step) {
    check_if_layers(45, 37, 19, false);
    check_if_layers(45, 37, 19, true);
}

// A zero delay onto LIF neurons (whose update follows the list of touched neurons) gives the
// raster of a one-step delay from a source that fires one step earlier.
TEST(zero_delay, equals_a_one_step_delay_from_a_source_one_step_earlier) {
    const double dt = 0.1;
    std::mt19937 gen(5);
    std::vector<std::vector<double>> times(40), earlier(40);
    for (std::size_t i = 0; i < times.size(); ++i)
        for (int s = 2; s < 300; ++s)
            if (gen() % 9 == 0) {
                times[i].push_back(s * dt);
                earlier[i].push_back((s - 1) * dt);
            }
    const lif_exp target{{.tau_m_ms = 10, .tau_syn_e_ms = 2, .tau_syn_i_ms = 4, .v_rest_mv = -65, .v_reset_mv = -65,
                          .v_thresh_mv = -50, .t_ref_ms = 1, .i_e_mv = 0}};
    std::vector<raster_event> reference;
    for (bool same_step : {false, true})
        for (int threads : {1, 2, 3}) {
            network net;
            const auto src = net.add_population("src", 40, spike_source{same_step ? times : earlier});
            const auto out = net.add_population("out", 30, target);
            net.connect(src, out, fixed_in_degree{.k = 12}, {.weight = 3.0, .delay_ms = same_step ? 0.0 : dt});
            simulation sim(net, context{.threads = threads}, {.dt_ms = dt, .seed = 9});
            auto spikes = sim.record_spikes(out);
            sim.run(35);
            ASSERT_GT(spikes.size(), 20u);
            const auto r = raster({&spikes});
            if (reference.empty()) reference = r;
            else EXPECT_EQ(r, reference) << (same_step ? "zero delay" : "one step") << ", " << threads << " threads";
        }
}

// An analog value sent with zero delay is in the target's membrane after the same step.
TEST(zero_delay, analog_values_arrive_in_the_same_step) {
    network net;
    const auto src = net.add_population("x", 2, analog_source{{{0.25, 0.5}, {0.0, 0.125}}});
    const auto out = net.add_population("y", 1, discrete_neuron{.p = {.v_threshold = 10}});
    net.connect(src, out, all_to_all{}, {.weight = std::vector<double>{2.0, -1.0}, .delay_ms = 0.0});
    simulation sim(net, context{.threads = 1}, {.dt_ms = 1.0});
    auto v = sim.record_state(out, "v", 1.0);
    sim.run(2);
    EXPECT_NEAR(v.at(1, 0), 0.25 * 2 - 0.5, 1e-9);
    EXPECT_NEAR(v.at(2, 0), 0.25 * 2 - 0.5 - 0.125, 1e-9);
}

TEST(zero_delay, a_cycle_of_zero_delays_is_an_error_naming_a_projection) {
    network net;
    const auto a = net.add_population("alpha", 3, if_neuron());
    const auto b = net.add_population("beta", 3, if_neuron());
    const auto c = net.add_population("gamma", 3, if_neuron());
    net.connect(a, b, one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    net.connect(b, c, one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    net.connect(c, b, one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(net, {}, {.dt_ms = 1.0}); },
                                                 {"projection 1", "'beta'", "'gamma'", "cycle", "delay_ms"}));
    // A delay of one step anywhere on the loop breaks it.
    network ok;
    const auto a2 = ok.add_population("alpha", 3, if_neuron());
    const auto b2 = ok.add_population("beta", 3, if_neuron());
    ok.connect(a2, b2, one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    ok.connect(b2, a2, one_to_one{}, {.weight = 1.0, .delay_ms = 1.0});
    ok.connect(b2, b2, one_to_one{}, {.weight = 1.0, .delay_ms = 1.0});
    EXPECT_NO_THROW(simulation(ok, {}, {.dt_ms = 1.0}));
    network self;
    const auto s = self.add_population("self", 2, if_neuron());
    self.connect(s, s, all_to_all{}, {.weight = 1.0, .delay_ms = 0.0});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(self, {}, {.dt_ms = 1.0}); },
                                                 {"projection 0", "'self'", "cycle"}));
}

TEST(zero_delay, only_a_constant_delay_may_be_zero_and_not_for_plastic_synapses) {
    network net;
    const auto a = net.add_population("a", 2, if_neuron());
    const auto b = net.add_population("b", 2, if_neuron());
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { net.connect(a, b, one_to_one{}, {.weight = 1.0, .delay_ms = std::vector<double>{1.0, 0.0}}); },
        {"delay_ms[1]", "0", "> 0 ms"}));
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { net.connect(a, b, one_to_one{}, {.weight = 1.0, .delay_ms = uniform{.low = 0.0, .high = 2.0}}); },
        {"uniform low bound", "> 0 ms"}));
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { net.connect(a, b, one_to_one{}, {.weight = 1.0, .delay_ms = -1.0}); }, {"delay_ms", "-1", "> 0 ms"}));
    const auto src = net.add_population("src", 2, poisson_source{{.rate_hz = 10}});
    const auto post = net.add_population("post", 2, lif_delta{});
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] {
            net.connect(src, post, one_to_one{}, {.weight = 0.5, .delay_ms = 0.0, .plasticity = stdp_pair{.w_max = 1}});
        },
        {"delay_ms", "plastic"}));
}

}  // namespace
}  // namespace volley::snn
