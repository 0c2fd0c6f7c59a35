// The input paths of the ODE models' kernels (backends/cpu/ode/): the stimulus current, which a
// population without a current source does not read; the fired marks of the fixed-step pass
// and their scan; and the direct delivery (cpu_engine_direct.cpp), which adds a one-step,
// constant-weight projection's events straight into the conductances after the update instead
// of through the ring buffer. The direct path is checked against the ring's, an independent
// route through the engine (per-synapse weights of the same value never go direct): the same
// spikes, and v within rounding, for every model and scheme that takes it.

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <set>
#include <vector>

#include "../support/snn_test_support.hpp"
#include "lowering/direct_inputs.hpp"

namespace volley::snn {
namespace {

/// COBA (coba_network) of n neurons, both populations on `euler`.
network euler_coba(std::uint32_t n) {
    auto net = coba_network(n, 0.1);
    for (const char* name : {"exc", "inh"}) {
        ode_integrator in = *model_integrator(net.at(net.find(name)).model);
        in.scheme = ode_scheme::euler;
        net.set_integrator(net.find(name), in);
    }
    return net;
}

/// The bits of every sample of neurons [0, n) of a state recorder.
template <class Recorder>
std::vector<std::uint64_t> sample_bits(const Recorder& v, std::size_t n) {
    std::vector<std::uint64_t> bits;
    for (std::size_t k = 0; k < v.samples(); ++k)
        for (std::size_t i = 0; i < n; ++i) bits.push_back(std::bit_cast<std::uint64_t>(v.at(k, i)));
    return bits;
}

TEST(ode_input, a_zero_current_source_gives_the_bits_of_none) {
    // A population without a current source passes a stimulus of 0 to the pass instead of
    // reading its column (fixed_step_kernel.hpp): the same sums, so the same bits, as a source
    // whose amplitude is 0.
    const auto run = [](bool with_source) {
        auto net = euler_coba(500);
        if (with_source) net.inject(net.find("exc"), dc_current{.amplitude_mv = 0.0});
        simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 5});
        auto exc = sim.record_spikes(net.find("exc"));
        auto v = sim.record_state(net.find("exc"), "v_mv", 0.1);
        sim.run(100);
        return std::pair{testing::raster({&exc}), sample_bits(v, 400)};
    };
    const auto none = run(false), zero = run(true);
    EXPECT_GT(none.first.size(), 50u);
    EXPECT_EQ(zero.first, none.first);
    EXPECT_TRUE(zero.second == none.second);
}

TEST(ode_input, the_fired_marks_are_listed_at_the_scans_block_edges_on_every_instruction_set) {
    // The scan reads 64 fired marks at a time (one vector operation per 16 or 8), then the rest one by
    // one: the neurons driven past threshold, at the edges of those blocks and in the remainder
    // of 200, are exactly the ones listed, at each step they fire, on every instruction set.
    const std::vector<std::uint32_t> driven = {0, 7, 8, 15, 16, 63, 64, 65, 127, 128, 191, 192, 199};
    std::vector<testing::raster_event> reference;
    for (const instruction_set isa : {instruction_set::baseline, instruction_set::avx2, instruction_set::best}) {
        lif_cond_exp m;
        m.integrator.scheme = ode_scheme::euler;
        network net;
        const auto pop = net.add_population("p", 200, m);
        net.inject(pop, dc_current{.amplitude_mv = 1000.0}, driven);  // 1 nA: fires every few ms
        simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 1, .max_isa = isa});
        auto spikes = sim.record_spikes(pop);
        sim.run(50);
        const auto raster = testing::raster({&spikes});
        std::set<std::uint32_t> senders;
        for (const auto& e : raster) senders.insert(e.neuron);
        EXPECT_EQ(senders, std::set<std::uint32_t>(driven.begin(), driven.end())) << to_string(isa);
        EXPECT_EQ(raster.size() % driven.size(), 0u) << to_string(isa);  // identical neurons fire together
        if (reference.empty()) reference = raster;
        EXPECT_EQ(raster, reference) << to_string(isa);
    }
}

/// 37 neurons of model `m` driven by 40 Poisson sources at 800 Hz through all-to-all
/// projections of one step's delay (about three events a neuron and step), excitatory from
/// 30 of them and inhibitory from 10; `direct`: the weights as one value (the lowering lets
/// them go direct), else as one value per synapse (the ring). `ring_too`: 10 more sources
/// with a two-step delay, which always take the ring. `per_neuron`: tau_syn_e_ms differs from
/// neuron to neuron (0.2 to 2 ms), so the direct path computes each event's jump per neuron.
/// Returns the raster and v at every step.
struct driven_run {
    std::vector<testing::raster_event> raster;
    std::vector<double> v;
};
driven_run drive(neuron_model m, bool direct, bool ring_too, bool per_neuron = false) {
    network net;
    const auto pop = net.add_population("p", 37, m);
    if (per_neuron) {
        std::vector<double> tau(37);
        for (std::size_t i = 0; i < tau.size(); ++i) tau[i] = 0.2 + 0.05 * static_cast<double>(i);
        net.set_parameter(pop, "tau_syn_e_ms", tau);
    }
    net.initialise(pop, "v_mv", normal{-60, 4});
    const auto exc = net.add_population("exc", 30, poisson_source{{.rate_hz = 800}});
    const auto inh = net.add_population("inh", 10, poisson_source{{.rate_hz = 800}});
    const bool hh_model = std::holds_alternative<hh>(m), adex_model = std::holds_alternative<adex>(m);
    const double w_e = hh_model ? 6.0 : adex_model ? 16.0 : 4.0, w_i = hh_model ? 20.0 : 2.0;
    const auto weight = [&](double w, std::size_t n) -> value_spec {
        if (direct) return w;
        return std::vector<double>(n * 37, w);
    };
    net.connect(exc, pop, all_to_all{}, {.weight = weight(w_e, 30), .delay_ms = 0.1, .receptor = excitatory});
    net.connect(inh, pop, all_to_all{}, {.weight = weight(w_i, 10), .delay_ms = 0.1, .receptor = inhibitory});
    if (ring_too) {
        const auto late = net.add_population("late", 10, poisson_source{{.rate_hz = 800}});
        net.connect(late, pop, all_to_all{}, {.weight = 2.0, .delay_ms = 0.2, .receptor = excitatory});
    }
    const auto pairs = detail::direct_pairs(net, 0.1);
    const std::size_t P = net.populations().size();
    EXPECT_EQ(pairs[std::size_t{exc.value} * P + pop.value], direct ? 1 : 0);
    EXPECT_EQ(pairs[std::size_t{inh.value} * P + pop.value], direct ? 1 : 0);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 7});
    auto v = sim.record_state(pop, "v_mv", 0.1);
    auto spikes = sim.record_spikes(pop);
    sim.run(100);
    driven_run out{testing::raster({&spikes}), {}};
    for (std::size_t k = 0; k < v.samples(); ++k)
        for (std::size_t i = 0; i < 37; ++i) out.v.push_back(v.at(k, i));
    return out;
}

TEST(ode_input, direct_input_gives_the_rings_spikes_for_every_model_and_scheme) {
    // The ring adds each step's events as one fixed-point sum, the direct path one event at a
    // time: the conductances differ by rounding only, so v agrees to far below a spike's
    // sensitivity and the rasters are the same.
    for (const char* name : {"lif_cond_exp", "lif_cond_alpha", "adex", "hh"}) {
        for (const auto scheme : model_schemes(model_from_name(name))) {
            if (scheme == ode_scheme::half_step_euler) continue;
            if (std::string(name) == "hh" && scheme != ode_scheme::exponential_euler && scheme != ode_scheme::adaptive)
                continue;  // diverge on the sodium upswing at 0.1 ms (docs/integrators.md)
            for (const bool ring_too : {false, true}) {
                auto m = model_from_name(name);
                model_integrator(m)->scheme = scheme;
                const auto ring = drive(m, false, ring_too), direct = drive(m, true, ring_too);
                const std::string what = std::string(name) + " " + scheme_name(scheme) + (ring_too ? " + ring" : "");
                EXPECT_GT(ring.raster.size(), 20u) << what;
                EXPECT_EQ(direct.raster, ring.raster) << what;
                ASSERT_EQ(direct.v.size(), ring.v.size()) << what;
                double worst = 0;
                for (std::size_t k = 0; k < ring.v.size(); ++k) worst = std::max(worst, std::abs(direct.v[k] - ring.v[k]));
                EXPECT_LT(worst, 1e-9) << what;
            }
        }
    }
}

TEST(ode_input, direct_input_with_per_neuron_parameters_gives_the_rings_spikes) {
    // lif_cond_alpha's jump, w e / tau, differs from neuron to neuron here.
    for (const auto scheme : {ode_scheme::rk4, ode_scheme::euler, ode_scheme::adaptive}) {
        lif_cond_alpha m;
        m.integrator.scheme = scheme;
        const auto ring = drive(m, false, false, true), direct = drive(m, true, false, true);
        EXPECT_GT(ring.raster.size(), 20u) << scheme_name(scheme);
        EXPECT_EQ(direct.raster, ring.raster) << scheme_name(scheme);
        ASSERT_EQ(direct.v.size(), ring.v.size());
        double worst = 0;
        for (std::size_t k = 0; k < ring.v.size(); ++k) worst = std::max(worst, std::abs(direct.v[k] - ring.v[k]));
        EXPECT_LT(worst, 1e-9) << scheme_name(scheme);
    }
}

TEST(ode_input, direct_input_is_the_same_for_1_2_and_3_threads) {
    // Each event adds the same value, so the order in which the threads' spike lists arrive
    // cannot change a sum: bit-identical v.
    const auto run = [](int threads) {
        auto net = euler_coba(400);
        simulation sim(net, context{.threads = threads}, {.dt_ms = 0.1, .seed = 9});
        auto v = sim.record_state(net.find("exc"), "v_mv", 0.1);
        sim.run(50);
        return sample_bits(v, 320);
    };
    const auto one = run(1);
    EXPECT_TRUE(run(2) == one);
    EXPECT_TRUE(run(3) == one);
}

}  // namespace
}  // namespace volley::snn
