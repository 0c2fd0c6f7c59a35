// The ODE models' interface: parameter tables with units and bounds, typed errors that name
// the bad parameter, presets, JSON round trips, state recording, the hh spike, and bit-identical
// rasters for 1, 2 and 3 threads (conductance inputs, and izhikevich's delta inputs that fire
// at the step's end).

#include "../support/snn_test_support.hpp"
#include "../validation/ode_reference.hpp"

#include <cmath>

namespace volley::snn {
namespace {

using testing::throws_naming;

TEST(ode_model_interface, models_declare_parameters_with_units_state_and_backends) {
    for (const char* name : {"lif_cond_exp", "lif_cond_alpha", "izhikevich", "adex", "hh"}) {
        const auto m = model_from_name(name);
        EXPECT_TRUE(is_ode_model(m)) << name;
        EXPECT_EQ(model_name(m), name);
        EXPECT_FALSE(model_parameters(m).empty()) << name;
        for (const auto& info : model_parameters(m))
            EXPECT_NE(std::string(info.unit), "") << name << " " << info.name;
        ASSERT_FALSE(model_state_variables(m).empty());
        EXPECT_EQ(std::string(model_state_variables(m)[0]), "v_mv") << name;
        ASSERT_EQ(model_backends(m).size(), 1u);
        EXPECT_EQ(std::string(model_backends(m)[0]), "cpu");
    }
    EXPECT_FALSE(is_ode_model(lif_exp{}));
    const auto cap = model_parameters(lif_cond_exp{});
    EXPECT_EQ(std::string(cap[0].name), "c_m_pf");
    EXPECT_EQ(std::string(cap[0].unit), "pF");
}

TEST(ode_model_interface, out_of_range_parameters_are_invalid_parameter_naming_it) {
    network net;
    lif_cond_exp c;
    c.p.c_m_pf = -200;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("a", 1, c); },
                                                 {"'a'", "c_m_pf", "-200"}));
    lif_cond_alpha ca;
    ca.p.tau_syn_e_ms = 0;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("b", 1, ca); },
                                                 {"tau_syn_e_ms", "0"}));
    adex ad;
    ad.p.delta_t_mv = 0;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("c", 1, ad); },
                                                 {"delta_t_mv", "0", "> 0"}));
    ad = adex{};
    ad.p.tau_w_ms = -5;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("d", 1, ad); },
                                                 {"tau_w_ms", "-5"}));
    ad = adex{};
    ad.p.v_reset_mv = 10;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("e", 1, ad); },
                                                 {"v_reset_mv", "v_peak_mv"}));
    izhikevich iz;
    iz.p.c_mv = 40;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("f", 1, iz); },
                                                 {"c_mv", "40", "v_peak_mv"}));
    hh h;
    h.p.c_m_pf = 0;
    EXPECT_TRUE(
        throws_naming<invalid_parameter>([&] { net.add_population("g", 1, h); }, {"c_m_pf", "0"}));
    h = hh{};
    h.p.g_na_ns = -1;
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { net.add_population("h", 1, h); },
                                                 {"g_na_ns", "-1"}));
    // Per-neuron values are checked too.
    const auto pop = net.add_population("ok", 3, lif_cond_exp{});
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] {
            net.set_parameter(pop, "tau_syn_i_ms", std::vector<double>{1, -2, 1});
        },
        {"tau_syn_i_ms", "-2"}));
}

TEST(ode_model_interface, negative_conductance_weights_are_rejected_when_built) {
    network net;
    const auto src = net.add_population("src", 2, poisson_source{});
    const auto pop = net.add_population("cells", 2, lif_cond_exp{});
    net.connect(src, pop, one_to_one{}, {.weight = -6.0, .delay_ms = 0.1, .receptor = inhibitory});
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { simulation(net, context{.threads = 1}, {.dt_ms = 0.1}); },
        {"projection 0", "'src' -> 'cells'", "weight", "-6", "conductance"}));
}

TEST(ode_model_interface, json_round_trip_and_bad_values_name_the_parameter) {
    network net;
    net.add_population("iz", 2, izhikevich::preset("CH"));
    net.add_population("ad", 2, adex::preset("bursting"));
    net.add_population("hh", 2, hh{});
    const auto c = net.add_population("cond", 2, lif_cond_alpha{});
    net.initialise(c, "g_e_ns", 3.0);
    const auto text = to_network_json(net, {});
    EXPECT_EQ(parse_network_json(text, "mem.json").net, net);
    const std::string bad = R"({"format": "volley-network", "version": 1, "populations": [
        {"name": "x", "size": 1, "model": "adex", "params": {"delta_t_mv": -1}}]})";
    EXPECT_TRUE(throws_naming<file_format_error>([&] { parse_network_json(bad, "bad.json"); },
                                                 {"bad.json", "delta_t_mv", "-1"}));
    const std::string preset = R"({"format": "volley-network", "version": 1, "populations": [
        {"name": "x", "size": 1, "model": "izhikevich", "preset": "FS", "params": {"i_e": 4}}]})";
    auto expected = izhikevich::preset("FS");
    expected.p.i_e = 4;
    EXPECT_EQ(std::get<izhikevich>(
                  parse_network_json(preset, "p.json").net.at(population_index{0}).model),
              expected);
    const std::string no_preset = R"({"format": "volley-network", "version": 1, "populations": [
        {"name": "x", "size": 1, "model": "hh", "preset": "FS"}]})";
    EXPECT_TRUE(throws_naming<file_format_error>([&] { parse_network_json(no_preset, "q.json"); },
                                                 {"q.json", "/populations/0/preset", "hh"}));
}

TEST(ode_model_interface, hh_fires_like_an_independent_rk4_integration_and_records_its_gates) {
    // With Brian2's COBAHH parameters the Traub-Miles neuron fires on its own (no input), from
    // v = E_L with its gates at steady state; a 200 pA current makes it fire faster.
    network net;
    hh model;
    model.integrator.scheme = ode_scheme::adaptive;  // compared with a fine RK4, spike for spike
    const auto pop = net.add_population("hh", 2, model);
    net.inject(pop, dc_current{.amplitude_mv = 200}, {1});
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1});
    auto spikes = sim.record_spikes(pop);
    auto m = sim.record_state(pop, "m", 1.0);
    sim.run(300);
    const auto by = testing::spike_steps_by_neuron(spikes);
    const hh::params p;
    using state = std::array<double, 4>;
    auto f = [&](const state& x, state& d) {
        const double v = x[0];
        auto exprel = [](double z) { return std::abs(z) < 1e-9 ? 1.0 : std::expm1(z) / z; };
        const double am = 0.32 * 4 / exprel((13 - v + p.v_t_mv) / 4),
                     bm = 0.28 * 5 / exprel((v - p.v_t_mv - 40) / 5);
        const double ah = 0.128 * std::exp((17 - v + p.v_t_mv) / 18),
                     bh = 4 / (1 + std::exp((40 - v + p.v_t_mv) / 5));
        const double an = 0.032 * 5 / exprel((15 - v + p.v_t_mv) / 5),
                     bn = 0.5 * std::exp((10 - v + p.v_t_mv) / 40);
        d[0] = (p.g_l_ns * (p.e_l_mv - v) - p.g_na_ns * std::pow(x[1], 3) * x[3] * (v - p.e_na_mv) -
                p.g_k_ns * std::pow(x[2], 4) * (v - p.e_k_mv)) /
               p.c_m_pf;
        d[1] = am * (1 - x[1]) - bm * x[1];
        d[2] = an * (1 - x[2]) - bn * x[2];
        d[3] = ah * (1 - x[3]) - bh * x[3];
    };
    auto steady = [&](double a, double b) { return a / (a + b); };
    const double v0 = p.e_l_mv;
    const state x0{
        v0,
        steady(0.32 * 4 / (std::expm1((13 - v0 + p.v_t_mv) / 4) / ((13 - v0 + p.v_t_mv) / 4)),
               0.28 * 5 / (std::expm1((v0 - p.v_t_mv - 40) / 5) / ((v0 - p.v_t_mv - 40) / 5))),
        steady(0.032 * 5 / (std::expm1((15 - v0 + p.v_t_mv) / 5) / ((15 - v0 + p.v_t_mv) / 5)),
               0.5 * std::exp((10 - v0 + p.v_t_mv) / 40)),
        steady(0.128 * std::exp((17 - v0 + p.v_t_mv) / 18),
               4 / (1 + std::exp((40 - v0 + p.v_t_mv) / 5)))};
    const auto ref = testing::reference_spike_times<4>(
        x0, f, p.v_spike_mv, [](state&) {}, 300, 0.001);
    ASSERT_GE(ref.size(), 2u);
    ASSERT_EQ(by[0].size(), ref.size());
    for (std::size_t k = 0; k < ref.size(); ++k) {
        const double stamp = static_cast<double>(by[0][k]) * 0.1;
        EXPECT_GT(ref[k], stamp - 0.1 - 1e-6) << k;
        EXPECT_LE(ref[k], stamp + 1e-6) << k;
    }
    EXPECT_GT(by[1].size(), by[0].size() + 2);  // the current speeds it up
    EXPECT_NEAR(m.at(0, 0), x0[1], 1e-12);      // recorded gate at t = 0
    EXPECT_THROW(sim.record_state(pop, "w_pa", 1.0), unknown_name);
}

/// A mixed network: Poisson drive into conductance LIF (exp and alpha), AdEx and izhikevich
/// populations that also drive each other. Its raster on `threads` threads.
std::vector<testing::raster_event> mixed_raster(int threads) {
    network net;
    const auto drive = net.add_population("drive", 200, poisson_source{{.rate_hz = 40}});
    lif_cond_exp ce;
    ce.p.i_e_pa = 150;
    const auto a = net.add_population("cond_exp", 97, ce);
    const auto b = net.add_population("cond_alpha", 61, lif_cond_alpha{ce.p, {}});
    auto ad = adex::preset("tonic");
    ad.p.i_e_pa = 300;
    const auto c = net.add_population("adex", 53, ad);
    const auto d = net.add_population("izh", 71, izhikevich::preset("RS"));
    net.initialise(a, "v_mv", uniform{-70, -56});
    net.initialise(d, "v_mv", uniform{-70, -50});
    for (auto t : {a, b, c}) {
        net.connect(drive, t, fixed_probability{0.1}, {.weight = uniform{1, 3}, .delay_ms = 0.5});
        net.connect(d, t, fixed_probability{0.1},
                    {.weight = 2.0, .delay_ms = 1.0, .receptor = inhibitory});
    }
    net.connect(drive, d, fixed_probability{0.1}, {.weight = uniform{2, 6}, .delay_ms = 0.2});
    net.connect(a, d, fixed_probability{0.2}, {.weight = 8.0, .delay_ms = 0.3});
    simulation sim(net, context{.threads = threads}, {.dt_ms = 0.1, .seed = 7});
    std::vector<spike_recorder> recs;
    for (auto p : {a, b, c, d}) recs.push_back(sim.record_spikes(p));
    sim.run(200);
    return testing::raster({&recs[0], &recs[1], &recs[2], &recs[3]});
}

TEST(ode_model_determinism, rasters_are_identical_for_1_2_and_3_threads) {
    const auto one = mixed_raster(1);
    EXPECT_GT(one.size(), 300u);
    EXPECT_EQ(mixed_raster(2), one);
    EXPECT_EQ(mixed_raster(3), one);
}

// adex_alpha (NEST aeif_cond_alpha): one input spike of w nS gives an alpha conductance that
// peaks at w, tau after the spike; the membrane follows the model's six ODEs integrated by an
// independent RK4 at 1 us from the arrival (1e-6 mV), and both receptors' conductances are alpha.
TEST(ode_model_interface, adex_alpha_answers_an_input_spike_as_its_odes_integrated_by_rk4) {
    network net;
    adex_alpha model;
    const auto src = net.add_population("src", 1, spike_source{{{5.0}}});
    const auto pop = net.add_population("cell", 2, model);
    const double w = 3.0;
    net.connect(src, pop, from_list{{0}, {0}}, {.weight = w, .delay_ms = 1.0});
    net.connect(src, pop, from_list{{0}, {1}}, {.weight = w, .delay_ms = 1.0, .receptor = inhibitory});
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1});
    auto v = sim.record_state(pop, "v_mv", 0.1);
    auto ge = sim.record_state(pop, "g_e_ns", 0.1);
    auto gi = sim.record_state(pop, "g_i_ns", 0.1);
    auto wa = sim.record_state(pop, "w_pa", 0.1);
    sim.run(40);
    const adex::params p = model.p;
    std::size_t k0 = 0;  // the first sample that has the input
    while (k0 < v.samples() && ge.at(k0, 0) == 0) ++k0;
    ASSERT_LT(k0, v.samples());
    using state = std::array<double, 6>;
    auto f = [&](const state& x, state& d) {
        const double vv = std::min(x[0], p.v_peak_mv);
        const double i = -p.g_l_ns * (vv - p.e_l_mv) + p.g_l_ns * p.delta_t_mv * std::exp((vv - p.v_t_mv) / p.delta_t_mv) -
                         x[1] - x[2] * (vv - p.e_ex_mv) - x[3] * (vv - p.e_in_mv) + p.i_e_pa;
        d[0] = i / p.c_m_pf;
        d[1] = (p.a_ns * (vv - p.e_l_mv) - x[1]) / p.tau_w_ms;
        d[2] = x[4] - x[2] / p.tau_syn_e_ms;
        d[3] = x[5] - x[3] / p.tau_syn_i_ms;
        d[4] = -x[4] / p.tau_syn_e_ms;
        d[5] = -x[5] / p.tau_syn_i_ms;
    };
    for (int cell : {0, 1}) {
        // The state at the sample before the first with input, then the jump of dg.
        state x{v.at(k0 - 1, cell), wa.at(k0 - 1, cell), 0, 0, 0, 0};
        const double e = 2.718281828459045;
        if (cell == 0) x[4] = w * e / p.tau_syn_e_ms;
        else x[5] = w * e / p.tau_syn_i_ms;
        double peak = 0, t_peak = 0;
        for (std::size_t k = k0; k < v.samples(); ++k) {
            for (int s = 0; s < 100; ++s) x = testing::rk4_step<6>(f, x, 0.001);
            ASSERT_NEAR(v.at(k, cell), x[0], 1e-6) << "cell " << cell << " sample " << k;
            const double g = cell == 0 ? ge.at(k, 0) : gi.at(k, 1);
            ASSERT_NEAR(g, x[cell == 0 ? 2 : 3], 1e-9) << "cell " << cell << " sample " << k;
            if (g > peak) peak = g, t_peak = static_cast<double>(k - k0 + 1) * 0.1;
        }
        const double tau = cell == 0 ? p.tau_syn_e_ms : p.tau_syn_i_ms;
        EXPECT_NEAR(peak, w, 0.02 * w) << "the alpha conductance peaks at the weight";
        EXPECT_NEAR(t_peak, tau, 0.1) << "tau after the spike";
    }
    EXPECT_GT(v.at(k0 + 5, 0), v.at(k0 - 1, 0));  // excitatory
    EXPECT_LT(v.at(k0 + 5, 1), v.at(k0 - 1, 1));  // inhibitory
}

// A parameter changed between runs (simulation::set_parameter): the state is kept and the new
// value holds from then on. A passive lif_cond_exp cell at rest under e_l = -70 mV, whose e_l
// goes to -60 mV after 10 ms, relaxes as -60 + (-70 + 60)·exp(-t·g_l/c_m) (rk4 at 0.01 ms).
TEST(ode_model_interface, a_parameter_changed_between_runs_holds_from_then_on_with_the_state_kept) {
    network net;
    lif_cond_exp model;
    model.p.v_thresh_mv = 0;
    const auto pop = net.add_population("cell", 2, model);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.01});
    auto v = sim.record_state(pop, "v_mv", 0.5);
    sim.run(10);
    sim.set_parameter(pop, "e_l_mv", std::vector<double>{-60.0, -70.0});
    sim.run(20);
    const double tau = model.p.c_m_pf / model.p.g_l_ns;
    ASSERT_EQ(v.samples(), 61u);
    for (std::size_t k = 0; k < v.samples(); ++k) {
        const double t = 0.5 * static_cast<double>(k);
        const double want = t <= 10 ? -70.0 : -60.0 - 10.0 * std::exp(-(t - 10) / tau);
        EXPECT_NEAR(v.at(k, 0), want, 1e-7) << "t = " << t;
        EXPECT_NEAR(v.at(k, 1), -70.0, 1e-12) << "t = " << t;
    }
    EXPECT_TRUE(throws_naming<invalid_parameter>([&] { sim.set_parameter(pop, "c_m_pf", -1.0); }, {"c_m_pf"}));
    EXPECT_TRUE(throws_naming<unknown_name>([&] { sim.set_parameter(pop, "tau_q", 1.0); }, {"tau_q"}));
}

}  // namespace
}  // namespace volley::snn

namespace volley::snn {
namespace {

TEST(ode_model_runtime, reset_replays_the_same_raster_and_state) {
    network net;
    const auto drive = net.add_population("drive", 50, poisson_source{{.rate_hz = 80}});
    const auto cells = net.add_population("cells", 20, adex::preset("adapting"));
    net.connect(drive, cells, fixed_probability{0.2}, {.weight = 3.0, .delay_ms = 0.5});
    simulation sim(net, context{.threads = 2}, {.dt_ms = 0.1, .seed = 3});
    auto spikes = sim.record_spikes(cells);
    auto w = sim.record_state(cells, "w_pa", 5.0);
    sim.run(150);
    const auto first = testing::raster({&spikes});
    const auto first_w = w.data().values;
    EXPECT_GT(first.size(), 20u);
    sim.reset();
    sim.run(150);
    EXPECT_EQ(testing::raster({&spikes}), first);
    EXPECT_EQ(w.data().values, first_w);
}

}  // namespace
}  // namespace volley::snn
