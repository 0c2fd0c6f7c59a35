// Bad input through the C++ API: each case checks the exception's type and that its message
// names the offending object and value.

#include "../support/snn_test_support.hpp"

#include <cmath>
#include <limits>

namespace volley::snn {
namespace {

using testing::throws_naming;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

lif_exp cell() { return lif_exp{}; }

/// A network with a 10-neuron "exc" and a 4-neuron "inh" lif_exp population.
struct two_pops {
    network net;
    population_index exc = net.add_population("exc", 10, cell());
    population_index inh = net.add_population("inh", 4, cell());
};

TEST(network_errors, unknown_model_name_is_unsupported_model) {
    EXPECT_TRUE(throws_naming<unsupported_model>([] { model_from_name("lif_quadratic"); }, {"lif_quadratic"}));
    try {
        model_from_name("lif_quadratic");
    } catch (const unsupported_model& e) {
        EXPECT_EQ(e.model(), "lif_quadratic");
    }
}

TEST(network_errors, negative_tau_m) {
    network net;
    auto m = cell();
    m.p.tau_m_ms = -5;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("exc", 10, m); }, {"exc", "tau_m_ms", "-5"}));
    EXPECT_TRUE(net.populations().empty());
}

TEST(network_errors, zero_synaptic_tau) {
    network net;
    auto m = cell();
    m.p.tau_syn_i_ms = 0;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("exc", 10, m); }, {"exc", "tau_syn_i_ms", "0"}));
}

TEST(network_errors, a_refractory_period_of_2_to_the_31_steps_is_refused_when_the_simulation_is_built) {
    // 1e9 ms is 1e10 steps of 0.1 ms: the step counter would wrap (it ended in std::bad_alloc).
    network net;
    auto m = cell();
    m.p.t_ref_ms = 1e9;
    net.add_population("exc", 10, m);
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1}); },
                                                 {"exc", "t_ref_ms", "1000000000", "2^31 steps"}));
    lif_cond_exp c;
    c.p.t_ref_ms = 1e9;
    network cond;
    cond.add_population("cond", 3, c);
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(cond, context{.threads = 1}, {.dt_ms = 0.1}); },
                                                 {"cond", "t_ref_ms", "1000000000", "2^31 steps"}));
}

TEST(network_errors, nan_weight) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, all_to_all{}, {.weight = nan}); },
                                                 {"projection 0", "exc", "inh", "weight", "nan"}));
    EXPECT_TRUE(n.net.projections().empty());
}

TEST(network_errors, infinite_weight) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, all_to_all{}, {.weight = -inf}); },
                                                 {"projection 0", "exc", "inh", "weight", "-inf"}));
}

TEST(network_errors, infinite_element_of_a_weight_list) {
    two_pops n;
    std::vector<double> w(40, 1.0);
    w[17] = inf;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, all_to_all{}, {.weight = w}); },
                                                 {"projection 0", "weight[17]", "inf"}));
}

TEST(network_errors, nan_delay) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, all_to_all{}, {.delay_ms = nan}); },
                                                 {"projection 0", "delay_ms", "nan"}));
}

// A zero delay onto the source itself is a same-step cycle: refused when the simulation is built.
TEST(network_errors, zero_delay_self_loop) {
    two_pops n;
    n.net.connect(n.exc, n.exc, all_to_all{}, {.delay_ms = 0.0});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(n.net, context{.threads = 1}, {.dt_ms = 0.1}); },
                                                 {"projection 0", "exc", "delay_ms", "0", "cycle"}));
}

TEST(network_errors, delay_below_dt_is_rejected_when_the_simulation_is_built) {
    two_pops n;
    n.net.connect(n.exc, n.inh, all_to_all{}, {.delay_ms = 0.04});  // fine in the network
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(n.net, context{.threads = 2}, {.dt_ms = 0.1}); },
                                                 {"projection 0", "exc", "inh", "delay_ms", "0.04"}));
}

TEST(network_errors, population_of_size_zero) {
    network net;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("empty", 0, cell()); }, {"empty", "size", "0"}));
}

TEST(network_errors, duplicate_population_name) {
    network net;
    net.add_population("exc", 3, cell());
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("exc", 5, lif_delta{}); }, {"exc", "name"}));
    EXPECT_EQ(net.populations().size(), 1u);
}

TEST(network_errors, projection_to_a_missing_population_index) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, population_index{7}, all_to_all{}); },
                                                 {"connect (target)", "population index", "7"}));
}

TEST(network_errors, unknown_population_name_in_find) {
    two_pops n;
    EXPECT_TRUE(throws_naming<unknown_name>([&] { n.net.find("thalamus"); }, {"thalamus", "population"}));
}

TEST(network_errors, fixed_in_degree_larger_than_the_source) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.inh, n.exc, fixed_in_degree{.k = 5}); },
                                                 {"projection 0", "inh", "k", "5"}));
    // Without autapses inside one population only size - 1 sources are eligible.
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.connect(n.inh, n.inh, fixed_in_degree{.k = 4, .allow_autapses = false}); }, {"inh", "k", "4"}));
}

TEST(network_errors, connection_probability_above_one) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, fixed_probability{.p = 1.5}); },
                                                 {"projection 0", "exc", "inh", "p", "1.5"}));
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, fixed_probability{.p = -0.25}); },
                                                 {"p", "-0.25"}));
}

TEST(network_errors, one_to_one_size_mismatch) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, one_to_one{}); },
                                                 {"projection 0", "one_to_one", "10", "4"}));
}

TEST(network_errors, from_list_index_out_of_range) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, from_list{{0, 12}, {0, 1}}); },
                                                 {"projection 0", "sources[1]", "12", "exc"}));
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, from_list{{0, 1}, {4, 1}}); },
                                                 {"targets[0]", "4", "inh"}));
}

TEST(network_errors, from_list_of_unequal_lengths) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { n.net.connect(n.exc, n.inh, from_list{{0, 1, 2}, {0, 1}}); },
                                                 {"projection 0", "targets", "2", "3"}));
}

TEST(network_errors, weight_list_of_the_wrong_length) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.connect(n.exc, n.inh, all_to_all{}, {.weight = std::vector<double>(39, 1.0)}); },
        {"projection 0", "weight", "39", "40"}));
}

TEST(network_errors, list_valued_weight_with_fixed_probability) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.connect(n.exc, n.inh, fixed_probability{.p = 0.5}, {.weight = std::vector<double>(40, 1.0)}); },
        {"projection 0", "weight", "fixed_probability"}));
}

TEST(network_errors, reset_not_below_threshold) {
    network net;
    auto m = cell();
    m.p.v_reset_mv = -50;
    m.p.v_thresh_mv = -50;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("exc", 2, m); }, {"exc", "v_reset_mv", "-50"}));
}

// Per-neuron overrides can break v_reset < v_thresh only for some neurons: caught at build.
TEST(network_errors, per_neuron_reset_above_threshold_is_caught_when_built) {
    network net;
    const auto p = net.add_population("exc", 3, cell());
    net.set_parameter(p, "v_reset_mv", std::vector<double>{-60, -45, -60});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(net, context{.threads = 1}, {}); },
                                                 {"exc", "neuron 1", "v_reset_mv", "-45"}));
}

TEST(network_errors, unknown_parameter_name_in_set_parameter) {
    two_pops n;
    EXPECT_TRUE(throws_naming<unknown_name>([&] { n.net.set_parameter(n.exc, "tau_x_ms", 3.0); }, {"tau_x_ms", "exc", "known: ", "tau_m_ms"}));
    neuron_model m = lif_delta{};
    EXPECT_TRUE(throws_naming<unknown_name>([&] { set_parameter(m, "tau_syn_e_ms", 3.0); }, {"tau_syn_e_ms", "lif_delta", "known: ", "tau_m_ms"}));
}

TEST(network_errors, parameter_list_of_the_wrong_length) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.set_parameter(n.inh, "tau_m_ms", std::vector<double>{10, 20}); }, {"inh", "tau_m_ms", "2", "4"}));
}

TEST(network_errors, negative_parameter_distribution_bound) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.set_parameter(n.inh, "t_ref_ms", uniform{-1, 2}); }, {"inh", "t_ref_ms", "-1"}));
}

TEST(network_errors, unknown_state_variable_in_initialise) {
    two_pops n;
    EXPECT_TRUE(throws_naming<unknown_name>([&] { n.net.initialise(n.exc, "w_mv", -60.0); }, {"w_mv", "exc"}));
}

TEST(network_errors, unknown_state_variable_in_record_state) {
    two_pops n;
    simulation sim(n.net, context{.threads = 1}, {});
    EXPECT_TRUE(throws_naming<unknown_name>([&] { sim.record_state(n.inh, "g_ampa", 0.1); }, {"g_ampa", "inh"}));
    network d;
    const auto dp = d.add_population("delta", 2, lif_delta{});
    simulation sd(d, context{.threads = 1}, {});
    // A delta-synapse neuron has no synaptic current state.
    EXPECT_TRUE(throws_naming<unknown_name>([&] { sd.record_state(dp, "i_syn_e_mv", 0.1); }, {"i_syn_e_mv", "delta"}));
}

TEST(network_errors, record_state_of_a_spike_source) {
    network net;
    const auto src = net.add_population("noise", 2, poisson_source{});
    simulation sim(net, context{.threads = 1}, {});
    EXPECT_TRUE(throws_naming<unknown_name>([&] { sim.record_state(src, "v_mv", 0.1); }, {"v_mv", "noise"}));
}

TEST(network_errors, recorder_subset_out_of_range) {
    two_pops n;
    simulation sim(n.net, context{.threads = 1}, {});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { sim.record_spikes(n.inh, {0, 4}); }, {"inh", "neuron", "4"}));
}

TEST(network_errors, spike_times_out_of_order) {
    network net;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { net.add_population("input", 2, spike_source{{{1.0}, {0.5, 0.25}}}); },
        {"input", "spike_times_ms[1]", "0.25", "0.5", "ascending"}));
}

TEST(network_errors, spike_time_not_positive) {
    network net;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("input", 1, spike_source{{{0.0}}}); },
                                                 {"input", "spike_times_ms[0]", "0"}));
}

TEST(network_errors, spike_source_with_wrong_number_of_trains) {
    network net;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("input", 3, spike_source{{{1.0}, {2.0}}}); },
                                                 {"input", "spike_times_ms", "2", "3"}));
}

TEST(network_errors, dc_current_stopping_before_it_starts) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.inject(n.exc, dc_current{.amplitude_mv = 5, .start_ms = 10, .stop_ms = 4}); },
        {"current stimulus 0", "exc", "stop_ms", "4"}));
}

TEST(network_errors, step_current_times_not_increasing) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.inject(n.exc, step_current{.times_ms = {1, 3, 2}, .amplitudes_mv = {1, 2, 3}}); },
        {"current stimulus 0", "exc", "times_ms[2]", "2"}));
}

TEST(network_errors, current_into_a_poisson_source) {
    network net;
    const auto src = net.add_population("noise", 5, poisson_source{});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.inject(src, dc_current{.amplitude_mv = 1}); }, {"noise"}));
}

TEST(network_errors, projection_into_a_spike_source) {
    network net;
    const auto a = net.add_population("exc", 5, cell());
    const auto src = net.add_population("noise", 5, poisson_source{});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.connect(a, src, one_to_one{}); }, {"noise", "poisson_source"}));
}

TEST(network_errors, poisson_stop_before_start) {
    network net;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { net.add_population("noise", 5, poisson_source{{.rate_hz = 5, .start_ms = 100, .stop_ms = 50}}); },
        {"noise", "stop_ms", "50"}));
}

TEST(network_errors, negative_poisson_rate) {
    network net;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { net.add_population("noise", 5, poisson_source{{.rate_hz = -3}}); }, {"noise", "rate_hz", "-3"}));
}

TEST(network_errors, negative_dt) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(n.net, context{.threads = 1}, {.dt_ms = -0.1}); },
                                                 {"simulation", "dt_ms", "-0.1"}));
}

TEST(network_errors, negative_thread_count) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { simulation sim(n.net, context{.threads = -3}, {}); },
                                                 {"context", "threads", "-3"}));
}

TEST(network_errors, negative_run_duration) {
    two_pops n;
    simulation sim(n.net, context{.threads = 1}, {});
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { sim.run(-5); }, {"duration_ms", "-5"}));
}

TEST(network_errors, inverted_uniform_bounds) {
    two_pops n;
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { n.net.connect(n.exc, n.inh, all_to_all{}, {.weight = uniform{2.0, 1.0}}); },
        {"projection 0", "weight", "uniform(2, 1)"}));
}

TEST(network_errors, normal_delay_drawing_below_dt_is_rejected_at_build) {
    two_pops n;
    n.net.connect(n.exc, n.inh, all_to_all{}, {.delay_ms = normal{0.1, 5.0}});
    EXPECT_THROW(simulation sim(n.net, context{.threads = 1}, {.dt_ms = 0.1}), invalid_parameter);
}

// The typed fields carry the same facts as the message.
TEST(network_errors, invalid_parameter_fields_name_object_parameter_and_value) {
    two_pops n;
    try {
        n.net.connect(n.exc, n.inh, fixed_probability{.p = 2.0});
        FAIL() << "nothing thrown";
    } catch (const invalid_parameter& e) {
        EXPECT_EQ(e.object(), "projection 0 ('exc' -> 'inh')");
        EXPECT_EQ(e.parameter(), "p");
        EXPECT_EQ(e.value(), "2");
    }
}

}  // namespace
}  // namespace volley::snn
