// The Volley network JSON format: round trips and errors that name the path and the value.

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace vs = volley::snn;

namespace {

vs::network every_feature() {
    vs::network net;
    auto a = net.add_population("a", 20, vs::lif_exp{{.tau_m_ms = 15}});
    auto b = net.add_population("b", 10, vs::lif_alpha{});
    auto c = net.add_population("c", 5, vs::lif_delta{});
    auto p = net.add_population("noise", 8, vs::poisson_source{{.rate_hz = 30, .start_ms = 5, .stop_ms = 80}});
    auto s = net.add_population("stim", 2, vs::spike_source{{{1.0, 2.5}, {3.0}}});
    net.set_parameter(a, "v_thresh_mv", vs::uniform{-51, -49});
    net.set_parameter(b, "tau_m_ms", std::vector<double>(10, 12.5));
    net.initialise(a, "v_mv", vs::normal{-55, 2});
    net.initialise(b, "i_syn_e_mv", 0.5);
    net.connect(a, b, vs::fixed_probability{0.3, false}, {.weight = vs::normal{1, 0.1}, .delay_ms = vs::uniform{0.5, 2}});
    net.connect(a, a, vs::fixed_in_degree{4, false}, {.weight = -2.0, .delay_ms = 1.0, .receptor = vs::inhibitory});
    net.connect(b, c, vs::all_to_all{}, {.weight = std::vector<double>(50, 0.25), .delay_ms = 0.3});
    net.connect(c, c, vs::one_to_one{}, {.weight = 1.0, .delay_ms = std::vector<double>{1, 2, 3, 4, 5}});
    net.connect(p, a, vs::from_list{{0, 1, 7}, {3, 3, 19}}, {.weight = std::vector<double>{1, 2, 3}});
    net.connect(s, b, vs::all_to_all{});
    std::vector<double> u(10);
    for (std::size_t k = 0; k < u.size(); ++k) u[k] = 0.1 + 0.05 * static_cast<double>(k);
    net.connect(s, c, vs::all_to_all{},
                {.weight = 0.5, .delay_ms = 1.0,
                 .plasticity = vs::tsodyks_markram{.u = u, .tau_rec_ms = 300.0, .tau_facil_ms = 20.0, .tau_psc_ms = 2.0}});
    net.connect(s, a, vs::all_to_all{}, {.weight = 1.0, .delay_ms = 0.5, .plasticity = vs::stochastic_release{0.25}});
    net.connect(s, c, vs::all_to_all{},
                {.weight = 0.5, .delay_ms = 0.5,
                 .plasticity = vs::quantal_release{.u = 0.3, .tau_rec_ms = 50.0, .tau_facil_ms = std::vector<double>(10, 20),
                                                   .sites = 4.0, .initial_available = std::vector<double>(10, 2)}});
    net.connect(s, b, vs::all_to_all{}, {.weight = 0.5, .delay_ms = 0.5, .plasticity = vs::quantal_release{}});
    net.inject(a, vs::dc_current{.amplitude_mv = 3, .start_ms = 10, .stop_ms = 20}, {1, 2});
    net.inject(c, vs::step_current{{0, 5, 10}, {1, -1, 0}});
    net.inject(b, vs::ac_current{.amplitude_mv = 2, .offset_mv = 0.5, .frequency_hz = 40, .phase_deg = 90, .start_ms = 3,
                                 .stop_ms = 40});
    net.inject(a, vs::noise_current{.mean_mv = 1, .stdev_mv = 0.25, .interval_ms = 0.5, .start_ms = 2}, {0, 3});
    return net;
}

std::string error_of(const std::string& text) {
    try {
        vs::parse_network_json(text, "bad.json");
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(e.file(), "bad.json");
        return e.what();
    }
    ADD_FAILURE() << "no file_format_error for: " << text;
    return {};
}

const std::string header = R"("format": "volley-network", "version": 1, )";

}  // namespace

TEST(NetworkJson, RoundTripGivesAnEqualNetwork) {
    const auto net = every_feature();
    const vs::run_settings run{.dt_ms = 0.05, .duration_ms = 250, .seed = 7};
    const auto text = vs::to_network_json(net, run);
    const auto back = vs::parse_network_json(text);
    EXPECT_TRUE(back.net == net);
    EXPECT_TRUE(back.run == run);
    EXPECT_EQ(vs::to_network_json(back.net, back.run), text);
}

TEST(NetworkJson, SaveLoadThroughAFileAndRunsTheSame) {
    const auto net = every_feature();
    const auto path = std::filesystem::temp_directory_path() / "volley_test_roundtrip.json";
    vs::save_network_json(net, path);
    const auto back = vs::load_network_json(path);
    std::filesystem::remove(path);
    ASSERT_TRUE(back.net == net);
    auto raster = [](const vs::network& n) {
        vs::simulation sim(n, {.threads = 1}, {.dt_ms = 0.1, .seed = 3});
        auto r = sim.record_spikes(n.find("a"));
        auto r2 = sim.record_spikes(n.find("c"));
        sim.run(100);
        return std::make_pair(r.steps(), r2.steps());
    };
    EXPECT_EQ(raster(net), raster(back.net));
}

TEST(NetworkJson, MalformedJsonNamesTheFile) {
    const auto msg = error_of("{\"format\": ");
    EXPECT_NE(msg.find("bad.json"), std::string::npos);
    EXPECT_NE(msg.find("malformed JSON"), std::string::npos);
}

TEST(NetworkJson, WrongFormatAndVersionAreRejected) {
    EXPECT_NE(error_of(R"({"format": "nest", "version": 1, "populations": []})").find("\"nest\""), std::string::npos);
    const auto msg = error_of(R"({"format": "volley-network", "version": 99, "populations": []})");
    EXPECT_NE(msg.find("/version"), std::string::npos);
    EXPECT_NE(msg.find("99"), std::string::npos);
}

TEST(NetworkJson, UnknownKeyNamesItsPath) {
    const auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp", "sise": 4}]})");
    EXPECT_NE(msg.find("/populations/0/sise"), std::string::npos);
    EXPECT_NE(msg.find("unknown key 'sise'"), std::string::npos);
}

TEST(NetworkJson, UnknownModelNamesPathAndName) {
    const auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "hh_cond"}]})");
    EXPECT_NE(msg.find("/populations/0/model"), std::string::npos);
    EXPECT_NE(msg.find("hh_cond"), std::string::npos);
}

TEST(NetworkJson, NegativeTauNamesParameterAndValue) {
    const auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp", "params": {"tau_m_ms": -4}}]})");
    EXPECT_NE(msg.find("/populations/0"), std::string::npos);
    EXPECT_NE(msg.find("tau_m_ms"), std::string::npos);
    EXPECT_NE(msg.find("-4"), std::string::npos);
}

TEST(NetworkJson, WrongTypeNamesPathAndValue) {
    const auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": "many", "model": "lif_exp"}]})");
    EXPECT_NE(msg.find("/populations/0/size"), std::string::npos);
    EXPECT_NE(msg.find("\"many\""), std::string::npos);
}

TEST(NetworkJson, MissingPopulationInProjection) {
    const auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp"}],
        "projections": [{"source": "a", "target": "ghost", "connector": {"type": "all_to_all"}}]})");
    EXPECT_NE(msg.find("/projections/0/target"), std::string::npos);
    EXPECT_NE(msg.find("ghost"), std::string::npos);
}

TEST(NetworkJson, NegativeDelayNamesProjectionAndValue) {
    const auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp"}],
        "projections": [{"source": "a", "target": "a", "connector": {"type": "all_to_all"}, "delay_ms": -0.5}]})");
    EXPECT_NE(msg.find("/projections/0"), std::string::npos);
    EXPECT_NE(msg.find("delay_ms = -0.5"), std::string::npos);
}

// A constant delay of 0 (same-step delivery) is valid in the file and survives a round trip;
// the engine refuses it later only on a cycle (test_zero_delay).
TEST(NetworkJson, ZeroDelayRoundTrips) {
    const auto text = "{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp"},
        {"name": "b", "size": 2, "model": "lif_exp"}],
        "projections": [{"source": "a", "target": "b", "connector": {"type": "all_to_all"}, "delay_ms": 0}]})";
    const auto net = vs::parse_network_json(text, "zero.json").net;
    EXPECT_EQ(std::get<double>(net.projections().at(0).synapse.delay_ms), 0.0);
    EXPECT_EQ(vs::parse_network_json(vs::to_network_json(net), "again.json").net, net);
}

TEST(NetworkJson, SineAndNoiseCurrentsReadWithDefaultsAndNameBadValues) {
    const auto f = vs::parse_network_json("{" + header + R"("populations": [{"name": "p", "size": 2, "model": "lif_exp"}],
        "currents": [{"target": "p", "type": "ac", "amplitude_mv": 1, "frequency_hz": 10},
                     {"target": "p", "type": "noise", "mean_mv": 0, "stdev_mv": 2}]})");
    ASSERT_EQ(f.net.stimuli().size(), 2u);
    EXPECT_TRUE(f.net.stimuli()[0].waveform == vs::current_waveform(vs::ac_current{.amplitude_mv = 1, .frequency_hz = 10}));
    EXPECT_TRUE(f.net.stimuli()[1].waveform == vs::current_waveform(vs::noise_current{.mean_mv = 0, .stdev_mv = 2}));
    const auto e = error_of("{" + header + R"("populations": [{"name": "p", "size": 2, "model": "lif_exp"}],
        "currents": [{"target": "p", "type": "noise", "mean_mv": 0, "stdev_mv": -2}]})");
    EXPECT_NE(e.find("stdev_mv = -2"), std::string::npos) << e;
    const auto u = error_of("{" + header + R"("populations": [{"name": "p", "size": 2, "model": "lif_exp"}],
        "currents": [{"target": "p", "type": "sine", "amplitude_mv": 1}]})");
    EXPECT_NE(u.find("known: dc, step, ac, noise"), std::string::npos) << u;
}

TEST(NetworkJson, UnknownConnectorAndReceptor) {
    auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp"}],
        "projections": [{"source": "a", "target": "a", "connector": {"type": "small_world"}}]})");
    EXPECT_NE(msg.find("/projections/0/connector/type"), std::string::npos);
    EXPECT_NE(msg.find("small_world"), std::string::npos);
    msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp"}],
        "projections": [{"source": "a", "target": "a", "connector": {"type": "one_to_one"}, "receptor": "nmda"}]})");
    EXPECT_NE(msg.find("/projections/0/receptor"), std::string::npos);
    EXPECT_NE(msg.find("nmda"), std::string::npos);
}

TEST(NetworkJson, BadValueSpecNamesPath) {
    const auto msg = error_of("{" + header + R"("populations": [{"name": "a", "size": 3, "model": "lif_exp",
        "initial": {"v_mv": {"gamma": [1, 2]}}}]})");
    EXPECT_NE(msg.find("/populations/0/initial/v_mv"), std::string::npos);
    EXPECT_NE(msg.find("gamma"), std::string::npos);
}

TEST(NetworkJson, MissingFileIsAnIoError) {
    EXPECT_THROW(vs::load_network_json("/nonexistent/dir/net.json"), volley::io_error);
}

TEST(NetworkJson, FailedSaveLeavesTheOldFileIntact) {
    const auto dir = std::filesystem::temp_directory_path() / "volley_test_save_dir";
    std::filesystem::create_directories(dir);
    const auto path = dir / "net.json";
    vs::save_network_json(every_feature(), path);
    const auto before = std::filesystem::file_size(path);
    // A directory in the way of the temporary file makes the save fail before the rename.
    std::filesystem::create_directories(dir / "net.json.tmp");
    EXPECT_THROW(vs::save_network_json(vs::network{}, path), volley::io_error);
    EXPECT_EQ(std::filesystem::file_size(path), before);
    std::filesystem::remove_all(dir);
}
