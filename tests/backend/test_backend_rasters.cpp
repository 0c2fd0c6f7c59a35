// Every backend scenario (backend_scenarios.hpp) on every backend built gives the CPU engine's
// raster, spike for spike (deterministic mode: fixed-point sums with integer atomics, and the
// CPU's arithmetic per neuron). The cuda instances are compiled everywhere and skip, saying
// why, where the build has no CUDA backend or the machine no GPU.

#include "backend_scenarios.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace volley::snn::backend_test {
namespace {

std::vector<backend_case> backends() {
    std::vector<backend_case> out{{"cpu", context{.threads = 2, .backend = backend_kind::cpu}}};
    out.push_back({"portable", context{.threads = 2, .backend = backend_kind::portable}});
    out.push_back({"cuda", context{.gpu_id = 0, .backend = backend_kind::cuda}});
    return out;
}

/// Why `b` cannot run here, or "" when it can.
std::string unavailable(const backend_case& b) {
    const auto f = features();
    if (b.name == "portable" && !f.portable) return "this build has no portable backend (no Thrust headers)";
    if (b.name == "cuda" && f.cuda_devices.empty()) return f.cuda ? "no CUDA device: " + f.cuda_note : f.cuda_note;
    return "";
}

struct backend_raster : ::testing::TestWithParam<std::tuple<scenario, backend_case>> {};

TEST_P(backend_raster, equals_the_cpu_engines_raster) {
    const auto& [sc, b] = GetParam();
    if (const auto why = unavailable(b); !why.empty()) GTEST_SKIP() << why;
    const network net = sc.build();
    const auto reference =
        run_raster(net, context{.threads = 1, .backend = backend_kind::cpu}, sc.duration_ms, 42, sc.prepare);
    ASSERT_GE(reference.size(), sc.min_spikes) << sc.name << " is (nearly) silent";
    const auto got = run_raster(net, b.ctx, sc.duration_ms, 42, sc.prepare);
    ASSERT_EQ(got.size(), reference.size()) << sc.name << " on " << b.name;
    EXPECT_TRUE(got == reference) << sc.name << " on " << b.name << ": the rasters differ";
}

INSTANTIATE_TEST_SUITE_P(all, backend_raster, ::testing::Combine(::testing::ValuesIn(scenarios()), ::testing::ValuesIn(backends())),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_on_" + std::get<1>(info.param).name;
                         });

/// The state samples of (population, variable) pairs of `net` on `ctx` over `duration_ms`.
std::vector<std::vector<double>> sampled_state(const network& net, const context& ctx,
                                               const std::vector<std::pair<const char*, const char*>>& what,
                                               double duration_ms) {
    simulation sim(net, ctx, {.dt_ms = 0.1, .seed = 42});
    std::vector<state_recorder> recs;
    for (const auto& [pop, var] : what) recs.push_back(sim.record_state(net.find(pop), var, 0.7, {0, 3, 17}));
    sim.run(duration_ms / 2);
    sim.run(duration_ms / 2);
    std::vector<std::vector<double>> out;
    for (const auto& r : recs) {
        out.push_back(r.data().values);
        EXPECT_EQ(r.data().sample_steps.size() * 3, r.data().values.size());
    }
    return out;
}

TEST(device_backends, record_the_cpu_engines_state_bit_for_bit) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    const context cpu{.threads = 1, .backend = backend_kind::cpu}, portable{.threads = 2, .backend = backend_kind::portable};
    // CUBA's scaled currents over a rescaling (every 102.4 ms here), and the unscaled, alpha and
    // delta kernels of the heterogeneous network.
    const std::vector<std::pair<const char*, const char*>> cuba{{"exc", "v_mv"}, {"exc", "i_syn_e_mv"}, {"inh", "i_syn_i_mv"}};
    EXPECT_TRUE(sampled_state(cuba_scenario(), portable, cuba, 150) == sampled_state(cuba_scenario(), cpu, cuba, 150));
    const std::vector<std::pair<const char*, const char*>> mixed{
        {"exc", "v_mv"}, {"exc", "i_syn_i_mv"}, {"inh", "i_syn_e_mv"}, {"out", "v_mv"}};
    const network net = heterogeneous_delay_scenario();
    EXPECT_TRUE(sampled_state(net, portable, mixed, 100) == sampled_state(net, cpu, mixed, 100));
}

TEST(device_backends, refuse_state_a_model_does_not_have) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    const network net = heterogeneous_delay_scenario();
    simulation sim(net, context{.threads = 1, .backend = backend_kind::portable}, {.dt_ms = 0.1});
    EXPECT_THROW(sim.record_state(net.find("out"), "i_syn_e_mv", 1.0), unknown_name);
    EXPECT_THROW(sim.record_state(net.find("noise"), "v_mv", 1.0), unknown_name);
}

/// Whether `f` throws unsupported_model with every one of `words` in its message.
template <class F>
bool refuses_naming(F&& f, std::initializer_list<const char*> words) {
    try {
        f();
    } catch (const unsupported_model& e) {
        const std::string what = e.what();
        for (const char* w : words)
            if (what.find(w) == std::string::npos) {
                ADD_FAILURE() << "'" << what << "' does not name '" << w << "'";
                return false;
            }
        return true;
    }
    return false;
}

// A current changed between runs (simulation::set_current) holds from the next step on every
// backend alike; new spike trains and Poisson parameters between runs are the cpu backend's only.
TEST(device_backends, take_a_current_changed_between_runs_as_the_cpu_does) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    const network net = sine_and_noise_scenario();
    auto raster_of = [&](const context& ctx) {
        simulation sim(net, ctx, {.dt_ms = 0.1, .seed = 42});
        auto rec = sim.record_spikes(net.find("cells"));
        sim.run(30);
        sim.set_current(0, ac_current{.amplitude_mv = 9, .offset_mv = 4, .frequency_hz = 25, .start_ms = 30.05, .stop_ms = 70});
        sim.set_current(1, noise_current{.mean_mv = 5, .stdev_mv = 12, .interval_ms = 0.3, .start_ms = 31});
        sim.run(50);
        return raster({&rec});
    };
    const auto reference = raster_of(context{.threads = 1, .backend = backend_kind::cpu});
    ASSERT_GE(reference.size(), 200u);
    EXPECT_TRUE(raster_of(context{.threads = 2, .backend = backend_kind::portable}) == reference);
    network arrays;
    const auto src = arrays.add_population("input", 1, spike_source{{{5.0}}});
    simulation sim(arrays, context{.threads = 1, .backend = backend_kind::portable}, {.dt_ms = 0.1});
    sim.run(1);
    EXPECT_TRUE(refuses_naming([&] { sim.set_spike_times(src, {{7.0}}); }, {"spike_source", "'input'", "portable"}));
    network poisson;
    const auto noise = poisson.add_population("noise", 3, poisson_source{});
    simulation psim(poisson, context{.threads = 1, .backend = backend_kind::portable}, {.dt_ms = 0.1});
    EXPECT_TRUE(refuses_naming([&] { psim.set_parameter(noise, "rate_hz", 50.0); }, {"poisson_source", "'noise'", "portable"}));
}

TEST(device_backends, refuse_a_model_they_do_not_run_naming_the_population_and_the_model) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    const network coba = coba_network(100, 0.1);
    const context ctx{.threads = 1, .backend = backend_kind::portable};
    EXPECT_TRUE(refuses_naming([&] { simulation sim(coba, ctx, {.dt_ms = 0.1}); }, {"lif_cond_exp", "exc", "portable"}));
}

TEST(device_backends, refuse_plastic_projections_naming_them) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    network net;
    const auto in = net.add_population("in", 10, poisson_source{{.rate_hz = 10}});
    const auto out = net.add_population("out", 10, lif_exp{});
    net.connect(in, out, one_to_one{}, {.weight = 1.0, .delay_ms = 1.0, .plasticity = stdp_pair{.w_min = 0, .w_max = 2}});
    const context ctx{.threads = 1, .backend = backend_kind::portable};
    EXPECT_TRUE(refuses_naming([&] { simulation sim(net, ctx, {.dt_ms = 0.1}); }, {"plastic", "'in' -> 'out'"}));
}

TEST(device_backends, deliver_zero_delay_input_to_lif_neurons_within_the_step) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    network net;
    const auto in = net.add_population("in", 100, poisson_source{{.rate_hz = 400}});
    const auto mid = net.add_population("mid", 50, lif_exp{{.tau_syn_e_ms = 1}});
    const auto out = net.add_population("out", 20, lif_delta{});
    net.connect(in, mid, fixed_in_degree{.k = 20}, {.weight = 2.0, .delay_ms = 0.0});
    net.connect(mid, out, all_to_all{}, {.weight = 4.0, .delay_ms = 0.0});
    net.connect(out, mid, all_to_all{}, {.weight = -1.0, .delay_ms = 0.5, .receptor = inhibitory});
    const auto cpu = run_raster(net, context{.threads = 1, .backend = backend_kind::cpu}, 100);
    ASSERT_GT(cpu.size(), 200u);
    EXPECT_TRUE(run_raster(net, context{.threads = 2, .backend = backend_kind::portable}, 100) == cpu);
}

/// Spikes and the v of a discrete population over two images: input, run, reset(), new input
/// (a table and biases through set_input), run; the CPU engine's numbers on every backend.
struct two_images {
    std::vector<raster_event> spikes;
    std::vector<double> v, i_syn;
    std::vector<std::int64_t> v_steps;
};

two_images run_two_images(const context& ctx) {
    const network net = nir_scenario("rnn_cuba.nir", discrete_neuron::reset_mode::subtract_delayed);
    simulation sim(net, ctx, {.dt_ms = 0.1, .seed = 42});
    const auto input = net.find("input"), hidden = net.find("lif1.lif");
    std::vector<spike_recorder> recs;
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) recs.push_back(sim.record_spikes(population_index{p}));
    const auto v = sim.record_state(hidden, "v", 0.3);
    const auto i_syn = sim.record_state(hidden, "i_syn", 0.3);
    two_images out;
    for (std::uint64_t image = 0; image < 2; ++image) {
        if (image > 0) sim.reset();
        sim.set_input(input, step_table_input{sparse_table(200, 12, 0.3, 1.0 + 0.5 * static_cast<double>(image), image)});
        sim.set_input(hidden, constant_input{std::vector<double>(38, 0.02 * static_cast<double>(image))});
        sim.run(20);
        for (const auto& r : recs) {
            const auto part = raster({&r});
            out.spikes.insert(out.spikes.end(), part.begin(), part.end());
        }
        out.v.insert(out.v.end(), v.data().values.begin(), v.data().values.end());
        out.i_syn.insert(out.i_syn.end(), i_syn.data().values.begin(), i_syn.data().values.end());
        out.v_steps.insert(out.v_steps.end(), v.data().sample_steps.begin(), v.data().sample_steps.end());
    }
    return out;
}

TEST(device_backends, reset_and_set_input_give_the_cpu_engines_spikes_and_state) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    const auto cpu = run_two_images(context{.threads = 1, .backend = backend_kind::cpu});
    const auto portable = run_two_images(context{.threads = 2, .backend = backend_kind::portable});
    ASSERT_GT(cpu.spikes.size(), 300u);
    EXPECT_TRUE(portable.spikes == cpu.spikes);
    ASSERT_EQ(cpu.v.size(), 2u * 67 * 38);  // 67 samples (steps 0, 3, ..., 198) of 38 neurons per image
    EXPECT_TRUE(portable.v == cpu.v);
    EXPECT_TRUE(portable.i_syn == cpu.i_syn);
    EXPECT_TRUE(portable.v_steps == cpu.v_steps);
    // The second image is not the first again: reset() cleared the state and the new input took.
    EXPECT_NE(std::vector<double>(cpu.v.begin(), cpu.v.begin() + 67 * 38), std::vector<double>(cpu.v.begin() + 67 * 38, cpu.v.end()));
}

TEST(device_backends, check_a_bias_as_the_cpu_engine_does) {
    if (!features().portable) GTEST_SKIP() << "this build has no portable backend";
    const network net = gated_pool_scenario();
    simulation sim(net, context{.threads = 1, .backend = backend_kind::portable}, {.dt_ms = 0.1});
    EXPECT_THROW(sim.set_input(net.find("conv"), constant_input{std::vector<double>(5, 0.0)}), invalid_parameter);
    std::vector<double> bias(128, 0.0);
    bias[7] = std::nan("");
    EXPECT_THROW(sim.set_input(net.find("conv"), constant_input{bias}), invalid_parameter);
    EXPECT_THROW(sim.record_state(net.find("image"), "v", 1.0), unknown_name);
}

TEST(device_backends, the_cpu_backend_refuses_a_gpu_id) {
    const network net = cuba_network(100, 0.1);
    EXPECT_THROW(simulation(net, context{.gpu_id = 0, .backend = backend_kind::cpu}, {.dt_ms = 0.1}), invalid_parameter);
}

}  // namespace
}  // namespace volley::snn::backend_test
