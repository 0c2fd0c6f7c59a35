// The convolution connector and its engine projection (one shared kernel, no synapse table),
// checked against a direct convolution written here: the membrane jump of each target equals
// the convolution of the spike map, the raster equals that of the same synapses given as a
// from_list projection, and every thread count gives bit-identical results.

#include "../support/snn_test_support.hpp"

#include <volley/snn/network_json.hpp>

#include <cmath>
#include <random>

namespace volley::snn {
namespace {

using testing::raster;
using testing::raster_event;
using testing::throws_naming;

/// A direct convolution of a C x H x W map, written from the PyTorch definition.
std::vector<double> direct_convolution(const convolution& c, const std::vector<double>& x) {
    const int oh = static_cast<int>(c.out_height()), ow = static_cast<int>(c.out_width());
    const int cg = static_cast<int>(c.in_channels / c.groups), og = static_cast<int>(c.out_channels / c.groups);
    const int H = static_cast<int>(c.in_height), W = static_cast<int>(c.in_width);
    const int kh = static_cast<int>(c.kernel_height), kw = static_cast<int>(c.kernel_width);
    std::vector<double> y(static_cast<std::size_t>(c.out_channels) * oh * ow, 0.0);
    for (int o = 0; o < static_cast<int>(c.out_channels); ++o)
        for (int r = 0; r < oh; ++r)
            for (int q = 0; q < ow; ++q) {
                double sum = 0;
                for (int ci = 0; ci < cg; ++ci) {
                    const int ch = (o / og) * cg + ci;
                    for (int a = 0; a < kh; ++a)
                        for (int b = 0; b < kw; ++b) {
                            const int iy = r * static_cast<int>(c.stride_h) - static_cast<int>(c.pad_top) +
                                           a * static_cast<int>(c.dilation_h);
                            const int ix = q * static_cast<int>(c.stride_w) - static_cast<int>(c.pad_left) +
                                           b * static_cast<int>(c.dilation_w);
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                            sum += c.kernel[static_cast<std::size_t>(((o * cg + ci) * kh + a) * kw + b)] *
                                   x[static_cast<std::size_t>((ch * H + iy) * W + ix)];
                        }
                }
                y[static_cast<std::size_t>((o * oh + r) * ow + q)] = sum;
            }
    return y;
}

/// The same synapses as explicit (source, target, weight) triples: the response of each
/// target to a unit impulse at each source, from the direct convolution.
struct synapse_triples {
    from_list pairs;
    std::vector<double> weights;
};
synapse_triples as_list(const convolution& c) {
    synapse_triples out;
    const std::size_t n_in = std::size_t{c.in_channels} * c.in_height * c.in_width;
    for (std::size_t i = 0; i < n_in; ++i) {
        std::vector<double> x(n_in, 0.0);
        x[i] = 1;
        const auto y = direct_convolution(c, x);
        for (std::size_t j = 0; j < y.size(); ++j)
            if (y[j] != 0) {
                out.pairs.sources.push_back(static_cast<std::uint32_t>(i));
                out.pairs.targets.push_back(static_cast<std::uint32_t>(j));
                out.weights.push_back(y[j]);
            }
    }
    return out;
}

convolution random_kernel(convolution c, std::uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    c.kernel.resize(std::size_t{c.out_channels} * (c.in_channels / c.groups) * c.kernel_height * c.kernel_width);
    for (auto& w : c.kernel) w = u(gen);
    return c;
}

/// Stride, asymmetric padding, dilation; groups; an average pool as a depthwise convolution;
/// two dense kernels.
std::vector<convolution> cases() {
    convolution strided{.in_channels = 3, .in_height = 7, .in_width = 6, .out_channels = 4, .kernel_height = 3,
                        .kernel_width = 2, .stride_h = 2, .stride_w = 1, .pad_top = 1, .pad_bottom = 0,
                        .pad_left = 2, .pad_right = 1, .dilation_h = 1, .dilation_w = 2, .groups = 1, .kernel = {}};
    convolution grouped{.in_channels = 4, .in_height = 6, .in_width = 5, .out_channels = 6, .kernel_height = 3,
                        .kernel_width = 3, .stride_h = 1, .stride_w = 1, .pad_top = 2, .pad_bottom = 2,
                        .pad_left = 2, .pad_right = 2, .dilation_h = 2, .dilation_w = 2, .groups = 2, .kernel = {}};
    convolution pool{.in_channels = 3, .in_height = 4, .in_width = 6, .out_channels = 3, .kernel_height = 2,
                     .kernel_width = 2, .stride_h = 2, .stride_w = 2, .groups = 3,
                     .kernel = std::vector<double>(12, 0.25)};
    // Dense kernels whose taps reach consecutive output columns (the 32-bit path's strips):
    // stride 1 with "same" padding, and stride 2 (an average pool folded into a kernel).
    convolution same{.in_channels = 2, .in_height = 6, .in_width = 7, .out_channels = 5, .kernel_height = 3,
                     .kernel_width = 3, .pad_top = 1, .pad_bottom = 1, .pad_left = 1, .pad_right = 1, .kernel = {}};
    convolution folded{.in_channels = 3, .in_height = 8, .in_width = 8, .out_channels = 4, .kernel_height = 4,
                       .kernel_width = 4, .stride_h = 2, .stride_w = 2, .pad_top = 1, .pad_bottom = 1, .pad_left = 1,
                       .pad_right = 1, .kernel = {}};
    // Wide enough for the 16 x 16 blocks of the accumulator read in place (20 channels of 9 x 9
    // outputs: one block of channels and five of positions, with remainders of both).
    convolution wide{.in_channels = 2, .in_height = 9, .in_width = 9, .out_channels = 20, .kernel_height = 3,
                     .kernel_width = 3, .pad_top = 1, .pad_bottom = 1, .pad_left = 1, .pad_right = 1, .kernel = {}};
    return {random_kernel(strided, 1), random_kernel(grouped, 2), pool, random_kernel(same, 3), random_kernel(folded, 4),
            random_kernel(wide, 5)};
}

constexpr double dt = 0.1;
const lif_delta integrator{{.tau_m_ms = 1e12, .v_rest_mv = 0, .v_reset_mv = -1, .v_thresh_mv = 1e9, .t_ref_ms = 0,
                            .i_e_mv = 0}};

TEST(convolution, out_size_follows_the_pytorch_formula) {
    const auto c = cases();
    EXPECT_EQ(c[0].out_height(), (7u + 1 + 0 - 1 * (3 - 1) - 1) / 2 + 1);
    EXPECT_EQ(c[0].out_width(), (6u + 2 + 1 - 2 * (2 - 1) - 1) / 1 + 1);
    EXPECT_EQ(c[1].out_height(), 6u);
    EXPECT_EQ(c[2].out_width(), 3u);
}

// One volley of spikes from a random subset of the input map: each target's membrane jumps by
// the direct convolution of that 0/1 map, to the fixed-point quantum.
TEST(convolution, membrane_jump_equals_the_direct_convolution_of_the_spike_map) {
    for (const auto& c : cases()) {
        const std::uint32_t n_in = c.in_channels * c.in_height * c.in_width;
        std::mt19937 gen(7);
        std::vector<double> x(n_in);
        std::vector<std::vector<double>> times(n_in);
        for (std::uint32_t i = 0; i < n_in; ++i) {
            x[i] = gen() % 2;
            if (x[i] != 0) times[i] = {1.0};
        }
        const auto expected = direct_convolution(c, x);
        network net;
        const auto src = net.add_population("input", n_in, spike_source{times});
        const auto out = net.add_population("output", static_cast<std::uint32_t>(expected.size()), integrator);
        net.connect(src, out, c, {.weight = 1.0, .delay_ms = 0.1});
        for (int threads : {1, 2, 3}) {
            simulation sim(net, context{.threads = threads}, {.dt_ms = dt});
            auto v = sim.record_state(out, "v_mv", dt);
            sim.run(2);
            ASSERT_EQ(v.samples(), 21u);
            for (std::size_t j = 0; j < expected.size(); ++j) {
                EXPECT_EQ(v.at(10, j), 0.0) << "target " << j;
                EXPECT_NEAR(v.at(11, j), expected[j], 1e-7) << "target " << j << " threads " << threads;
            }
        }
    }
}

// Poisson input into spiking targets over many steps: the raster through the convolution is
// the raster through the same synapses given one by one, for 1, 2 and 3 threads.
TEST(convolution, raster_equals_the_same_synapses_as_a_list_for_any_thread_count) {
    const lif_delta spiking{{.tau_m_ms = 5, .v_rest_mv = 0, .v_reset_mv = 0, .v_thresh_mv = 0.8, .t_ref_ms = 0.2,
                             .i_e_mv = 0}};
    for (const auto& c : cases()) {
        const std::uint32_t n_in = c.in_channels * c.in_height * c.in_width;
        const std::uint32_t n_out = c.out_channels * c.out_height() * c.out_width();
        const auto list = as_list(c);
        std::vector<raster_event> reference;
        for (bool as_kernel : {false, true})
            for (int threads : {1, 2, 3}) {
                network net;
                const auto src = net.add_population("input", n_in, poisson_source{{.rate_hz = 400}});
                const auto out = net.add_population("output", n_out, spiking);
                if (as_kernel) net.connect(src, out, c, {.weight = 1.0, .delay_ms = 0.2});
                else net.connect(src, out, list.pairs, {.weight = list.weights, .delay_ms = 0.2});
                simulation sim(net, context{.threads = threads}, {.dt_ms = dt, .seed = 5});
                auto in_spikes = sim.record_spikes(src);
                auto out_spikes = sim.record_spikes(out);
                sim.run(40);
                const auto r = raster({&in_spikes, &out_spikes});
                ASSERT_GT(out_spikes.size(), 50u);
                if (reference.empty()) reference = r;
                else EXPECT_EQ(r, reference) << (as_kernel ? "kernel" : "list") << ", threads " << threads;
            }
    }
}

// Spikes of neurons (at most one per neuron and step) go through the kernel's 32-bit copy: the
// raster is that of the same synapses as a list, membranes agree to the 32-bit quantum of the
// largest step input, and 1, 2 and 3 threads agree bit for bit. Same-step (zero) delay and one
// step, so that the converted-CNN path and the delayed path are both covered.
TEST(convolution, spikes_of_neurons_through_the_32_bit_kernel_match_the_list) {
    discrete_neuron if_unit;
    if_unit.reset = discrete_neuron::reset_mode::subtract;
    for (const auto& c : cases())
        for (const double delay : {0.0, 1.0}) {
            const std::uint32_t n_in = c.in_channels * c.in_height * c.in_width;
            const std::uint32_t n_out = c.out_channels * c.out_height() * c.out_width();
            const auto list = as_list(c);
            std::mt19937 gen(13);
            std::uniform_real_distribution<double> u(0.05, 0.7);
            std::vector<double> bias(n_in);
            for (auto& b : bias) b = u(gen);
            double bound = 0;  // the largest possible input of one step, over all targets
            for (const double w : c.kernel) bound += std::abs(w);
            std::vector<raster_event> ref_raster;
            std::vector<double> ref_v, kernel_v;
            for (bool as_kernel : {false, true})
                for (int threads : {1, 2, 3}) {
                    network net;
                    const auto src = net.add_population("input", n_in, if_unit);
                    const auto out = net.add_population("output", n_out, if_unit);
                    net.set_parameter(src, "i_bias", bias);
                    if (as_kernel) net.connect(src, out, c, {.weight = 1.0, .delay_ms = delay});
                    else net.connect(src, out, list.pairs, {.weight = list.weights, .delay_ms = delay});
                    simulation sim(net, context{.threads = threads}, {.dt_ms = 1.0});
                    auto out_spikes = sim.record_spikes(out);
                    auto v = sim.record_state(out, "v", 1.0);
                    sim.run(30);
                    ASSERT_GT(out_spikes.size(), 30u);
                    const auto r = raster({&out_spikes});
                    if (ref_raster.empty()) {
                        ref_raster = r;
                        ref_v = v.data().values;
                        continue;
                    }
                    EXPECT_EQ(r, ref_raster) << (as_kernel ? "kernel" : "list") << ", threads " << threads;
                    if (!as_kernel) {
                        EXPECT_EQ(v.data().values, ref_v) << "list, threads " << threads;
                    } else if (kernel_v.empty()) {
                        kernel_v = v.data().values;
                        ASSERT_EQ(kernel_v.size(), ref_v.size());
                        for (std::size_t k = 0; k < ref_v.size(); ++k)
                            EXPECT_NEAR(kernel_v[k], ref_v[k], 30 * bound * std::ldexp(1.0, -30)) << "sample " << k;
                    } else {
                        EXPECT_EQ(v.data().values, kernel_v) << "kernel, threads " << threads;
                    }
                }
        }
}

// Analog values (an analog_source) scale the kernel as they scale listed synapses: the
// membranes through the kernel equal those through the list, bit for bit, for 1, 2 and 3 threads.
TEST(convolution, analog_values_scale_the_kernel_as_they_scale_listed_synapses) {
    const discrete_neuron integrate{};  // IF, threshold 1: v += input each step
    for (const auto& c : cases()) {
        const std::uint32_t n_in = c.in_channels * c.in_height * c.in_width;
        const std::uint32_t n_out = c.out_channels * c.out_height() * c.out_width();
        const auto list = as_list(c);
        std::mt19937 gen(11);
        std::uniform_real_distribution<double> u(-2.0, 3.0);
        std::vector<std::vector<double>> table(6, std::vector<double>(n_in));
        for (auto& row : table)
            for (auto& x : row) x = gen() % 3 == 0 ? 0.0 : u(gen);
        std::vector<double> reference;
        for (bool as_kernel : {false, true})
            for (int threads : {1, 2, 3}) {
                network net;
                const auto src = net.add_population("input", n_in, analog_source{table});
                const auto out = net.add_population("output", n_out, integrate);
                if (as_kernel) net.connect(src, out, c, {.weight = 1.0, .delay_ms = 1.0});
                else net.connect(src, out, list.pairs, {.weight = list.weights, .delay_ms = 1.0});
                simulation sim(net, context{.threads = threads}, {.dt_ms = 1.0});
                auto v = sim.record_state(out, "v", 1.0);
                sim.run(8);
                if (reference.empty()) {
                    reference = v.data().values;
                    // The first step's input, to the fixed-point quantum, is the direct convolution
                    // (below threshold: no reset yet for most targets, so check only those).
                    const auto y = direct_convolution(c, table[0]);
                    for (std::size_t j = 0; j < y.size(); ++j) {
                        if (y[j] <= 1) {
                            EXPECT_NEAR(v.at(2, j), y[j], 1e-6) << "target " << j;
                        }
                    }
                } else {
                    EXPECT_EQ(v.data().values, reference) << (as_kernel ? "kernel" : "list") << ", threads " << threads;
                }
            }
    }
}

TEST(convolution, stats_count_the_synapses_and_events_of_the_kernel) {
    const auto c = cases()[0];
    const auto list = as_list(c);
    network net;
    const std::uint32_t n_in = c.in_channels * c.in_height * c.in_width;
    std::vector<std::vector<double>> times(n_in, std::vector<double>{1.0});
    const auto src = net.add_population("input", n_in, spike_source{times});
    const auto out = net.add_population("output", c.out_channels * c.out_height() * c.out_width(), integrator);
    net.connect(src, out, c);
    for (int threads : {1, 3}) {
        simulation sim(net, context{.threads = threads}, {.dt_ms = dt});
        sim.run(2);
        // Every synapse of the convolution carries one event, padding excluded; the random
        // kernel has no zero, so the list holds exactly the convolution's synapses.
        EXPECT_EQ(sim.stats().synapses, list.weights.size());
        EXPECT_EQ(sim.stats().synaptic_events, list.weights.size());
    }
}

TEST(convolution, round_trips_through_network_json) {
    network net;
    const auto c = cases()[1];
    const auto src = net.add_population("input", c.in_channels * c.in_height * c.in_width, poisson_source{});
    const auto out = net.add_population("output", c.out_channels * c.out_height() * c.out_width(), integrator);
    net.connect(src, out, c, {.weight = 1.0, .delay_ms = 0.3, .receptor = inhibitory});
    const auto text = to_network_json(net, {});
    EXPECT_NE(text.find("\"convolution\""), std::string::npos);
    EXPECT_EQ(parse_network_json(text, "conv.json").net, net);
}

TEST(convolution, bad_shapes_and_specs_are_errors_naming_the_projection_and_value) {
    const auto good = cases()[0];
    const std::uint32_t n_in = good.in_channels * good.in_height * good.in_width;
    const std::uint32_t n_out = good.out_channels * good.out_height() * good.out_width();
    auto attempt = [&](convolution c, std::uint32_t src_size, std::uint32_t tgt_size, synapse_spec spec = {}) {
        return [=] {
            network net;
            const auto src = net.add_population("in", src_size, poisson_source{});
            const auto out = net.add_population("out", tgt_size, integrator);
            net.connect(src, out, c, spec);
        };
    };
    auto short_kernel = good;
    short_kernel.kernel.pop_back();
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(short_kernel, n_in, n_out), {"'in' -> 'out'", "kernel", "71"}));
    auto bad_groups = good;
    bad_groups.groups = 2;
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(bad_groups, n_in, n_out), {"groups", "2", "in_channels (3)"}));
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(good, n_in + 1, n_out), {"source size", std::to_string(n_in + 1)}));
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(good, n_in, n_out - 1), {"target size", std::to_string(n_out - 1)}));
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(good, n_in, n_out, {.weight = 0.5}), {"weight", "0.5", "constant 1"}));
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(good, n_in, n_out, {.weight = 1.0, .delay_ms = uniform{1, 2}}),
                                                 {"delay_ms", "constant"}));
    auto too_big = good;
    too_big.kernel_height = 12;
    too_big.kernel.resize(std::size_t{4} * 3 * 12 * 2);
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(too_big, n_in, n_out), {"12x2", "does not fit"}));
    auto nan_kernel = good;
    nan_kernel.kernel[5] = std::nan("");
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(nan_kernel, n_in, n_out), {"kernel[5]", "nan"}));
    auto zero_stride = good;
    zero_stride.stride_w = 0;
    EXPECT_TRUE(throws_naming<invalid_parameter>(attempt(zero_stride, n_in, n_out), {"stride_w", "0"}));
    EXPECT_TRUE(throws_naming<file_format_error>(
        [] {
            parse_network_json(R"({"format": "volley-network", "version": 1,
                "populations": [{"name": "a", "size": 4, "model": "poisson_source"},
                                {"name": "b", "size": 4, "model": "lif_delta"}],
                "projections": [{"source": "a", "target": "b",
                                 "connector": {"type": "convolution", "in_channels": 1, "in_height": 2,
                                               "in_width": 2, "kernel": [1], "strides": 2}}]})",
                               "bad.json");
        },
        {"bad.json", "strides"}));
}

}  // namespace
}  // namespace volley::snn
