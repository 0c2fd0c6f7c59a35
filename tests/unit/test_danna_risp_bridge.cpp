// The bridge to RISP: TENNLab JSON networks whose parameters both models share (discrete,
// no leak, refractory 0, inclusive threshold, thresholds >= 1, charges far from both the
// RISP floor and the 16-bit saturation) produce the same fires on danna2 as on RISP. RISP is
// an independent implementation (hw_models), checked byte for byte against the reference.

#include <volley/danna/danna2_processor.hpp>
#include <volley/danna/processor_factory.hpp>
#include <volley/hw/risp_processor.hpp>

#include <gtest/gtest.h>

#include <random>

using namespace volley;

namespace {

hw::risp_params shared_risp_params() {
    hw::risp_params p;
    p.discrete = true;
    p.max_delay = 15;
    p.min_threshold = 0;
    p.max_threshold = 60;
    p.min_potential = -30000;
    p.min_weight = -30;
    p.max_weight = 60;
    p.spike_value_factor = 60;
    p.leak = hw::leak_mode::none;
    p.threshold_inclusive = true;
    return p;
}

hw::tennlab_network random_network(std::mt19937& rng, const hw::risp_params& p) {
    const auto pick = [&](int lo, int hi) {
        return std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    hw::tennlab_network net;
    net.properties = p.network_properties();
    const int n = pick(2, 20);
    for (int i = 0; i < n; ++i) {
        hw::tennlab_node node;
        node.id = static_cast<hw::node_id>(i * 3 + 1);  // ids need not be 0..n-1
        node.values = {static_cast<double>(pick(1, 60))};
        net.nodes.push_back(node);
    }
    const double density = std::uniform_real_distribution<double>(0.05, 0.3)(rng);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (std::uniform_real_distribution<double>(0, 1)(rng) < density)
                net.edges.push_back(
                    {net.nodes[static_cast<std::size_t>(a)].id,
                     net.nodes[static_cast<std::size_t>(b)].id,
                     {static_cast<double>(pick(-30, 60)), static_cast<double>(pick(1, 15))},
                     {},
                     {}});
    for (int i = 0; i < std::min(n, 3); ++i)
        net.inputs.push_back(net.nodes[static_cast<std::size_t>(i)].id);
    for (int i = n / 2; i < n; ++i)
        net.outputs.push_back(net.nodes[static_cast<std::size_t>(i)].id);
    net.associated_data = {{"other", {{"proc_name", "risp"}}}, {"proc_params", p.to_json()}};
    return net;
}

}  // namespace

TEST(danna_risp_bridge, shared_parameter_networks_fire_alike_on_danna2_and_risp) {
    std::mt19937 rng(77);
    const hw::risp_params rp = shared_risp_params();
    danna::danna2_params dp;
    dp.default_refractory = 0;  // RISP has no refractory period
    dp.spike_value_factor = rp.spike_value_factor;
    std::int64_t fires = 0;
    for (int trial = 0; trial < 150; ++trial) {
        const hw::tennlab_network net = random_network(rng, rp);
        hw::risp_processor risp(rp);
        danna::danna2_processor d2(dp);
        std::vector<hw::neuroprocessor*> procs = {&risp, &d2};
        std::vector<hw::spike> spikes;
        for (int k = std::uniform_int_distribution<int>(1, 30)(rng); k > 0; --k)
            spikes.push_back(
                {net.inputs[static_cast<std::size_t>(std::uniform_int_distribution<int>(
                     0, static_cast<int>(net.inputs.size()) - 1)(rng))],
                 static_cast<double>(std::uniform_int_distribution<int>(0, 30)(rng)),
                 std::uniform_real_distribution<double>(0, 1)(rng)});
        std::vector<std::vector<std::vector<double>>> fired(2);
        std::vector<std::vector<int>> counts(2);
        for (std::size_t k = 0; k < 2; ++k) {
            auto* p = procs[k];
            p->load_network(net);
            for (const auto& node : net.nodes) p->track_neuron_events(node.id);
            for (const auto& s : spikes) p->apply_spike(s, true);  // floor(value * 60) on both
            p->run(50);
            fired[k] = p->neuron_vectors();
            p->run(20);  // carried-over events
            for (const auto& v : p->neuron_vectors()) fired[k].push_back(v);
            counts[k] = p->output_counts();
        }
        ASSERT_EQ(fired[0], fired[1]) << "trial " << trial;
        ASSERT_EQ(counts[0], counts[1]) << "trial " << trial;
        for (const auto& v : fired[0]) fires += static_cast<std::int64_t>(v.size());
    }
    EXPECT_GT(fires, 1000);  // not vacuous
}

// RISP-1's parameters with thresholds of 1 (a RISP parameter file: weights -1..1, min_potential
// -1): charges sit on RISP's floor all the time. The processor factory gives danna2 RISP's floor
// as its charge floor (charge_min), and then every fire is RISP's; with DANNA's own floor
// (-32768) the same networks fire otherwise, so the floor is what makes them alike.
TEST(danna_risp_bridge, risp1_networks_with_thresholds_of_one_fire_alike_on_danna2_with_risps_floor) {
    std::mt19937 rng(5);
    hw::risp_params rp = shared_risp_params();  // discrete, no leak, inclusive, max_delay 15
    rp.min_threshold = rp.max_threshold = 1;
    rp.min_potential = -1;
    rp.min_weight = -1;
    rp.max_weight = 1;
    rp.spike_value_factor = 1;
    std::vector<std::string> warnings;
    const danna::danna2_params adopted = danna::danna2_params_for("risp", rp.to_json(), warnings);
    EXPECT_EQ(adopted.rules.charge_min, -1);
    danna::danna2_params own = adopted;
    own.rules.charge_min = -32768;
    std::int64_t fires = 0;
    int differ_with_own_floor = 0;
    for (int trial = 0; trial < 150; ++trial) {
        hw::tennlab_network net;
        net.properties = rp.network_properties();
        const int n = std::uniform_int_distribution<int>(3, 12)(rng);
        for (int i = 0; i < n; ++i) {
            hw::tennlab_node node;
            node.id = static_cast<hw::node_id>(i);
            node.values = {1.0};
            net.nodes.push_back(node);
        }
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.3)
                    net.edges.push_back({static_cast<hw::node_id>(a), static_cast<hw::node_id>(b),
                                         {static_cast<double>(std::uniform_int_distribution<int>(-1, 1)(rng)),
                                          static_cast<double>(std::uniform_int_distribution<int>(1, 15)(rng))},
                                         {},
                                         {}});
        for (int i = 0; i < 3; ++i) net.inputs.push_back(static_cast<hw::node_id>(i));
        for (int i = n / 2; i < n; ++i) net.outputs.push_back(static_cast<hw::node_id>(i));
        net.associated_data = {{"other", {{"proc_name", "risp"}}}, {"proc_params", rp.to_json()}};
        std::vector<hw::spike> spikes;
        for (int k = std::uniform_int_distribution<int>(5, 40)(rng); k > 0; --k)
            spikes.push_back({static_cast<hw::node_id>(std::uniform_int_distribution<int>(0, 2)(rng)),
                              static_cast<double>(std::uniform_int_distribution<int>(0, 40)(rng)),
                              1.0});
        hw::risp_processor risp(rp);
        danna::danna2_processor with_floor(adopted), without_floor(own);
        std::vector<hw::neuroprocessor*> procs = {&risp, &with_floor, &without_floor};
        std::vector<std::vector<std::vector<double>>> fired(3);
        for (std::size_t k = 0; k < 3; ++k) {
            procs[k]->load_network(net);
            for (const auto& node : net.nodes) procs[k]->track_neuron_events(node.id);
            for (const auto& s : spikes) procs[k]->apply_spike(s, true);
            procs[k]->run(80);
            fired[k] = procs[k]->neuron_vectors();
        }
        ASSERT_EQ(fired[0], fired[1]) << "trial " << trial;
        differ_with_own_floor += fired[0] != fired[2];
        for (const auto& v : fired[0]) fires += static_cast<std::int64_t>(v.size());
    }
    EXPECT_GT(fires, 1000);               // not vacuous
    EXPECT_GT(differ_with_own_floor, 10);  // the floor matters in these networks
}
