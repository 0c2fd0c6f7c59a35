// An integrate-and-fire population with no input but its bias (the first layer of a converted
// CNN) that one thread updates whole is computed several steps ahead of the engine. What a user
// sees must not show it: every spike and every recorded v equal a step-by-step simulation
// written here, with runs that stop inside a block of steps, a bias changed between runs,
// a reset, both reset rules, an initial v, and 1 or 3 threads (3 threads split the population,
// which is then stepped one step at a time), with each instruction set's pass at one thread.

#include "../support/snn_test_support.hpp"

#include <random>

namespace volley::snn {
namespace {

using testing::raster;
using testing::raster_event;

struct reference {
    std::vector<raster_event> spikes;
    std::vector<std::vector<double>> v;  ///< after each step
};

/// Steps [first, last) of n IF neurons: v ← v + (0 + bias); a spike when v > θ, then v − θ
/// (subtract) or v_reset.
void step_reference(reference& r, std::vector<double>& v, const std::vector<double>& bias, const discrete_neuron& n,
                    std::int64_t first, std::int64_t last) {
    for (std::int64_t s = first; s < last; ++s) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            v[i] = v[i] + (0.0 + bias[i]);
            if (v[i] > n.p.v_threshold) {
                v[i] = n.reset == discrete_neuron::reset_mode::subtract ? v[i] - n.p.v_threshold : n.p.v_reset;
                r.spikes.push_back({s + 1, static_cast<std::uint32_t>(i)});
            }
        }
        r.v.push_back(v);
    }
}

TEST(if_run_ahead, spikes_and_membranes_are_those_of_one_step_at_a_time) {
    const std::size_t n = 45;  // five vectors of 8 neurons and a remainder
    std::mt19937 gen(11);
    std::uniform_real_distribution<double> bias_d(-0.2, 1.3), v0_d(-0.5, 0.9);
    std::vector<double> bias(n), bias2(n), v0(n);
    for (auto& b : bias) b = bias_d(gen);
    for (auto& b : bias2) b = bias_d(gen);
    for (auto& v : v0) v = v0_d(gen);
    for (const auto rule : {discrete_neuron::reset_mode::subtract, discrete_neuron::reset_mode::to_v_reset}) {
        discrete_neuron neuron;
        neuron.reset = rule;
        neuron.p.v_threshold = 0.75;
        neuron.p.v_reset = -0.125;
        // Runs of 5, 20 and 9 steps (blocks of 16 are computed ahead), then a new bias for 30
        // steps, then a reset and 7 steps.
        reference ref;
        std::vector<double> v = v0;
        step_reference(ref, v, bias, neuron, 0, 34);
        step_reference(ref, v, bias2, neuron, 34, 64);
        reference after_reset;
        v = v0;
        step_reference(after_reset, v, bias2, neuron, 0, 7);
        ASSERT_GT(ref.spikes.size(), 10 * n);

        network net;
        const auto pop = net.add_population("drive", static_cast<std::uint32_t>(n), neuron);
        net.set_parameter(pop, "i_bias", bias);
        net.initialise(pop, "v", v0);
        for (const auto& [threads, isa] : {std::pair{1, instruction_set::best}, std::pair{1, instruction_set::avx2},
                                           std::pair{1, instruction_set::baseline}, std::pair{3, instruction_set::best}}) {
            SCOPED_TRACE(std::to_string(threads) + " threads, " +
                         (rule == discrete_neuron::reset_mode::subtract ? "subtract" : "to v_reset") + ", isa " +
                         std::to_string(static_cast<int>(isa)));
            simulation sim(net, context{.threads = threads}, {.dt_ms = 1.0, .max_isa = isa});
            auto spikes = sim.record_spikes(pop);
            auto vs = sim.record_state(pop, "v", 1.0);
            sim.run(5);
            sim.run(20);
            sim.run(9);
            sim.set_input(pop, volley::snn::constant_input{bias2});
            sim.run(30);
            EXPECT_EQ(raster({&spikes}), ref.spikes);
            for (std::size_t s = 0; s < ref.v.size(); ++s)
                for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(vs.at(s + 1, i), ref.v[s][i]) << "step " << s + 1 << " neuron " << i;
            sim.reset();
            auto again = sim.record_spikes(pop);
            auto v_again = sim.record_state(pop, "v", 1.0);
            sim.run(7);
            EXPECT_EQ(raster({&again}), after_reset.spikes);
            for (std::size_t s = 0; s < after_reset.v.size(); ++s)
                for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v_again.at(s + 1, i), after_reset.v[s][i]) << "step " << s + 1;
        }
    }
}

}  // namespace
}  // namespace volley::snn
