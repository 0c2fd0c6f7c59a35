// Images as a batch dimension (convert/src/conversion/batched_network.hpp): the batched
// network's layout worked out by hand, its refusals, and evaluate_snn with batches of several
// images giving every image's figures of the one-image runs (a converted Keras CNN with
// convolutions, gated max-pools and a dense head; constant-current and Poisson input) on the
// cpu backend and, where built, the portable device backend.

#include <volley/convert/analog_forward.hpp>
#include <volley/convert/cnn_readers.hpp>
#include <volley/convert/normalization.hpp>
#include <volley/convert/snn_conversion.hpp>
#include <volley/convert/snn_evaluation.hpp>
#include <volley/error.hpp>
#include <volley/snn/features.hpp>

#include <gtest/gtest.h>

#include <random>

#include "conversion/batched_network.hpp"

namespace vc = volley::convert;
namespace vs = volley::snn;

namespace {

TEST(batched_network, repeats_each_population_and_keeps_each_images_block_to_itself) {
    vs::network net;
    const auto in = net.add_population("in", 8, vs::analog_source{{{0, 1, 0, 0, 0, 0, 0, 2}}});
    const auto a = net.add_population("a", 2 * 2 * 2, vs::discrete_neuron{});
    const auto b = net.add_population("b", 2, vs::discrete_neuron{});
    net.set_parameter(a, "i_bias", std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8});
    vs::convolution c{.in_channels = 2, .in_height = 2, .in_width = 2, .out_channels = 2, .kernel_height = 1,
                      .kernel_width = 1, .groups = 1, .kernel = {1, 2, 3, 4}};
    net.connect(in, a, c, {.weight = 1.0, .delay_ms = 0.0});
    net.connect(a, b, vs::max_pool_gate{.channels = 2, .in_height = 2, .in_width = 2}, {.weight = 0.5, .delay_ms = 0.0});
    net.connect(b, b, vs::all_to_all{.allow_autapses = false}, {.weight = std::vector<double>{0, 9, 8, 0}, .delay_ms = 1.0});
    const auto batched = vc::detail::batched_network(net, 3);
    ASSERT_EQ(batched.populations().size(), 3u);
    EXPECT_EQ(batched.at(in).size, 24u);
    EXPECT_EQ(std::get<vs::analog_source>(batched.at(in).model).values[0],
              (std::vector<double>{0, 1, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 2}));
    EXPECT_EQ(std::get<std::vector<double>>(batched.at(a).parameters[0].second).size(), 24u);
    const auto& conv = std::get<vs::convolution>(batched.projections()[0].rule);
    EXPECT_EQ(conv.in_channels, 6u);
    EXPECT_EQ(conv.out_channels, 6u);
    EXPECT_EQ(conv.groups, 3u);  // image b's channels 2b, 2b + 1 see only each other
    EXPECT_EQ(conv.kernel, (std::vector<double>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}));
    EXPECT_EQ(std::get<vs::max_pool_gate>(batched.projections()[1].rule).channels, 6u);
    const auto& list = std::get<vs::from_list>(batched.projections()[2].rule);
    EXPECT_EQ(list.sources, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5}));  // no autapses, blocks of 2
    EXPECT_EQ(list.targets, (std::vector<std::uint32_t>{1, 0, 3, 2, 5, 4}));
    EXPECT_EQ(std::get<std::vector<double>>(batched.projections()[2].synapse.weight),
              (std::vector<double>{9, 8, 9, 8, 9, 8}));
}

TEST(batched_network, refuses_what_a_block_copy_cannot_keep_naming_it) {
    vs::network net;
    const auto a = net.add_population("a", 4, vs::discrete_neuron{});
    net.initialise(a, "v", vs::uniform{0, 0.5});
    try {
        vc::detail::batched_network(net, 2);
        FAIL() << "expected unsupported_model";
    } catch (const volley::unsupported_model& e) {
        EXPECT_NE(std::string(e.what()).find("population 'a'"), std::string::npos) << e.what();
    }
    vs::network random;
    const auto x = random.add_population("x", 4, vs::discrete_neuron{});
    random.connect(x, x, vs::fixed_probability{.p = 0.5}, {.weight = 1.0});
    EXPECT_THROW(vc::detail::batched_network(random, 2), volley::unsupported_model);
    EXPECT_THROW(vc::detail::batched_network(random, 0), volley::invalid_parameter);
}

/// evaluate_snn of 12 random images through the channels_first Keras fixture (conv, gated
/// max-pools 'same' and 'valid', conv, dense) with `batch` images per simulation.
vc::evaluation_result evaluate(vc::input_coding input, std::size_t batch, vs::backend_kind backend) {
    const auto g = vc::read_cnn(std::string(VOLLEY_TEST_DATA_DIR) + "/keras/cf_maxpool_same.h5");
    vc::tensor<float> x(g.input_shape.with_batch(12));
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& v : x.values) v = u(rng);
    vc::normalization_options no;
    no.percentile = 100;
    vc::conversion_options co;
    co.input = input;
    const auto net = vc::convert_to_snn(g, vc::compute_layer_scales(g, x, no), co);
    vc::evaluation_options o;
    o.timesteps = {10, 60};
    o.threads = 2;
    o.batch = batch;
    o.backend = backend;
    o.keep_output_evidence = true;
    return vc::evaluate_snn(net, x.values, {}, {}, o);
}

void expect_same(const vc::evaluation_result& a, const vc::evaluation_result& b, const char* what) {
    EXPECT_EQ(a.predictions, b.predictions) << what;
    EXPECT_EQ(a.output_counts, b.output_counts) << what;
    EXPECT_EQ(a.output_membrane, b.output_membrane) << what;
    ASSERT_EQ(a.checkpoints.size(), b.checkpoints.size());
    for (std::size_t c = 0; c < a.checkpoints.size(); ++c) {
        EXPECT_EQ(a.checkpoints[c].spikes_per_image, b.checkpoints[c].spikes_per_image) << what << " T" << c;
        EXPECT_EQ(a.checkpoints[c].synops_per_image, b.checkpoints[c].synops_per_image) << what << " T" << c;
    }
    for (std::size_t l = 0; l < a.layers.size(); ++l)
        EXPECT_EQ(a.layers[l].spikes_per_step, b.layers[l].spikes_per_step) << what << " " << a.layers[l].name;
}

TEST(batched_evaluation, gives_every_image_the_figures_of_its_run_alone) {
    for (const auto input : {vc::input_coding::constant_current, vc::input_coding::poisson}) {
        const auto alone = evaluate(input, 1, vs::backend_kind::cpu);
        ASSERT_GT(alone.checkpoints.back().spikes_per_image, 100.0);
        ASSERT_EQ(alone.output_counts.size(), 12u);
        expect_same(alone, evaluate(input, 5, vs::backend_kind::cpu), "cpu, batches of 5, 5 and 2");
        if (vs::features().portable) expect_same(alone, evaluate(input, 4, vs::backend_kind::portable), "portable, batches of 4");
    }
}

}  // namespace
