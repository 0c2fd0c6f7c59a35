// The lowering (snn/src/lowering/): the update order with zero-delay sources first and its
// cycle error, the compound units, and the choice of direct input, which is made from the
// network alone (constant weights, one-step delays, one weight per target receptor) so that
// every partition of the work rounds alike. Expectations are worked out by hand from the rules
// in the headers.

#include "../support/snn_test_support.hpp"

#include "lowering/direct_inputs.hpp"
#include "lowering/update_order.hpp"

#include <volley/error.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>

namespace {

namespace vs = volley::snn;
using vs::testing::throws_naming;

TEST(lowering, cuba_delivers_every_pair_directly) {
    // exc, inh onto exc, inh: scalar weights, delay dt, one receptor per source.
    EXPECT_EQ(vs::detail::direct_pairs(vs::cuba_network(1000), 0.1), (std::vector<std::uint8_t>{1, 1, 1, 1}));
}

TEST(lowering, direct_input_needs_one_weight_per_target_receptor) {
    vs::network net;
    const auto in = net.add_population("in", 10, vs::poisson_source{{.rate_hz = 10}});
    const auto exc = net.add_population("exc", 10, vs::lif_exp{});
    net.connect(in, exc, vs::all_to_all{}, {.weight = 1.0, .delay_ms = 0.1});
    net.connect(exc, exc, vs::all_to_all{false}, {.weight = 0.5, .delay_ms = 0.1});
    // Two weights onto exc's excitatory receptor: the order of additions would matter.
    EXPECT_EQ(vs::detail::direct_pairs(net, 0.1), (std::vector<std::uint8_t>{0, 0, 0, 0}));
    vs::network agree;
    const auto a_in = agree.add_population("in", 10, vs::poisson_source{{.rate_hz = 10}});
    const auto a_exc = agree.add_population("exc", 10, vs::lif_exp{});
    agree.connect(a_in, a_exc, vs::all_to_all{}, {.weight = 0.5, .delay_ms = 0.1});
    agree.connect(a_exc, a_exc, vs::all_to_all{false}, {.weight = 0.5, .delay_ms = 0.1});
    agree.connect(a_exc, a_exc, vs::one_to_one{}, {.weight = -2.0, .delay_ms = 0.1, .receptor = vs::inhibitory});
    // in -> exc and exc -> exc share 0.5 on the excitatory receptor; but exc -> exc also has an
    // inhibitory projection, so that pair has two receptors and is not direct, and then in -> exc is alone.
    EXPECT_EQ(vs::detail::direct_pairs(agree, 0.1), (std::vector<std::uint8_t>{0, 1, 0, 0}));
}

TEST(lowering, direct_input_needs_constant_weights_one_step_delays_and_input_into_a_synaptic_variable) {
    auto one_projection = [](vs::synapse_spec syn, vs::neuron_model target) {
        vs::network net;
        const auto in = net.add_population("in", 4, vs::poisson_source{{.rate_hz = 10}});
        const auto out = net.add_population("out", 4, target);
        net.connect(in, out, vs::one_to_one{}, std::move(syn));
        return vs::detail::direct_pairs(net, 0.1)[1];
    };
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::lif_exp{}), 1);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::lif_alpha{}), 1);
    EXPECT_EQ(one_projection({.weight = std::vector<double>{1, 1, 1, 2}, .delay_ms = 0.1}, vs::lif_exp{}), 0);
    EXPECT_EQ(one_projection({.weight = vs::uniform{0, 1}, .delay_ms = 0.1}, vs::lif_exp{}), 0);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.2}, vs::lif_exp{}), 0);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.0}, vs::lif_exp{}), 0);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::lif_delta{}), 0);
    // The ODE models whose input is a conductance jump go direct; izhikevich's jumps v.
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::lif_cond_exp{}), 1);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::lif_cond_alpha{}), 1);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::adex{}), 1);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::hh{}), 1);
    EXPECT_EQ(one_projection({.weight = 1.0, .delay_ms = 0.1}, vs::izhikevich{}), 0);
    EXPECT_EQ(one_projection({.weight = std::vector<double>{1, 1, 1, 1}, .delay_ms = 0.1}, vs::lif_cond_exp{}), 0);
    EXPECT_EQ(one_projection({.weight = 0.5, .delay_ms = 0.1, .plasticity = vs::stdp_pair{.w_min = 0, .w_max = 1}},
                             vs::lif_exp{}),
              0);
}

TEST(lowering, zero_delay_sources_come_first_and_cycles_are_refused) {
    vs::network net;
    const auto c = net.add_population("c", 2, vs::lif_exp{});
    const auto b = net.add_population("b", 2, vs::lif_exp{});
    const auto a = net.add_population("a", 2, vs::lif_exp{});
    net.connect(a, b, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    net.connect(b, c, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    net.connect(c, a, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 1.0});  // delayed: no constraint
    const auto order = vs::detail::order_populations(net);
    EXPECT_EQ(order.order, (std::vector<std::uint32_t>{2, 1, 0}));  // a, b, c
    EXPECT_EQ(order.sends_now, (std::vector<std::uint8_t>{0, 1, 1}));
    EXPECT_EQ(vs::detail::compound_units(net), (std::vector<std::uint32_t>{0, 0, 0}));
    net.connect(c, b, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 0.0});
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([&] { vs::detail::order_populations(net); },
                                                          {"'b' -> 'c'", "cycle", "'c', 'b'"}));
}

}  // namespace
