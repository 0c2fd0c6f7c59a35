// Time-to-first-spike input coding: each pixel x > 0 has one event at step
// t = min(K − 1, round((1 − x)·K)), which the first layer holds as the current 1 − t/K. Checked
// against those formulas written here: the input table, the first input spike of each pixel on
// the engine, and the spike counts of an identity IF layer driven by the held currents.

#include "../support/conversion_test_support.hpp"

#include <volley/convert/snn_evaluation.hpp>
#include <volley/error.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "conversion/input_coding.hpp"

namespace volley::convert {
namespace {

using testing::identity_chain;
using testing::unit_scales;

TEST(ttfs_input, events_come_at_the_first_spike_times_and_drive_the_first_layer) {
    const std::int64_t K = 16, T = 60;  // the decoded values t/16 are exact binary fractions
    const std::vector<float> x = {0.0f, 1.0f, 0.5f, 0.03f, 0.97f, 0.3f, 0.71f};
    conversion_options o;
    o.input = input_coding::ttfs;
    o.ttfs_window = K;
    const auto net = convert_to_snn(identity_chain(x.size(), false), unit_scales(1), o);
    ASSERT_TRUE(net.input.has_value());
    ASSERT_EQ(net.network.projections().size(), 1u);
    const auto delay = static_cast<std::int64_t>(std::get<double>(net.network.projections()[0].synapse.delay_ms));
    evaluation_options eo;
    eo.timesteps = {T};
    const auto table = detail::input_table(net, x, 0, eo);
    ASSERT_EQ(table.size(), static_cast<std::size_t>(T));

    snn::simulation sim(net.network, snn::context{.threads = 1}, {.dt_ms = 1.0});
    auto input = sim.record_spikes(*net.input);
    auto first = sim.record_spikes(net.layers[0].population);
    sim.set_input(*net.input, volley::snn::step_table_input{table});
    sim.run(static_cast<double>(T));
    std::vector<std::int64_t> first_input(x.size(), -1), inputs(x.size(), 0), count(x.size(), 0);
    for (std::size_t k = 0; k < input.size(); ++k) {
        const auto p = input.node_ids()[k];
        if (first_input[p] < 0) first_input[p] = input.steps()[k];
        ++inputs[p];
    }
    for (const auto id : first.node_ids()) ++count[id];
    for (std::size_t p = 0; p < x.size(); ++p) {
        const double xp = x[p];
        if (xp == 0) {
            EXPECT_EQ(inputs[p], 0) << "pixel " << p;
            EXPECT_EQ(count[p], 0) << "pixel " << p;
            continue;
        }
        const auto t = std::min<std::int64_t>(K - 1, std::llround((1.0 - xp) * K));  // 0.03: 15.52 → 15
        const double held = 1.0 - static_cast<double>(t) / K;
        for (std::int64_t s = 0; s < T; ++s)
            EXPECT_EQ(table[static_cast<std::size_t>(s)][p], s < t ? 0.0 : held) << "pixel " << p << " step " << s;
        // Recorded steps count from 1: the event of step t is recorded at t + 1, and the held
        // current keeps the input active in every step after it.
        EXPECT_EQ(first_input[p], t + 1) << "pixel " << p;
        EXPECT_EQ(inputs[p], T - t) << "pixel " << p;
        // The first layer gets the held current from step t + d (d: the projection's delay in
        // steps): after m steps of a constant input c an IF neuron (v > 1, reset by
        // subtraction) has fired ceil(m·c) − 1 times.
        const double mc = static_cast<double>(T - t - delay) * held;
        EXPECT_EQ(count[p], static_cast<std::int64_t>(std::ceil(mc)) - (mc > 0 ? 1 : 0)) << "pixel " << p;
    }
}

TEST(ttfs_input, bad_window_or_pixels_are_errors) {
    conversion_options o;
    o.input = input_coding::ttfs;
    o.ttfs_window = 1;
    EXPECT_THROW(convert_to_snn(identity_chain(3, false), unit_scales(1), o), invalid_parameter);
    o.ttfs_window = 8;
    const auto net = convert_to_snn(identity_chain(3, false), unit_scales(1), o);
    evaluation_options eo;
    eo.timesteps = {10};
    const std::vector<float> bright = {0.5f, 1.5f, 0.0f};
    try {
        (void)detail::input_table(net, bright, 4, eo);
        ADD_FAILURE() << "no error";
    } catch (const invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("pixel 1"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("image 4"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace volley::convert
