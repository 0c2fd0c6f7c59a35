// The integer-mode classifier head exported as TENNLab JSON and run on RISP and danna2, driven
// by the engine's spikes of the layer below: the processors (independent implementations of
// an integer IF neuron) must give the engine's output fire counts, final charges and
// predictions; values outside danna2's ranges are errors naming them.

#include "../support/conversion_test_support.hpp"

#include <volley/convert/head_export.hpp>
#include <volley/error.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>

namespace volley::convert {
namespace {

std::uint64_t state = 777;
float uniform() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<float>(static_cast<double>(state >> 11) / 9007199254740992.0);
}

/// A chain of dense layers (ReLU inside, linear output), weights in [-0.6, 0.6).
cnn_graph dense_chain(std::vector<std::size_t> sizes) {
    cnn_graph g;
    g.source_file = "chain.h5";
    g.input_shape = {1, sizes[0], 1, 1};
    for (std::size_t l = 0; l + 1 < sizes.size(); ++l) {
        layer_node d;
        d.name = "dense" + std::to_string(l);
        d.kind = layer_kind::dense;
        if (l > 0) d.inputs = {l - 1};
        d.output_shape = {1, sizes[l + 1], 1, 1};
        d.relu = l + 2 < sizes.size();
        d.dense.in_features = sizes[l];
        d.dense.out_features = sizes[l + 1];
        for (std::size_t k = 0; k < sizes[l] * sizes[l + 1]; ++k) d.dense.kernel.push_back((uniform() * 2 - 1) * 0.6f);
        for (std::size_t k = 0; k < sizes[l + 1]; ++k) d.dense.bias.push_back((uniform() * 2 - 1) * 0.08f);
        g.nodes.push_back(d);
    }
    return g;
}

using testing::unit_scales;

std::vector<float> random_images(std::size_t n, std::size_t size) {
    std::vector<float> x(n * size);
    for (auto& v : x) v = uniform();
    return x;
}

// With v0 = ½ the layers below the head start half-charged; the head, like the hardware's
// neurons, starts at 0.
TEST(head_export, risp_and_danna2_give_the_engine_integer_mode_head) {
    const auto chain = dense_chain({8, 12, 9, 5});
    const auto images = random_images(24, 8);
    for (const double v0 : {0.0, 0.5}) {
        for (const auto hardware : {head_hardware::risp, head_hardware::danna2}) {
            SCOPED_TRACE("v0 = " + std::to_string(v0));
            const auto net = convert_to_snn(chain, unit_scales(3), {.v0 = v0});
            const auto q = quantize_snn(net, {.bits = 8, .head_max_threshold = head_threshold_limit(hardware)});
            ASSERT_EQ(q.head_first, 1u);  // dense1 and dense2 are fed by dense projections from spiking layers
            const auto head = export_head(q, hardware);
            EXPECT_EQ(head.inputs, 12u);
            EXPECT_EQ(head.classes, 5u);
            EXPECT_EQ(head.latency, 2);
            EXPECT_EQ(head.network.inputs.size(), 13u);
            EXPECT_EQ(head.network.nodes.size(), 12u + 1 + 9 + 5);
            for (const std::int64_t T : {1, 7, 40}) {
                const auto r = check_head_on_hardware(q, head, images, {.timesteps = T, .threads = 2});
                EXPECT_EQ(r.images, 24u);
                EXPECT_EQ(r.same_counts, 24u) << to_string(hardware) << " T = " << T;
                EXPECT_EQ(r.same_charges, 24u) << to_string(hardware) << " T = " << T;
                EXPECT_EQ(r.charge_beyond_range, 0u);
                EXPECT_EQ(r.same_prediction, 24u) << to_string(hardware) << " T = " << T;
                EXPECT_EQ(r.engine_output_spikes, r.hardware_output_spikes);
                EXPECT_EQ(r.cost.cycles, 24 * (T + head.latency));
                if (T == 40) {
                    EXPECT_GT(r.engine_output_spikes, 24u * 5) << "the head must fire";
                    EXPECT_GT(r.input_spikes, 24u * 12);
                }
            }
            // The written JSON reads back into the same network.
            const auto file = std::filesystem::temp_directory_path() / ("head_" + to_string(hardware) + ".json");
            hw::save_tennlab_network(head.network, file.string());
            const auto back = hw::load_tennlab_network(file.string());
            EXPECT_EQ(back.to_json(), head.network.to_json());
            std::filesystem::remove(file);
        }
    }
}

TEST(head_export, results_do_not_depend_on_threads) {
    const auto net = convert_to_snn(dense_chain({6, 10, 4}), unit_scales(2));
    const auto q = quantize_snn(net, {.bits = 6});
    const auto head = export_head(q, head_hardware::danna2);
    const auto images = random_images(15, 6);
    const auto a = check_head_on_hardware(q, head, images, {.timesteps = 30, .threads = 1});
    for (int threads : {2, 3}) {
        const auto b = check_head_on_hardware(q, head, images, {.timesteps = 30, .threads = threads});
        EXPECT_EQ(a.hardware_predictions, b.hardware_predictions);
        EXPECT_EQ(a.engine_predictions, b.engine_predictions);
        EXPECT_EQ(a.cost.events, b.cost.events);
    }
    // Both processors from one engine run: each as when checked alone.
    const std::vector<head_network> heads = {export_head(q, head_hardware::risp), head};
    const auto both = check_heads_on_hardware(q, heads, images, {.timesteps = 30, .threads = 2});
    ASSERT_EQ(both.size(), 2u);
    const auto risp = check_head_on_hardware(q, heads[0], images, {.timesteps = 30, .threads = 1});
    EXPECT_EQ(both[0].hardware_predictions, risp.hardware_predictions);
    EXPECT_EQ(both[0].cost.events, risp.cost.events);
    EXPECT_EQ(both[1].hardware_predictions, a.hardware_predictions);
    EXPECT_EQ(both[1].cost.events, a.cost.events);
    EXPECT_EQ(both[0].same_counts, 15u);
    EXPECT_EQ(both[1].same_counts, 15u);
}

TEST(head_export, values_outside_danna2_ranges_are_errors_naming_them) {
    // Head weights of up to 1.8 thresholds: with the threshold limited to 1022, 12 bits give
    // weights up to round(1.8 * 1022) > 1023.
    auto g = dense_chain({6, 10, 4});
    double max_w = 0;
    for (auto& w : g.nodes[1].dense.kernel) {
        w *= 3;
        max_w = std::max(max_w, std::abs(static_cast<double>(w)));
    }
    ASSERT_GT(max_w * 1022, 1023.5);
    const auto q = quantize_snn(convert_to_snn(g, unit_scales(2)),
                                {.bits = 12, .head_max_threshold = head_threshold_limit(head_hardware::danna2)});
    EXPECT_TRUE(q.layers[1].scale_limited);
    EXPECT_EQ(q.layers[1].threshold, 1022);
    try {
        (void)export_head(q, head_hardware::danna2);
        FAIL();
    } catch (const invalid_parameter& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("Weight"), std::string::npos) << m;
        EXPECT_NE(m.find("-1023..1023"), std::string::npos) << m;
    }
    // Without the threshold limit the head threshold exceeds 1023.
    const auto wide = quantize_snn(convert_to_snn(dense_chain({6, 10, 4}), unit_scales(2)), {.bits = 11});
    ASSERT_GT(wide.layers[1].threshold, 1022);
    try {
        (void)export_head(wide, head_hardware::danna2);
        FAIL();
    } catch (const invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("Threshold"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW((void)export_head(wide, head_hardware::risp));  // RISP takes its bounds from the network
    // A single-layer network has no head.
    const auto one = quantize_snn(convert_to_snn(dense_chain({6, 4}), unit_scales(1)), {.bits = 8});
    EXPECT_THROW((void)export_head(one, head_hardware::risp), unsupported_model);
    EXPECT_THROW((void)head_hardware_from_name("loihi", "--hardware"), invalid_parameter);
}

}  // namespace
}  // namespace volley::convert
