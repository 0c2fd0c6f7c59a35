// The discrete_neuron model and the analog_source, against step rules written out in the test
// (Euler), a fine Runge-Kutta integration (exact), and the run-time API: reset, set_bias,
// set_analog_input, thread-count independence and the errors.

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../support/snn_test_support.hpp"

namespace vs = volley::snn;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double dt = 0.1;  // [ms]

/// An analog source of one neuron feeding one discrete neuron with weight w, delay one step.
struct one_neuron {
    vs::network net;
    vs::population_index src, dn;
    one_neuron(const std::vector<double>& input, vs::discrete_neuron model, double w) {
        std::vector<std::vector<double>> rows;
        for (double x : input) rows.push_back({x});
        src = net.add_population("in", 1, vs::analog_source{rows});
        dn = net.add_population("n", 1, model);
        net.connect(src, dn, vs::one_to_one{}, {.weight = w, .delay_ms = dt});
    }
};

std::vector<double> wave(int steps) {
    std::vector<double> x;
    for (int k = 0; k < steps; ++k) x.push_back(0.6 + 0.5 * std::sin(0.05 * k) + (k % 7 == 0 ? 0.3 : 0.0));
    return x;
}

/// The model's membrane after each step, from a step function `f(v, i_syn, u) -> spiked`.
template <class Step>
std::pair<std::vector<double>, std::vector<std::int64_t>> reference(const std::vector<double>& input, double w, int steps,
                                                                      Step step) {
    double v = 0, i = 0;
    std::vector<double> trace;
    std::vector<std::int64_t> spikes;
    // The value of row k reaches the neuron in the update of step k + 1; a spike found in the
    // update of step s is stamped s + 1.
    for (int s = 0; s < steps; ++s) {
        const double in = s >= 1 && s - 1 < static_cast<int>(input.size()) ? w * input[static_cast<std::size_t>(s - 1)] : 0.0;
        if (step(v, i, in)) spikes.push_back(s + 1);
        trace.push_back(v);
    }
    return {trace, spikes};
}

std::pair<std::vector<double>, std::vector<std::int64_t>> simulate(const one_neuron& m, int steps, int threads = 1) {
    vs::simulation sim(m.net, vs::context{.threads = threads}, {.dt_ms = dt});
    auto rec = sim.record_spikes(m.dn);
    auto v = sim.record_state(m.dn, "v", dt);
    sim.run(steps * dt);
    std::vector<double> trace;
    for (std::size_t k = 1; k < v.samples(); ++k) trace.push_back(v.at(k, 0));
    return {trace, rec.steps()};
}

TEST(DiscreteNeuron, IntegrateAndFireBySubtractionMatchesTheStepRule) {
    const auto x = wave(300);
    vs::discrete_neuron model{.p = {.v_threshold = 1.0}, .reset = vs::discrete_neuron::reset_mode::subtract};
    const one_neuron m(x, model, 0.37);
    const auto [trace, spikes] = simulate(m, 300);
    const auto [ref_trace, ref_spikes] = reference(x, 0.37, 300, [](double& v, double&, double in) {
        v += in;
        if (v > 1.0) {
            v -= 1.0;
            return true;
        }
        return false;
    });
    ASSERT_GT(ref_spikes.size(), 20u);
    EXPECT_EQ(spikes, ref_spikes);
    // The weight is held in fixed point (2^-30 of the largest weight): a non-leaky integrator
    // accumulates that rounding, at most 300 steps x 1.3 x 2^-31 ~ 2e-7.
    for (std::size_t k = 0; k < trace.size(); ++k) ASSERT_NEAR(trace[k], ref_trace[k], 2e-7) << "step " << k;
}

TEST(DiscreteNeuron, LeakyEulerWithResetToVResetMatchesTheStepRule) {
    const auto x = wave(400);
    const double tau = 2.5, r = 3, v_leak = 0.1, th = 1.2, v_reset = -0.2;
    vs::discrete_neuron model{.p = {.tau_mem_ms = tau, .r = r, .v_leak = v_leak, .v_threshold = th, .v_reset = v_reset}};
    one_neuron m(x, model, 1.5);
    m.net.initialise(m.dn, "v", 0.0);
    const auto [trace, spikes] = simulate(m, 400);
    const auto [ref_trace, ref_spikes] = reference(x, 1.5, 400, [&](double& v, double&, double in) {
        v += dt / tau * (v_leak - v + r * in);
        if (v > th) {
            v = v_reset;
            return true;
        }
        return false;
    });
    ASSERT_GT(ref_spikes.size(), 5u);
    EXPECT_EQ(spikes, ref_spikes);
    for (std::size_t k = 0; k < trace.size(); ++k) ASSERT_NEAR(trace[k], ref_trace[k], 1e-8) << "step " << k;
}

TEST(DiscreteNeuron, CurrentBasedEulerUsesTheNewSynapticCurrent) {
    const auto x = wave(400);
    const double ts = 0.5, tm = 2.0, r = 4, w_in = 2;
    vs::discrete_neuron model{.p = {.tau_mem_ms = tm, .tau_syn_ms = ts, .r = r, .v_threshold = 1.5, .w_in = w_in}};
    const one_neuron m(x, model, 0.8);
    const auto [trace, spikes] = simulate(m, 400);
    const auto [ref_trace, ref_spikes] = reference(x, 0.8, 400, [&](double& v, double& i, double in) {
        i += dt / ts * (-i + w_in * in);
        v += dt / tm * (-v + r * i);
        if (v > 1.5) {
            v = 0;
            return true;
        }
        return false;
    });
    ASSERT_GT(ref_spikes.size(), 5u);
    EXPECT_EQ(spikes, ref_spikes);
    for (std::size_t k = 0; k < trace.size(); ++k) ASSERT_NEAR(trace[k], ref_trace[k], 1e-8) << "step " << k;
}

/// Integrates tau_syn di/dt = -i + w_in u, tau_mem dv/dt = v_leak - v + r i over one step with
/// u constant, by RK4 on 200 sub-steps: an independent solution of the "exact" mode's ODE.
void rk4_step(double& v, double& i, double u, double ts, double tm, double r, double v_leak, double w_in) {
    const int n = 200;
    const double h = dt / n;
    auto f = [&](double vv, double ii) {
        return std::pair{(v_leak - vv + r * ii) / tm, ts > 0 ? (-ii + w_in * u) / ts : 0.0};
    };
    for (int k = 0; k < n; ++k) {
        if (ts == 0) i = w_in * u;
        const auto [a1, b1] = f(v, i);
        const auto [a2, b2] = f(v + h / 2 * a1, i + h / 2 * b1);
        const auto [a3, b3] = f(v + h / 2 * a2, i + h / 2 * b2);
        const auto [a4, b4] = f(v + h * a3, i + h * b3);
        v += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
        i += h / 6 * (b1 + 2 * b2 + 2 * b3 + b4);
    }
}

TEST(DiscreteNeuron, ExactModeSolvesTheOdeWithPiecewiseConstantInput) {
    const auto x = wave(300);
    for (const double ts : {0.0, 0.4, 2.0}) {
        const double tm = 2.0, r = 1.7, v_leak = 0.05;
        vs::discrete_neuron model{.p = {.tau_mem_ms = tm, .tau_syn_ms = ts, .r = r, .v_leak = v_leak, .v_threshold = 0.9},
                                  .method = vs::discrete_neuron::integration::exact};
        one_neuron m(x, model, 0.9);
        m.net.initialise(m.dn, "v", 0.0);
        const auto [trace, spikes] = simulate(m, 300);
        const auto [ref_trace, ref_spikes] = reference(x, 0.9, 300, [&](double& v, double& i, double in) {
            rk4_step(v, i, in, ts, tm, r, v_leak, 1.0);
            if (v > 0.9) {
                v = 0;
                return true;
            }
            return false;
        });
        ASSERT_GT(ref_spikes.size(), 3u) << "tau_syn " << ts;
        EXPECT_EQ(spikes, ref_spikes) << "tau_syn " << ts;
        for (std::size_t k = 0; k < trace.size(); ++k) ASSERT_NEAR(trace[k], ref_trace[k], 1e-9) << "step " << k;
    }
}

TEST(DiscreteNeuron, NeuronWithoutThresholdNeverFiresAndIntegrates) {
    const std::vector<double> x(50, 0.5);
    const one_neuron m(x, vs::discrete_neuron{.p = {.v_threshold = inf}}, 2.0);
    const auto [trace, spikes] = simulate(m, 60);
    EXPECT_TRUE(spikes.empty());
    EXPECT_NEAR(trace.back(), 50 * 1.0, 1e-9);
}

TEST(DiscreteNeuron, BiasResetAndNewInputTables) {
    vs::network net;
    const auto dn = net.add_population("if", 3, vs::discrete_neuron{.p = {}, .reset = vs::discrete_neuron::reset_mode::subtract});
    net.initialise(dn, "v", std::vector<double>{0.5, 0.0, 0.0});
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(dn);
    const std::vector<double> bias{0.3, 0.25, 0.0};
    sim.set_input(dn, volley::snn::constant_input{bias});
    sim.run(20 * dt);
    // v0 + k·b > 1 first at k = 2 (0.5 + 0.6) for neuron 0, k = 5 (1.25) for neuron 1.
    const auto by = vs::testing::spike_steps_by_neuron(rec);
    ASSERT_FALSE(by[0].empty());
    EXPECT_EQ(by[0][0], 2);
    EXPECT_EQ(by[1][0], 5);
    EXPECT_TRUE(by[2].empty());
    const auto first = rec.steps();
    const auto first_ids = rec.node_ids();
    sim.reset();
    EXPECT_EQ(sim.current_step().value, 0);
    EXPECT_EQ(rec.size(), 0u);
    sim.run(20 * dt);
    EXPECT_EQ(rec.steps(), first);  // the bias survives reset, the state goes back to v0
    EXPECT_EQ(rec.node_ids(), first_ids);
}

TEST(DiscreteNeuron, SetAnalogInputAfterResetReplacesTheTable) {
    const one_neuron m(std::vector<double>(10, 1.0), vs::discrete_neuron{.p = {.v_threshold = 2.5}}, 1.0);
    vs::simulation sim(m.net, vs::context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(m.dn);
    sim.run(5 * dt);
    EXPECT_EQ(rec.steps(), (std::vector<std::int64_t>{4}));  // 1 + 1 + 1 > 2.5 in update 3
    sim.reset();
    sim.set_input(m.src, volley::snn::step_table_input{{{3.0}, {0.0}, {3.0}}});
    sim.run(5 * dt);
    EXPECT_EQ(rec.steps(), (std::vector<std::int64_t>{2, 4}));
}

TEST(DiscreteNeuron, SpikesAreIdenticalForOneTwoAndThreeThreads) {
    vs::network net;
    std::vector<std::vector<double>> rows(200, std::vector<double>(20));
    for (std::size_t s = 0; s < rows.size(); ++s)
        for (std::size_t i = 0; i < 20; ++i) rows[s][i] = 0.5 + 0.5 * std::sin(0.37 * static_cast<double>(s * 20 + i));
    const auto in = net.add_population("in", 20, vs::analog_source{rows});
    const auto a = net.add_population("a", 50, vs::discrete_neuron{.p = {.tau_mem_ms = 1.0, .tau_syn_ms = 0.3, .r = 10, .v_threshold = 0.5}});
    const auto b = net.add_population("b", 30, vs::discrete_neuron{.p = {}, .reset = vs::discrete_neuron::reset_mode::subtract,
                                                                 .method = vs::discrete_neuron::integration::exact});
    std::vector<double> w(20 * 50);
    for (std::size_t k = 0; k < w.size(); ++k) w[k] = 0.05 + 0.1 * std::cos(1.3 * static_cast<double>(k));
    net.connect(in, a, vs::all_to_all{}, {.weight = w, .delay_ms = dt});
    net.connect(a, b, vs::fixed_probability{0.3}, {.weight = vs::normal{0.3, 0.2}, .delay_ms = vs::uniform{0.1, 0.5}});
    net.connect(b, a, vs::fixed_probability{0.2}, {.weight = -0.2, .delay_ms = dt, .receptor = vs::inhibitory});
    std::vector<std::vector<vs::testing::raster_event>> rasters;
    for (int threads : {1, 2, 3}) {
        vs::simulation sim(net, vs::context{.threads = threads}, {.dt_ms = dt, .seed = 7});
        auto ra = sim.record_spikes(a);
        auto rb = sim.record_spikes(b);
        sim.run(250 * dt);
        rasters.push_back(vs::testing::raster({&ra, &rb}));
    }
    ASSERT_GT(rasters[0].size(), 100u);
    EXPECT_EQ(rasters[0], rasters[1]);
    EXPECT_EQ(rasters[0], rasters[2]);
}

/// v of every neuron of two plain IF populations of 45 (five vectors and a remainder) at every
/// step, and their spike count: "unit" (r = w_in = 1, one threshold) with excitatory and
/// inhibitory input, "scaled" (r per neuron, reset to v_reset) with excitatory input only, so
/// that the IF step runs each of its input forms; the CPU kernels capped at `isa`.
std::vector<double> plain_if_trace(vs::instruction_set isa) {
    vs::network net;
    const auto exc = net.add_population("exc", 30, vs::poisson_source{{.rate_hz = 300}});
    const auto inh = net.add_population("inh", 10, vs::poisson_source{{.rate_hz = 300}});
    const auto unit = net.add_population("unit", 45, vs::discrete_neuron{.p = {.v_threshold = 1.0}, .reset = vs::discrete_neuron::reset_mode::subtract});
    const auto scaled = net.add_population("scaled", 45, vs::discrete_neuron{.p = {.v_threshold = 0.8, .v_reset = -0.1}});
    std::vector<double> r(45);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = 0.5 + 0.025 * static_cast<double>(i);
    net.set_parameter(scaled, "r", r);
    for (const auto pop : {unit, scaled}) {
        net.initialise(pop, "v", vs::uniform{-0.3, 0.7});
        net.connect(exc, pop, vs::fixed_probability{0.5}, {.weight = vs::normal{0.2, 0.05}, .delay_ms = dt});
    }
    net.connect(inh, unit, vs::fixed_probability{0.5}, {.weight = -0.3, .delay_ms = dt, .receptor = vs::inhibitory});
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = dt, .seed = 5, .max_isa = isa});
    std::vector<double> out;
    auto spikes_u = sim.record_spikes(unit);
    auto spikes_s = sim.record_spikes(scaled);
    auto v_u = sim.record_state(unit, "v", dt);
    auto v_s = sim.record_state(scaled, "v", dt);
    sim.run(400 * dt);
    for (const auto* v : {&v_u, &v_s})
        for (std::size_t k = 0; k < v->samples(); ++k)
            for (std::size_t i = 0; i < 45; ++i) out.push_back(v->at(k, i));
    out.push_back(static_cast<double>(spikes_u.size()));
    out.push_back(static_cast<double>(spikes_s.size()));
    return out;
}

TEST(DiscreteNeuron, PlainIntegrateAndFireGivesTheSameBitsOnEveryInstructionSet) {
    // The IF step is compiled for the baseline, AVX2 (ring cells converted in two 32-bit
    // halves) and AVX-512 (hand-written where r = w_in = 1); a cap above the CPU's level runs
    // the CPU's, which must agree as well.
    const auto base = plain_if_trace(vs::instruction_set::baseline);
    ASSERT_GT(base[base.size() - 2], 400.0);
    ASSERT_GT(base.back(), 400.0);
    for (const auto isa : {vs::instruction_set::avx2, vs::instruction_set::best}) {
        const auto other = plain_if_trace(isa);
        ASSERT_EQ(other.size(), base.size());
        std::size_t differing = 0;
        for (std::size_t k = 0; k < base.size(); ++k)
            differing += std::bit_cast<std::uint64_t>(other[k]) != std::bit_cast<std::uint64_t>(base[k]);
        EXPECT_EQ(differing, 0u) << (isa == vs::instruction_set::avx2 ? "avx2" : "best");
    }
}

TEST(DiscreteNeuron, ErrorsNameTheParameterAndValue) {
    vs::network net;
    try {
        net.add_population("bad", 1, vs::discrete_neuron{.p = {.tau_mem_ms = -2}});
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("tau_mem_ms"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("-2"), std::string::npos) << e.what();
    }
    EXPECT_THROW(net.add_population("bad", 1, vs::discrete_neuron{.p = {.tau_mem_ms = 0}}), volley::invalid_parameter);
    EXPECT_THROW(net.add_population("bad", 1, vs::discrete_neuron{.p = {.tau_syn_ms = -1}}), volley::invalid_parameter);
    EXPECT_THROW(net.add_population("bad", 1, vs::discrete_neuron{.p = {.v_threshold = 0, .v_reset = 0.5}}),
                 volley::invalid_parameter);
    EXPECT_THROW(net.add_population("bad", 2, vs::analog_source{{{1.0}}}), volley::invalid_parameter);
    EXPECT_THROW(net.add_population("bad", 1, vs::analog_source{{{inf}}}), volley::invalid_parameter);
    const auto dn = net.add_population("dn", 2, vs::discrete_neuron{});
    const auto lif = net.add_population("lif", 2, vs::lif_delta{});
    const auto src = net.add_population("src", 2, vs::analog_source{});
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = dt});
    EXPECT_THROW(sim.set_input(lif, volley::snn::constant_input{std::vector<double>{1, 2}}), volley::unsupported_model);
    EXPECT_THROW(sim.set_input(dn, volley::snn::constant_input{std::vector<double>{1}}), volley::invalid_parameter);
    EXPECT_THROW(sim.set_input(dn, volley::snn::constant_input{std::vector<double>{1, std::nan("")}}), volley::invalid_parameter);
    EXPECT_THROW(sim.set_input(dn, volley::snn::step_table_input{{{1, 2}}}), volley::unsupported_model);
    EXPECT_THROW(sim.set_input(src, volley::snn::step_table_input{{{1, 2, 3}}}), volley::invalid_parameter);
    EXPECT_THROW(sim.set_input(src, volley::snn::step_table_input{{{1, 2e7}}}), volley::invalid_parameter);
}

TEST(DiscreteNeuron, JsonRoundTripKeepsModesInfinitiesAndTables) {
    vs::network net;
    const auto in = net.add_population("in", 2, vs::analog_source{{{0.5, -1}, {0, 2}}});
    const auto li = net.add_population("li", 2, vs::discrete_neuron{.p = {.tau_mem_ms = 3, .tau_syn_ms = 1, .v_threshold = inf},
                                                                   .reset = vs::discrete_neuron::reset_mode::subtract,
                                                                   .method = vs::discrete_neuron::integration::exact});
    net.set_parameter(li, "i_bias", std::vector<double>{0.1, 0.2});
    net.initialise(li, "v", 0.25);
    net.connect(in, li, vs::all_to_all{}, {.weight = std::vector<double>{1, 2, 3, 4}, .delay_ms = dt});
    const auto text = vs::to_network_json(net, {});
    const auto back = vs::parse_network_json(text, "mem.json");
    EXPECT_EQ(back.net, net) << text;
    EXPECT_THROW(vs::parse_network_json(R"({"format":"volley-network","version":1,"populations":[
        {"name":"x","size":1,"model":"discrete_neuron","reset":"sideways"}]})", "bad.json"),
                 volley::file_format_error);
}

}  // namespace
