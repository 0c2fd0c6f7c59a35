#pragma once
// Backend scenarios, written once: each builds a network, runs it on a backend and returns its
// raster; test_backend_rasters.cpp instantiates every scenario for every backend built (cpu,
// portable, cuda) and compares with the CPU engine's raster, which must match bit for bit.

#include <volley/snn.hpp>
#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "../support/snn_test_support.hpp"

namespace volley::snn::backend_test {

using testing::raster;
using testing::raster_event;

/// A backend as the tests name it, and the context that selects it.
struct backend_case {
    std::string name;
    context ctx;
};

/// gtest prints a parameter by its name.
inline void PrintTo(const backend_case& b, std::ostream* os) { *os << b.name; }

/// A scenario: its network, how long it runs, and at least how many spikes it must give (so
/// that a silent network cannot pass).
struct scenario {
    std::string name;
    std::function<network()> build;
    double duration_ms = 100;
    std::size_t min_spikes = 100;
    /// Input given through simulation::set_input before the run (tables and biases), if any.
    std::function<void(simulation&)> prepare = {};
};

inline void PrintTo(const scenario& s, std::ostream* os) { *os << s.name; }

/// Runs `net` on `ctx` for `duration_ms` (in two runs, so the state carries across run() calls)
/// and returns every population's raster.
inline std::vector<raster_event> run_raster(const network& net, const context& ctx, double duration_ms,
                                            std::uint64_t seed = 42,
                                            const std::function<void(simulation&)>& prepare = {}) {
    simulation sim(net, ctx, {.dt_ms = 0.1, .seed = seed});
    if (prepare) prepare(sim);
    std::vector<spike_recorder> recs;
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) recs.push_back(sim.record_spikes(population_index{p}));
    sim.run(duration_ms / 2);
    sim.run(duration_ms / 2);
    std::vector<raster_event> all;
    for (const auto& r : recs) {
        const auto part = raster({&r});
        all.insert(all.end(), part.begin(), part.end());
    }
    std::sort(all.begin(), all.end());
    return all;
}

/// CUBA (standard_networks.hpp): lif_exp with one set of parameters (the scaled-current
/// kernel), direct one-step projections.
inline network cuba_scenario() { return cuba_network(2000, 0.1); }

/// Poisson input, weights and delays drawn per synapse (delays of 0.1 to 10 ms, so the event
/// queues and rings hold up to 101 slots), heterogeneous thresholds (the unscaled lif_exp
/// kernel), lif_alpha and lif_delta targets, both receptors, a spike array, a DC current and a
/// step current.
inline network heterogeneous_delay_scenario() {
    network net;
    const auto noise = net.add_population("noise", 300, poisson_source{{.rate_hz = 40, .start_ms = 5, .stop_ms = 150}});
    const lif_exp exc_model{{.tau_m_ms = 20, .tau_syn_e_ms = 5, .tau_syn_i_ms = 10, .v_rest_mv = -65,
                             .v_reset_mv = -65, .v_thresh_mv = -50, .t_ref_ms = 2, .i_e_mv = 0}};
    const auto exc = net.add_population("exc", 801, exc_model);
    const lif_alpha inh_model{{.tau_m_ms = 10, .tau_syn_e_ms = 2, .tau_syn_i_ms = 4, .v_rest_mv = -65,
                               .v_reset_mv = -65, .v_thresh_mv = -52, .t_ref_ms = 1, .i_e_mv = 0}};
    const auto inh = net.add_population("inh", 199, inh_model);
    const auto out = net.add_population("out", 77, lif_delta{});
    std::vector<std::vector<double>> times(20);
    for (std::uint32_t i = 0; i < 20; ++i) times[i] = {1.0 + i, 30.0 + 2 * i, 30.0 + 2 * i, 90.5};
    const auto pulses = net.add_population("pulses", 20, spike_source{times});
    net.set_parameter(exc, "v_thresh_mv", uniform{-52, -48});
    net.initialise(exc, "v_mv", normal{-60, 3});
    net.initialise(inh, "v_mv", uniform{-65, -55});
    net.connect(noise, exc, fixed_probability{.p = 0.1}, {.weight = uniform{2.0, 5.0}, .delay_ms = uniform{0.5, 4.0}});
    net.connect(noise, inh, fixed_in_degree{.k = 20}, {.weight = normal{3.0, 0.5}, .delay_ms = normal{2.0, 0.4}});
    net.connect(exc, exc, fixed_probability{.p = 0.02}, {.weight = normal{0.8, 0.2}, .delay_ms = uniform{0.1, 5.0}});
    net.connect(exc, inh, fixed_probability{.p = 0.05}, {.weight = uniform{0.2, 1.2}, .delay_ms = 1.0});
    net.connect(inh, exc, fixed_probability{.p = 0.05},
                {.weight = normal{-4.0, 1.0}, .delay_ms = normal{3.0, 0.5}, .receptor = inhibitory});
    net.connect(inh, inh, fixed_in_degree{.k = 10, .allow_autapses = false},
                {.weight = uniform{-3.0, -1.0}, .delay_ms = uniform{0.3, 2.0}, .receptor = inhibitory});
    net.connect(exc, out, fixed_in_degree{.k = 50}, {.weight = uniform{2.0, 6.0}, .delay_ms = uniform{1.0, 10.0}});
    net.connect(pulses, out, all_to_all{}, {.weight = 1.5, .delay_ms = 2.0});
    net.inject(out, dc_current{.amplitude_mv = 8, .start_ms = 20, .stop_ms = 60});
    net.inject(inh, step_current{.times_ms = {50, 80, 120}, .amplitudes_mv = {6, -2, 3}}, {0, 1, 2, 3, 4, 5});
    return net;
}

/// One-step delays onto lif_alpha and lif_exp with one weight per receptor (the direct path
/// into alpha currents and unscaled exp currents), with refractory periods of 0 and 3 ms.
inline network direct_alpha_scenario() {
    network net;
    const auto noise = net.add_population("noise", 200, poisson_source{{.rate_hz = 60}});
    const auto a = net.add_population(
        "alpha", 300, lif_alpha{{.tau_m_ms = 15, .tau_syn_e_ms = 3, .tau_syn_i_ms = 6, .v_rest_mv = -60,
                                 .v_reset_mv = -62, .v_thresh_mv = -50, .t_ref_ms = 0, .i_e_mv = 2}});
    const auto e = net.add_population("exp", 300, lif_exp{{.t_ref_ms = 3}});
    net.set_parameter(e, "tau_m_ms", uniform{15, 25});
    net.connect(noise, a, fixed_probability{.p = 0.1}, {.weight = 1.2, .delay_ms = 0.1});
    net.connect(noise, e, fixed_probability{.p = 0.1}, {.weight = 1.1, .delay_ms = 0.1});
    net.connect(a, e, fixed_probability{.p = 0.05}, {.weight = -2.0, .delay_ms = 0.1, .receptor = inhibitory});
    net.connect(e, a, fixed_probability{.p = 0.05}, {.weight = 0.5, .delay_ms = 0.1});
    return net;
}

/// The Potjans-Diesmann microcircuit at scale 0.05 (3,858 lif_exp neurons with a Poisson drive
/// each, about 750,000 fixed_total_number synapses with redrawn normal weights and delays).
inline network microcircuit_scenario() { return microcircuit_network({.scale = 0.05, .in_degree_scale = 0.05}); }

/// A table of `steps` rows of `n` values, each `high` with probability `p` and 0 otherwise
/// (splitmix64 of `seed`): event-like input for an analog source.
inline std::vector<std::vector<double>> sparse_table(std::size_t steps, std::size_t n, double p, double high,
                                                     std::uint64_t seed) {
    std::vector<std::vector<double>> t(steps, std::vector<double>(n, 0.0));
    for (auto& row : t)
        for (double& x : row) {
            std::uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            z ^= z >> 31;
            if (static_cast<double>(z >> 11) * 0x1p-53 < p) x = high;
        }
    return t;
}

/// A NIR fixture (tests/data/nir) on the engine: discrete_neuron populations (CubaLIF or IF),
/// from_list and convolution projections, zero-delay layers and a delayed recurrence.
inline network nir_scenario(const std::string& file, discrete_neuron::reset_mode reset) {
    return nir_to_network(read_nir(std::string(VOLLEY_TEST_DATA_DIR) + "/nir/" + file), {.reset = reset}).net;
}

/// The NIR scenarios' input: event-like values into every Input node and, for the NIR model's
/// biased layers, their biases (both through set_input).
inline std::function<void(simulation&)> nir_input(const std::string& file, double p, double high) {
    return [file, p, high](simulation& sim) {
        const auto model = nir_to_network(read_nir(std::string(VOLLEY_TEST_DATA_DIR) + "/nir/" + file));
        std::uint64_t seed = 7;
        for (const auto& pop : model.populations) {
            const auto& spec = sim.model().at(pop.pop);
            if (std::holds_alternative<analog_source>(spec.model))
                sim.set_input(pop.pop, step_table_input{sparse_table(400, spec.size, p, high, seed++)});
            else if (!pop.bias.empty())
                sim.set_input(pop.pop, constant_input{pop.bias});
        }
    };
}

/// A converted CNN's gates (CNN conversion's max-pool): analog input through a zero-delay
/// convolution (round(w·x) per tap) onto IF neurons, a Poisson map through a delayed
/// convolution (spike counts), a gated 2 x 2 max-pool, and dense layers with zero and 1 ms delays.
inline network gated_pool_scenario() {
    network net;
    const auto image = net.add_population("image", 64, analog_source{sparse_table(300, 64, 0.4, 0.7, 3)});
    const auto noise = net.add_population("noise", 64, poisson_source{{.rate_hz = 200}});
    const discrete_neuron if_model{};  // IF: no leak, threshold 1, reset to 0
    const auto conv = net.add_population("conv", 128, if_model);
    const auto pool = net.add_population("pool", 32, discrete_neuron{.p = {}, .reset = discrete_neuron::reset_mode::subtract});
    const auto dense = net.add_population("dense", 10, if_model);
    convolution c{.in_channels = 1, .in_height = 8, .in_width = 8, .out_channels = 2, .kernel_height = 3,
                  .kernel_width = 3, .pad_top = 1, .pad_bottom = 1, .pad_left = 1, .pad_right = 1, .kernel = {}};
    for (std::size_t k = 0; k < 18; ++k) c.kernel.push_back(0.05 + 0.037 * static_cast<double>((k * 7) % 11) - 0.15);
    net.connect(image, conv, c, {.weight = 1.0, .delay_ms = 0.0});
    convolution d = c;
    for (double& w : d.kernel) w *= -0.3;
    net.connect(noise, conv, d, {.weight = 1.0, .delay_ms = 0.2, .receptor = inhibitory});
    net.connect(conv, pool, max_pool_gate{.channels = 2, .in_height = 8, .in_width = 8}, {.weight = 0.6, .delay_ms = 0.0});
    net.connect(pool, dense, all_to_all{}, {.weight = uniform{-0.2, 0.5}, .delay_ms = 0.0});
    net.connect(conv, dense, fixed_probability{.p = 0.2}, {.weight = uniform{-0.1, 0.2}, .delay_ms = 1.0});
    return net;
}

/// Poisson sources with a rate per neuron (a list from 0 to 1 kHz), a start drawn per neuron
/// and a stop per neuron (build/poisson_parameters.hpp), driving a lif_exp population: every
/// backend must draw the same trains at the same rates.
inline network per_neuron_poisson_scenario() {
    network net;
    const std::uint32_t n = 64;
    const auto noise = net.add_population("noise", n, poisson_source{});
    std::vector<double> rates(n), stops(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        rates[i] = i % 8 == 0 ? 0.0 : 1000.0 * i / n;
        stops[i] = 40.0 + i;
    }
    net.set_parameter(noise, "rate_hz", rates);
    net.set_parameter(noise, "start_ms", uniform{0, 10});
    net.set_parameter(noise, "stop_ms", stops);
    const auto cells = net.add_population("cells", 200, lif_exp{});
    net.connect(noise, cells, fixed_probability{.p = 0.2}, {.weight = uniform{1.0, 4.0}, .delay_ms = uniform{0.5, 3.0}});
    return net;
}

/// A sine on every neuron and Gaussian noise on some (each neuron its own draws, held for 0.5
/// ms), driving lif_exp cells that excite each other: every backend must apply the same current
/// at every step.
inline network sine_and_noise_scenario() {
    network net;
    const auto cells = net.add_population("cells", 120, lif_exp{});
    net.inject(cells, ac_current{.amplitude_mv = 6, .offset_mv = 9, .frequency_hz = 40, .phase_deg = 30, .start_ms = 2,
                                 .stop_ms = 80});
    std::vector<std::uint32_t> some;
    for (std::uint32_t i = 0; i < 120; i += 3) some.push_back(i);
    net.inject(cells, noise_current{.mean_mv = 2, .stdev_mv = 8, .interval_ms = 0.5, .start_ms = 10, .stop_ms = 90},
               some);
    net.connect(cells, cells, fixed_probability{.p = 0.05}, {.weight = uniform{0.5, 2.0}, .delay_ms = uniform{0.5, 3.0}});
    return net;
}

inline std::vector<scenario> scenarios() {
    using reset = discrete_neuron::reset_mode;
    return {{"cuba", cuba_scenario, 200, 1000},
            {"heterogeneous_delays", heterogeneous_delay_scenario, 200, 1000},
            {"sine_and_noise", sine_and_noise_scenario, 100, 300},
            {"direct_alpha", direct_alpha_scenario, 150, 500},
            {"microcircuit", microcircuit_scenario, 100, 500},
            {"nir_lif", [] { return nir_scenario("lif_affine.nir", reset::to_v_reset); }, 30, 100,
             nir_input("lif_affine.nir", 0.3, 1.0)},
            {"nir_rnn", [] { return nir_scenario("rnn_cuba.nir", reset::subtract_delayed); }, 30,
             200, nir_input("rnn_cuba.nir", 0.3, 1.0)},
            {"nir_cnn", [] { return nir_scenario("cnn_conv_if.nir", reset::subtract); }, 30, 200,
             nir_input("cnn_conv_if.nir", 0.05, 1.0)},
            {"gated_pool", gated_pool_scenario, 30, 200},
            {"per_neuron_poisson", per_neuron_poisson_scenario, 120, 500}};
}

}  // namespace volley::snn::backend_test
