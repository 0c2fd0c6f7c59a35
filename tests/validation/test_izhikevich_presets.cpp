// The Izhikevich (2003) presets under the paper's DC input (I = 10, Fig. 2), over 1 s at
// dt = 0.1 ms. Two kinds of check:
//  - every spike the engine emits lies in the step that holds the spike time of an
//    independent RK4 integration (ode_reference.hpp), and the counts are equal;
//  - the trains show the firing class the paper names: RS regular spiking with adaptation,
//    IB an initial burst then single spikes, CH repeated bursts (chattering), FS fast spiking
//    without adaptation, LTS fast spiking with adaptation.

#include "../support/snn_test_support.hpp"
#include "ode_reference.hpp"

#include <algorithm>
#include <cmath>

namespace volley::snn {
namespace {

constexpr double dt = 0.1, duration = 1000, current = 10;

std::vector<double> engine_spike_times(const izhikevich& model) {
    network net;
    auto m = model;
    m.p.i_e = current;
    const auto pop = net.add_population("cell", 1, m);
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(pop);
    sim.run(duration);
    std::vector<double> t;
    for (auto s : rec.steps())
        t.push_back(static_cast<double>(s) * dt);  // the end of the spike's step
    return t;
}

std::vector<double> reference_spike_times(const izhikevich::params& p) {
    auto f = [&](const std::array<double, 2>& x, std::array<double, 2>& d) {
        d[0] = 0.04 * x[0] * x[0] + 5 * x[0] + 140 - x[1] + current;
        d[1] = p.a * (p.b * x[0] - x[1]);
    };
    auto reset = [&](std::array<double, 2>& x) {
        x[0] = p.c_mv;
        x[1] += p.d;
    };
    return testing::reference_spike_times<2>({-65.0, p.b * -65.0}, f, p.v_peak_mv, reset, duration,
                                             0.001);
}

struct train {
    std::vector<double> times, isi;
    std::size_t short_isi(double below) const {
        return static_cast<std::size_t>(
            std::count_if(isi.begin(), isi.end(), [&](double x) { return x < below; }));
    }
};

train check_against_reference(const std::string& name) {
    const auto model = izhikevich::preset(name);
    const auto eng = engine_spike_times(model);
    const auto ref = reference_spike_times(model.p);
    EXPECT_EQ(eng.size(), ref.size()) << name;
    for (std::size_t k = 0; k < std::min(eng.size(), ref.size()); ++k) {
        // The engine stamps a spike with the end of its step: ref in (stamp - dt, stamp].
        EXPECT_GT(ref[k], eng[k] - dt - 1e-6) << name << " spike " << k;
        EXPECT_LE(ref[k], eng[k] + 1e-6) << name << " spike " << k;
    }
    train tr{ref, testing::intervals(ref)};
    return tr;
}

TEST(izhikevich_presets, regular_spiking_fires_tonically_with_adaptation) {
    const auto tr = check_against_reference("RS");
    ASSERT_GE(tr.isi.size(), 5u);
    EXPECT_EQ(tr.short_isi(15), 0u);                 // no bursts
    EXPECT_GT(tr.isi.back() / tr.isi.front(), 1.5);  // the rate adapts
}

TEST(izhikevich_presets, intrinsically_bursting_starts_with_a_burst_then_fires_singly) {
    const auto tr = check_against_reference("IB");
    ASSERT_GE(tr.isi.size(), 5u);
    EXPECT_LT(tr.isi[0], 10.0);  // the initial burst
    std::size_t burst = 0;
    while (burst < tr.isi.size() && tr.isi[burst] < 10.0) ++burst;
    EXPECT_GE(burst + 1, 2u);
    EXPECT_LE(burst + 1, 6u);  // a short burst...
    for (std::size_t k = burst; k < tr.isi.size(); ++k)
        EXPECT_GT(tr.isi[k], 20.0) << k;  // ...then single spikes
}

TEST(izhikevich_presets, chattering_fires_repeated_bursts) {
    const auto tr = check_against_reference("CH");
    std::size_t bursts = 0;  // long gaps separate bursts
    for (double x : tr.isi) bursts += x > 15.0;
    EXPECT_GE(bursts, 5u);
    EXPECT_GE(tr.short_isi(10), 2 * bursts);  // at least 3 spikes per burst
}

TEST(izhikevich_presets, fast_spiking_fires_fast_without_adaptation) {
    const auto tr = check_against_reference("FS");
    const auto rs = reference_spike_times(izhikevich::preset("RS").p);
    EXPECT_GT(tr.times.size(), 3 * rs.size());  // far faster than RS at the same input
    ASSERT_GE(tr.isi.size(), 10u);
    EXPECT_LT(tr.isi.back() / tr.isi.front(), 2.0);  // practically no adaptation: a short
    EXPECT_GT(tr.isi[4] / tr.isi.back(), 0.98);      // transient, steady from the 5th interval
}

TEST(izhikevich_presets, low_threshold_spiking_fires_fast_with_adaptation) {
    const auto tr = check_against_reference("LTS");
    const auto rs = reference_spike_times(izhikevich::preset("RS").p);
    EXPECT_GT(tr.times.size(), 2 * rs.size());
    ASSERT_GE(tr.isi.size(), 10u);
    EXPECT_GT(tr.isi.back() / tr.isi.front(), 3.0);  // strong adaptation...
    EXPECT_LT(tr.isi[4] / tr.isi.back(), 0.9);       // ...that lasts beyond the 5th interval
}

TEST(izhikevich_presets, unknown_preset_is_an_unknown_name) {
    EXPECT_TRUE(testing::throws_naming<unknown_name>([] { izhikevich::preset("XX"); },
                                                     {"XX", "RS", "LTS"}));
}

}  // namespace
}  // namespace volley::snn
