// The danna element grid: hand-built programmes (fan-out relay timing, ports and enable bits,
// FIFO overflow, saturation of 8-bit learning, the monitor window), programme JSON, and the
// place-and-route failure reasons.

#include "danna_test_networks.hpp"

#include <volley/danna/grid_engine.hpp>
#include <volley/danna/grid_processor.hpp>
#include <volley/danna/layout_svg.hpp>
#include <volley/danna/place_and_route.hpp>
#include <volley/error.hpp>

#include "routing.hpp"

#include <gtest/gtest.h>

using namespace volley::danna;
using danna_test::neurons;

namespace {

/// Enables on `listener` the port that reads `source`.
void wire(grid_programme& g, int listener, int source) {
    const int p = g.port_towards(listener, source);
    ASSERT_GE(p, 0);
    g.ports[static_cast<std::size_t>(listener)] |= static_cast<std::uint16_t>(1u << p);
}

/// A at (3,3) -> fan-out F at (5,3) [port (-2,0)] -> synapse S at (6,3) [port (-1,0)]
/// -> neuron B at (7,3) [port (-1,0)]. S has weight w, delay d.
grid_programme relay_line(int w, int d, int fifo_depth = 16) {
    grid_params params = grid_preset("tiny");
    params.rules.fifo_depth = fifo_depth;
    grid_programme g(params);
    const int a = g.index(3, 3), f = g.index(5, 3), s = g.index(6, 3), b = g.index(7, 3);
    g.kind[static_cast<std::size_t>(a)] = element_kind::neuron;
    g.threshold[static_cast<std::size_t>(a)] = 1;
    g.refractory[static_cast<std::size_t>(a)] = 0;
    g.kind[static_cast<std::size_t>(f)] = element_kind::fanout;
    g.kind[static_cast<std::size_t>(s)] = element_kind::synapse;
    g.weight[static_cast<std::size_t>(s)] = w;
    g.delay[static_cast<std::size_t>(s)] = d;
    g.kind[static_cast<std::size_t>(b)] = element_kind::neuron;
    g.threshold[static_cast<std::size_t>(b)] = 1;
    g.refractory[static_cast<std::size_t>(b)] = 1;
    wire(g, f, a);
    wire(g, s, f);
    wire(g, b, s);
    g.nodes = {{0, "a", a}, {1, "b", b}};
    g.synapse_cells = {s};
    g.inputs = {0};
    g.outputs = {1};
    return g;
}

}  // namespace

TEST(danna_grid, port_offsets_are_the_16_published_neighbours) {
    const auto o = default_port_offsets();
    int ring = 0, far = 0;
    for (const auto& c : o) {
        const int cheb = std::max(std::abs(c.x), std::abs(c.y));
        if (cheb == 1) ++ring;
        if (cheb == 2) {
            ++far;
            EXPECT_TRUE(c.x == 0 || c.y == 0 || std::abs(c.x) == std::abs(c.y));
        }
    }
    EXPECT_EQ(ring, 8);
    EXPECT_EQ(far, 8);
}

TEST(danna_grid, fanout_relays_one_cycle_later_and_synapse_delays_from_there) {
    grid_engine e(relay_line(1, 2));
    std::vector<fire_event> fires;
    e.inject(0, 0, 1);
    cycle_monitor m(16, 16, 0, 5);
    e.set_monitor(&m);
    e.run_until(6, fires);
    // A fires at 0, F relays at 1, S delivers at 1 + 2 = 3, B fires at 3.
    ASSERT_EQ(fires.size(), 2u);
    EXPECT_EQ(fires[0].neuron, 0u);
    EXPECT_EQ(fires[0].cycle, 0);
    EXPECT_EQ(fires[1].neuron, 1u);
    EXPECT_EQ(fires[1].cycle, 3);
    EXPECT_EQ(e.counts().fanout_relays, 1);
    // The monitor window is cycles 0..4: 5 frames with the fired bits above.
    ASSERT_EQ(m.frames(), 5u);
    const grid_programme g = relay_line(1, 2);
    EXPECT_TRUE(m.fired(0, g.index(3, 3)));
    EXPECT_TRUE(m.fired(1, g.index(5, 3)));
    EXPECT_FALSE(m.fired(2, g.index(6, 3)));
    EXPECT_TRUE(m.fired(3, g.index(6, 3)));
    EXPECT_TRUE(m.fired(3, g.index(7, 3)));
    EXPECT_FALSE(m.fired(4, g.index(7, 3)));
}

TEST(danna_grid, monitor_records_charges_of_neurons) {
    grid_engine e(relay_line(1, 2));
    // B's threshold is 1; give A an input that does not fire it? A's threshold is 1, so use
    // a negative input: charge -5 stays (no leak).
    std::vector<fire_event> fires;
    e.inject(0, 1, -5);
    cycle_monitor m(16, 16, 1, 3);
    e.set_monitor(&m);
    e.run_until(4, fires);
    ASSERT_EQ(m.frames(), 2u);
    EXPECT_EQ(m.cycle(0), 1);
    EXPECT_EQ(m.charge(0, relay_line(1, 2).index(3, 3)), -5);
    EXPECT_EQ(m.charge(1, relay_line(1, 2).index(3, 3)), -5);
    EXPECT_EQ(e.charge(0), -5);
}

TEST(danna_grid, disabled_port_is_not_read) {
    grid_programme g = relay_line(1, 2);
    g.ports[static_cast<std::size_t>(g.index(7, 3))] = 0;     // B no longer reads S
    EXPECT_THROW(grid_engine{g}, volley::invalid_parameter);  // S would have no target
}

TEST(danna_grid, fifo_overflow_on_the_grid_is_counted) {
    grid_engine e(relay_line(1, 6, 2));
    std::vector<fire_event> fires;
    for (int t = 0; t < 4; ++t) e.inject(0, t, 1);
    e.run_until(12, fires);
    // A fires at 0..3, F relays at 1..4; S holds at most 2 (due 7 and 8): relays at 3, 4
    // are dropped. B fires at 7 (refractory 1 drops the delivery at 8).
    EXPECT_EQ(e.counts().fifo_overflows, 2);
    EXPECT_EQ(e.counts().fanout_relays, 4);
    EXPECT_EQ(e.counts().refractory_drops, 1);
    ASSERT_EQ(fires.size(), 5u);
    EXPECT_EQ(fires.back().cycle, 7);
}

TEST(danna_grid, learning_saturates_weights_at_8_bits) {
    grid_programme g = relay_line(127, 1);
    g.learning[static_cast<std::size_t>(g.index(6, 3))] = 1;
    grid_engine e(g);
    std::vector<fire_event> fires;
    e.inject(0, 0, 1);
    e.inject(0, 1, 1);
    e.run_until(6, fires);
    // Delivery at 2 fires B (LTP, saturated at 127); delivery at 3 hits refractory B: 126.
    EXPECT_EQ(e.weights()[0], 126);
    EXPECT_EQ(e.counts().ltp_updates, 1);
    EXPECT_EQ(e.counts().ltd_updates, 1);
}

TEST(danna_grid, programme_round_trips_through_json) {
    grid_programme g = relay_line(-7, 3);
    const auto back = grid_programme::from_json(g.to_json(), "<test>");
    EXPECT_EQ(back.kind, g.kind);
    EXPECT_EQ(back.ports, g.ports);
    EXPECT_EQ(back.weight, g.weight);
    EXPECT_EQ(back.delay, g.delay);
    const auto net = back.network();
    ASSERT_EQ(net.synapses.size(), 1u);
    EXPECT_EQ(net.synapses[0].delay, 4);  // 3 after one fan-out hop
    EXPECT_EQ(net.synapses[0].weight, -7);
}

TEST(danna_grid, programme_json_errors_name_the_element) {
    auto j = relay_line(1, 2).to_json();
    j["elements"][1]["kind"] = "axon";
    try {
        grid_programme::from_json(j, "p.json");
        FAIL();
    } catch (const volley::file_format_error& e) {
        EXPECT_NE(std::string(e.what()).find("/elements/1/kind"), std::string::npos) << e.what();
    }
}

// nlohmann's get<int>() turned 1e100 into an int (undefined behaviour, UBSan's report) and
// get<uint16_t>() wrapped 65537 to 1; each is now refused with the field's path.
TEST(danna_grid, programme_json_integers_out_of_range_are_refused_with_their_path) {
    const auto programme = relay_line(1, 2).to_json();
    std::size_t synapse = 0;
    while (programme["elements"][synapse]["kind"] != "synapse") ++synapse;
    const std::string weight = "/elements/" + std::to_string(synapse) + "/weight";
    const auto refused = [&](const std::string& pointer, const nlohmann::json& value) {
        auto j = programme;
        j[nlohmann::json::json_pointer(pointer)] = value;
        try {
            grid_programme::from_json(j, "p.json");
            ADD_FAILURE() << pointer << " = " << value.dump() << " was accepted";
        } catch (const volley::file_format_error& e) {
            EXPECT_NE(std::string(e.what()).find(pointer), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(value.dump()), std::string::npos) << e.what();
        }
    };
    refused("/elements/0/x", 1e100);
    refused("/elements/0/threshold", 2.5);
    refused("/elements/1/ports", 65537);
    refused(weight, -3000000000.0);
    refused("/nodes/0/id", -1);
    refused("/synapses/0/1", 4294967296.0);
    refused("/inputs/0", "0");
}

TEST(danna_grid, grid_params_integer_out_of_range_is_an_invalid_parameter) {
    auto j = relay_line(1, 2).to_json();
    j["params"]["max_delay"] = 1e300;
    EXPECT_THROW(grid_programme::from_json(j, "p.json"), volley::file_format_error);
    nlohmann::json params = {{"width", 4294967296LL}};
    try {
        grid_params::from_json(params);
        FAIL();
    } catch (const volley::invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("width"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("4294967296"), std::string::npos) << e.what();
    }
}

TEST(danna_place_and_route, fan_in_over_16_names_the_node) {
    auto net = neurons({});
    for (node_id i = 0; i < 18; ++i) net.neurons.push_back({i, 1, 1, "", {}});
    for (node_id i = 1; i < 18; ++i) net.synapses.push_back({i, 0, 1, 5, false});
    try {
        place_and_route(net, grid_preset("fpga2014"));
        FAIL();
    } catch (const volley::unroutable_network& e) {
        EXPECT_EQ(e.object(), "node 0");
        EXPECT_NE(std::string(e.what()).find("fan-in 17"), std::string::npos) << e.what();
    }
}

TEST(danna_place_and_route, delay_shorter_than_the_path_names_the_edge) {
    // Neuron sites are 3 cells apart; 2 <-> 3 with delay 1 needs a direct reach, but a
    // long ring of 20 neurons on fpga2014 forces some edges far apart. Simpler: one edge
    // between the two ends of a chain that the placer pulls apart is not guaranteed, so
    // use a grid where the only sites are far apart: spacing 8.
    grid_params p = grid_preset("tiny");
    p.neuron_spacing = 12;  // sites at x, y in {1, 13}: 4 sites, 12 cells apart
    auto net = neurons({{1, 1}, {1, 1}, {1, 1}, {1, 1}});
    net.synapses = {{0, 1, 1, 1, false},
                    {1, 2, 1, 1, false},
                    {2, 3, 1, 1, false},
                    {3, 0, 1, 1, false},
                    {0, 2, 1, 1, false}};
    try {
        place_and_route(net, p);
        FAIL();
    } catch (const volley::unroutable_network& e) {
        EXPECT_NE(e.object().find("edge"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("shorter than the path"), std::string::npos)
            << e.what();
    }
}

TEST(danna_place_and_route, more_neurons_than_sites_is_reported) {
    auto net = neurons({});
    for (node_id i = 0; i < 30; ++i) net.neurons.push_back({i, 1, 1, "", {}});
    try {
        place_and_route(net, grid_preset("tiny"));  // 5 x 5 = 25 sites
        FAIL();
    } catch (const volley::unroutable_network& e) {
        EXPECT_EQ(e.object(), "network");
        EXPECT_NE(std::string(e.what()).find("30 neurons"), std::string::npos) << e.what();
    }
}

TEST(danna_place_and_route, wall_of_occupied_cells_gives_no_free_path) {
    // A 10 x 3 grid: A at (1,1), B at (8,1), columns 4 and 5 filled with unrelated elements.
    // Ports reach at most 2 cells, so nothing can cross the 2-cell wall.
    grid_params p = grid_preset("tiny");
    p.width = 10;
    p.height = 3;
    grid_programme g(p);
    for (int y = 0; y < 3; ++y)
        for (int x : {4, 5}) g.kind[static_cast<std::size_t>(g.index(x, y))] = element_kind::neuron;
    const std::vector<int> cells = {g.index(1, 1), g.index(8, 1)};
    for (int c : cells) g.kind[static_cast<std::size_t>(c)] = element_kind::neuron;
    auto net = neurons({{1, 1}, {1, 1}});
    net.synapses = {{0, 1, 1, 50, false}};
    try {
        volley::danna::detail::route_synapses(net, cells, g);
        FAIL();
    } catch (const volley::unroutable_network& e) {
        EXPECT_EQ(e.object(), "edge 0 -> 1");
        EXPECT_NE(std::string(e.what()).find("no free path"), std::string::npos) << e.what();
    }
    // Without the wall: B's port cells have x >= 6, so a synapse reads from x >= 4, while
    // A at x = 1 is read from x <= 3. One fan-out cannot be both (x <= 3 and x >= 4); two
    // can: F1 at x = 3 reads A, F2 at x = 4 or 5 reads F1, the synapse reads F2.
    for (int y = 0; y < 3; ++y)
        for (int x : {4, 5}) g.kind[static_cast<std::size_t>(g.index(x, y))] = element_kind::empty;
    const auto hops = volley::danna::detail::route_synapses(net, cells, g);
    ASSERT_EQ(hops.size(), 1u);
    EXPECT_EQ(hops[0], 2);
    EXPECT_EQ(g.delay[static_cast<std::size_t>(g.synapse_cells[0])], 48);  // 50 - 2
}

TEST(danna_place_and_route, is_deterministic_for_a_seed_and_reports_counts) {
    auto net = neurons({{1, 1}, {2, 1}, {3, 1}, {1, 0}, {2, 2}, {1, 1}});
    for (node_id a = 0; a < 6; ++a)
        for (node_id b = 0; b < 6; ++b)
            if ((a * 7 + b * 3) % 4 == 0) net.synapses.push_back({a, b, 3, 8, false});
    net.inputs = {0};
    net.outputs = {5};
    const auto one = place_and_route(net, grid_preset("tiny"), {.seed = 9});
    const auto two = place_and_route(net, grid_preset("tiny"), {.seed = 9});
    EXPECT_EQ(one.programme.to_json(), two.programme.to_json());
    EXPECT_EQ(one.report.elements.at("neuron"), 6);
    EXPECT_EQ(one.report.elements.at("synapse"), static_cast<std::int64_t>(net.synapses.size()));
    EXPECT_EQ(one.report.elements.at("fanout"),
              one.report.fanout_hops > 0 ? one.report.elements.at("fanout") : 0);
    const std::int64_t used =
        6 + static_cast<std::int64_t>(net.synapses.size()) + one.report.elements.at("fanout");
    EXPECT_DOUBLE_EQ(one.report.utilisation, static_cast<double>(used) / 256);
    EXPECT_NE(layout_svg(one.programme).find("<svg"), std::string::npos);
    // On a 65x65 grid the picture shows the window the network uses, not 4,225 cells: each
    // element drawn once, every neuron labelled.
    const auto big = place_and_route(net, grid_preset("fpga2014"), {.seed = 9});
    const auto svg = layout_svg(big.programme);
    std::size_t cells = 0;
    for (auto at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) ++cells;
    EXPECT_LT(cells, 65u * 65u) << "the whole grid was drawn";
    EXPECT_GE(cells, static_cast<std::size_t>(used));
    for (node_id n = 0; n < 6; ++n)
        EXPECT_NE(svg.find(">" + std::to_string(n) + "</text>"), std::string::npos) << "neuron " << n << " unlabelled";
}
