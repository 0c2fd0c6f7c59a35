// The cart-pole control task (docs/control.md): the dynamics against Gymnasium CartPole-v1's
// equations worked by hand and by an independent float64 implementation, the seeded starts,
// the flip-flop and argyle encoders and the winner-takes-all decoder against hand-worked
// cases, the settings' JSON (built-in and bad files), and a small network of our own through
// whole episodes against the same policy written directly; the curriculum's stages and
// validation rounds against the failed starts found independently.

#include <volley/error.hpp>
#include <volley/temporal/cartpole.hpp>
#include <volley/temporal/cartpole_curriculum.hpp>
#include <volley/temporal/cartpole_setting.hpp>
#include <volley/temporal/control_coding.hpp>
#include <volley/temporal/control_episode.hpp>
#include <volley/temporal/control_replay.hpp>
#include <volley/temporal/evaluation_task.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace {

using namespace volley::temporal;

TEST(CartpoleDynamics, FromRestAPushMatchesTheEquationsWorkedByHand) {
    // θ = 0, θ̇ = 0, F = +10: temp = 100/11, θ̈ = −temp / (0.5·(4/3 − 1/11)) = −600/41,
    // ẍ = temp + 0.05·(600/41)/1.1 = 4400/451; one Euler step of 0.02 s.
    const auto s = cartpole_step({}, 10.0);
    EXPECT_EQ(s.x, 0.0);
    EXPECT_EQ(s.theta, 0.0);
    EXPECT_NEAR(s.x_dot, 0.02 * 4400.0 / 451.0, 1e-15);
    EXPECT_NEAR(s.theta_dot, -0.02 * 600.0 / 41.0, 1e-15);
    // Upright at rest with no force stays there exactly.
    const auto still = cartpole_step({}, 0.0);
    EXPECT_EQ(still.x_dot, 0.0);
    EXPECT_EQ(still.theta_dot, 0.0);
    // The push is odd in F: left mirrors right.
    const auto l = cartpole_step({}, -10.0);
    EXPECT_EQ(l.x_dot, -s.x_dot);
    EXPECT_EQ(l.theta_dot, -s.theta_dot);
}

TEST(CartpoleDynamics, FiveStepsMatchAnIndependentFloat64Implementation) {
    // Gymnasium CartPole-v1's step() written out in Python (float64, math.sin/cos), from
    // (0.03, −0.02, 0.05, 0.1) under forces +10, −10, 0, +10, +10 (docs/control.md).
    const double expected[5][4] = {
        {0.029599999999999998, 0.17437103411784763, 0.052000000000000005, -0.17649830564207933},
        {0.03308742068235695, -0.021455039916346313, 0.04847003388715842, 0.13212487075026078},
        {0.03265831988403002, -0.022148138678144663, 0.05111253130216364, 0.14740790873778098},
        {0.03221535711046713, 0.17220602314722008, 0.054060689476919256, -0.12872206350814952},
        {0.03565947757341153, 0.3665135367869222, 0.05148624820675626, -0.4038714293728521}};
    const double forces[5] = {10, -10, 0, 10, 10};
    cartpole_state s{0.03, -0.02, 0.05, 0.1};
    for (int k = 0; k < 5; ++k) {
        s = cartpole_step(s, forces[k]);
        const auto v = s.values();
        for (int i = 0; i < 4; ++i) EXPECT_NEAR(v[i], expected[k][i], 1e-15) << "step " << k << " value " << i;
    }
}

TEST(CartpoleDynamics, TheEpisodeEndsPastTwelveDegreesOrTwoPointFourMetres) {
    const double twelve = 12.0 * 2.0 * M_PI / 360.0;
    EXPECT_FALSE(cartpole_failed({2.4, 0, twelve, 0}));
    EXPECT_TRUE(cartpole_failed({2.4000001, 0, 0, 0}));
    EXPECT_TRUE(cartpole_failed({-2.4000001, 0, 0, 0}));
    EXPECT_TRUE(cartpole_failed({0, 0, twelve + 1e-9, 0}));
    EXPECT_TRUE(cartpole_failed({0, 0, -twelve - 1e-9, 0}));
}

TEST(CartpoleStarts, AreSeededUniformAndWithinTheRanges) {
    const auto r = default_start_ranges();
    double mean[4] = {0, 0, 0, 0};
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
        const auto v = cartpole_start(r, 7, static_cast<std::uint64_t>(i)).values();
        for (int k = 0; k < 4; ++k) {
            EXPECT_GE(v[k], r[k].lo);
            EXPECT_LE(v[k], r[k].hi);
            mean[k] += v[k] / n;
        }
    }
    // Uniform on a symmetric range: the mean is 0 within 4 standard errors (σ = span/√12).
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(mean[k], 0.0, 4 * (r[k].hi - r[k].lo) / std::sqrt(12.0 * n)) << k;
    EXPECT_EQ(cartpole_start(r, 7, 3).values(), cartpole_start(r, 7, 3).values());
    EXPECT_NE(cartpole_start(r, 7, 3).values(), cartpole_start(r, 8, 3).values());
    EXPECT_NE(cartpole_start(r, 7, 3).values(), cartpole_start(r, 7, 4).values());
}

observation_coding flip_flop4() {
    observation_coding c;
    c.ranges = {2.4, 2.0, 0.209, 2.0};
    return c;
}

TEST(ControlCoding, FlipFlopWorkedByHand) {
    // n = min(8, ⌈8|v|/R⌉) on input 2i (v ≤ 0) or 2i+1 (v > 0): 8·1.17261/2.4 = 3.909 → 4;
    // 8·0.201336/2 = 0.805 → 1; 8·0.0686158/0.209 = 2.626 → 3; 8·0.40251/2 = 1.610 → 2.
    EXPECT_EQ(encode_observation({-1.17261, 0.201336, -0.0686158, 0.40251}, flip_flop4()),
              (std::vector<int>{4, 0, 0, 1, 3, 0, 0, 2}));
    // Zero gives no spike; beyond the range, eight; exactly R/8, one.
    EXPECT_EQ(encode_observation({0.0, 5.0, -1.0, 0.25}, flip_flop4()), (std::vector<int>{0, 0, 0, 8, 8, 0, 0, 1}));
    EXPECT_THROW(encode_observation({0.0, 0.0, 0.0}, flip_flop4()), volley::invalid_parameter);
    EXPECT_THROW(encode_observation({0.0, NAN, 0.0, 0.0}, flip_flop4()), volley::invalid_parameter);
}

TEST(ControlCoding, ArgyleWorkedByHand) {
    observation_coding c;
    c.encoder = value_encoder::argyle;
    c.ranges = {2.4};
    ASSERT_EQ(c.inputs(), 4);
    // Centres −1, −1/3, 1/3, 1; n_k = max(0, ⌈8(1 − 1.5|u − c_k|)⌉).
    // u = −0.5: distances 0.5, 1/6, 5/6, 1.5 → 2, 6, 0, 0.
    EXPECT_EQ(encode_observation({-1.2}, c), (std::vector<int>{2, 6, 0, 0}));
    // u = 0: 1, 1/3, 1/3, 1 → 0, 4, 4, 0.
    EXPECT_EQ(encode_observation({0.0}, c), (std::vector<int>{0, 4, 4, 0}));
    // u = 0.1: 1.1, 0.4333, 0.2333, 0.9 → 0, ⌈2.8⌉ = 3, ⌈5.2⌉ = 6, 0.
    EXPECT_EQ(encode_observation({0.24}, c), (std::vector<int>{0, 3, 6, 0}));
    // At a centre, eight on that input alone; beyond the range, as at its end.
    EXPECT_EQ(encode_observation({2.4}, c), (std::vector<int>{0, 0, 0, 8}));
    EXPECT_EQ(encode_observation({-9.0}, c), (std::vector<int>{8, 0, 0, 0}));
}

TEST(ControlCoding, SpikesEveryThirdTimestep) {
    const auto spikes = observation_spikes({2, 0, 3}, {5, 6, 7}, 3);
    ASSERT_EQ(spikes.size(), 5u);
    EXPECT_EQ(spikes[0].id, 5u);
    EXPECT_EQ(spikes[1].time, 3.0);
    EXPECT_EQ(spikes[2].id, 7u);
    EXPECT_EQ(spikes[4].time, 6.0);
}

TEST(ControlCoding, WinnerTakesAllWithTiesToTheLowestIndex) {
    EXPECT_EQ(winner_takes_all({3, 4}), 1);
    EXPECT_EQ(winner_takes_all({4, 4}), 0);
    EXPECT_EQ(winner_takes_all({0, 0, 0}), 0);
    EXPECT_EQ(winner_takes_all({1, 5, 5}), 1);
    EXPECT_THROW(winner_takes_all({}), volley::invalid_parameter);
}

TEST(CartpoleSettings, TheFourBuiltInSettings) {
    const auto easy = cartpole_setting::load("easy");
    EXPECT_EQ(easy.inputs(), 8);
    EXPECT_EQ(easy.outputs(), 2);
    EXPECT_EQ(easy.episode_steps, 15000);
    const auto medium = cartpole_setting::load("medium");
    EXPECT_EQ(medium.inputs(), 8);
    EXPECT_EQ(medium.outputs(), 3);
    EXPECT_EQ(medium.actions[0], cartpole_action::nothing);
    const auto hard = cartpole_setting::load("hard");
    EXPECT_EQ(hard.inputs(), 4);
    EXPECT_EQ(hard.outputs(), 3);
    EXPECT_EQ(hard.observe({1, 2, 3, 4}), (std::vector<double>{1, 3}));
    const auto hardest = cartpole_setting::load("hardest");
    EXPECT_EQ(hardest.inputs(), 8);
    EXPECT_EQ(hardest.outputs(), 2);
    EXPECT_EQ(hardest.coding.encoder, value_encoder::argyle);
    // to_json reads back to the same setting.
    const auto again = cartpole_setting::from_json(hardest.to_json(), "round trip");
    EXPECT_EQ(again.to_json(), hardest.to_json());
    EXPECT_EQ(force_of(cartpole_action::left), -10.0);
    EXPECT_EQ(force_of(cartpole_action::nothing), 0.0);
}

/// The message of what `f` throws as E, or "" when it throws nothing.
template <class E, class F>
std::string message_of(F f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

TEST(CartpoleSettings, BadFilesNameTheFileTheKeyAndTheValue) {
    auto j = cartpole_setting::load("easy").to_json();
    auto bad = j;
    bad["gravity"] = 3;
    auto m = message_of<volley::invalid_parameter>([&] { cartpole_setting::from_json(bad, "mine.json"); });
    EXPECT_NE(m.find("mine.json"), std::string::npos) << m;
    EXPECT_NE(m.find("gravity"), std::string::npos) << m;
    bad = j;
    bad["start_ranges"]["theta"] = {0.1, -0.1};
    m = message_of<volley::invalid_parameter>([&] { cartpole_setting::from_json(bad, "mine.json"); });
    EXPECT_NE(m.find("start_ranges.theta"), std::string::npos) << m;
    bad = j;
    bad["start_ranges"]["x"] = {-3.0, 0.0};
    EXPECT_THROW(cartpole_setting::from_json(bad, "mine.json"), volley::invalid_parameter);
    bad = j;
    bad["actions"] = {"left", "jump"};
    m = message_of<volley::invalid_parameter>([&] { cartpole_setting::from_json(bad, "mine.json"); });
    EXPECT_NE(m.find("jump"), std::string::npos) << m;
    bad = j;
    bad["observations"][1]["range"] = -2.0;
    m = message_of<volley::invalid_parameter>([&] { cartpole_setting::from_json(bad, "mine.json"); });
    EXPECT_NE(m.find("observations[1].range"), std::string::npos) << m;
    bad = j;
    bad["max_spikes"] = 9;  // (9 − 1)·3 = 24 ≥ 24 timesteps
    EXPECT_THROW(cartpole_setting::from_json(bad, "mine.json"), volley::invalid_parameter);
    bad = j;
    bad["encoder"] = "bins";
    EXPECT_THROW(cartpole_setting::from_json(bad, "mine.json"), volley::invalid_parameter);
    EXPECT_THROW(cartpole_setting::load("/nonexistent/setting.json"), volley::io_error);
}

/// A RISP-1+ controller of our own for the easy setting: θ+ and θ̇+ to "right" (output 1),
/// θ− and θ̇− to "left" (output 0), delays 1 and 2 so that their spikes never coincide; every
/// spike passes (weight 1, threshold 1), so the action is right iff n(θ+) + n(θ̇+) >
/// n(θ−) + n(θ̇−).
volley::hw::tennlab_network small_controller(const processor_spec& spec) {
    nlohmann::json net = {{"Properties", nlohmann::json::object()}, {"Nodes", nlohmann::json::array()},
                          {"Edges", nlohmann::json::array()},       {"Inputs", {0, 1, 2, 3, 4, 5, 6, 7}},
                          {"Outputs", {8, 9}},                       {"Network_Values", nlohmann::json::array()},
                          {"Associated_Data", nlohmann::json::object()}};
    net["Properties"] = spec.network_properties().to_json();
    for (int i = 0; i < 10; ++i) net["Nodes"].push_back({{"id", i}, {"values", {1.0}}});
    // Edge values: Weight (index 0), Delay (index 1).
    net["Edges"].push_back({{"from", 5}, {"to", 9}, {"values", {1.0, 1.0}}});
    net["Edges"].push_back({{"from", 7}, {"to", 9}, {"values", {1.0, 2.0}}});
    net["Edges"].push_back({{"from", 4}, {"to", 8}, {"values", {1.0, 1.0}}});
    net["Edges"].push_back({{"from", 6}, {"to", 8}, {"values", {1.0, 2.0}}});
    return volley::hw::tennlab_network::from_json(net, "small controller");
}

TEST(CartpoleEpisode, ASmallNetworkActsAsThePolicyWrittenDirectly) {
    const auto setting = cartpole_setting::load("easy");
    processor_spec spec;
    spec.proc_params = risp_preset("risp-1+");
    const auto net = small_controller(spec);
    network_agent agent(spec, net, setting);
    for (std::uint64_t i = 0; i < 3; ++i) {
        const auto start = cartpole_start(setting.starts, 11, i);
        episode_options o;
        o.keep_trace = true;
        o.max_steps = 3000;
        const auto e = run_cartpole_episode(agent, setting, start, o);
        // The same policy on the encoder's counts, and the same dynamics, without a network.
        cartpole_state s = start;
        int steps = 0;
        for (int k = 0; k < o.max_steps; ++k) {
            const auto c = encode_observation(setting.observe(s), setting.coding);
            const int action = c[5] + c[7] > c[4] + c[6] ? 1 : 0;
            ASSERT_LT(static_cast<std::size_t>(k), e.trace.size());
            ASSERT_EQ(e.trace[static_cast<std::size_t>(k)].action, action) << "start " << i << " step " << k;
            s = cartpole_step(s, action == 1 ? 10.0 : -10.0);
            if (cartpole_failed(s)) break;
            ++steps;
        }
        EXPECT_EQ(e.steps, steps);
        EXPECT_EQ(e.survived, steps == o.max_steps);
        EXPECT_GT(steps, 50) << "the policy balances for a while";
    }
}

TEST(CartpoleEpisode, ANetworkOfTheWrongShapeIsRefused) {
    const auto hard = cartpole_setting::load("hard");
    processor_spec spec;
    spec.proc_params = risp_preset("risp-1+");
    const auto m = message_of<volley::invalid_parameter>([&] { network_agent(spec, small_controller(spec), hard, "net.json"); });
    EXPECT_NE(m.find("net.json"), std::string::npos) << m;
    EXPECT_NE(m.find("inputs"), std::string::npos) << m;
}

TEST(CartpoleTask, FitnessIsTheMeanShareOfTheTrainingEpisodesSurvived) {
    const auto setting = cartpole_setting::load("easy");
    processor_spec spec;
    spec.proc_params = risp_preset("risp-1+");
    cartpole_task_options o;
    o.training_episodes = 3;
    o.training_steps = 400;
    o.seed = 5;
    const cartpole_task task(setting, spec, o);
    const auto net = small_controller(spec);
    network_agent agent(spec, net, setting);
    double total = 0;
    for (const auto& s : task.training_starts()) {
        episode_options eo;
        eo.max_steps = 400;
        total += run_cartpole_episode(agent, setting, s, eo).steps;
    }
    EXPECT_DOUBLE_EQ(task.fitness(net), total / 1200.0);
    const auto shape = task.network_template();
    EXPECT_EQ(shape.inputs, 8);
    EXPECT_EQ(shape.outputs, 2);
    // The test starts are the held-out stream, not the training one.
    EXPECT_NE(task.test_starts()[0].values(), task.training_starts()[0].values());
    EXPECT_EQ(task.test_starts()[0].values(), cartpole_start(setting.starts, test_start_seed, 0).values());
    EXPECT_THROW(risp_preset("risp-2"), volley::unknown_name);
}

TEST(CartpoleTask, ExtraStartsFollowTheTrainingStartsOfTheStream) {
    const auto setting = cartpole_setting::load("easy");
    processor_spec spec;
    spec.proc_params = risp_preset("risp-1+");
    cartpole_task_options o;
    o.training_episodes = 2;
    o.seed = 9;
    o.extra_starts = {{0.5, 0, 0.01, 0}, {-0.5, 0, -0.01, 0}};
    const auto starts = cartpole_task(setting, spec, o).training_starts();
    ASSERT_EQ(starts.size(), 4u);
    EXPECT_EQ(starts[1].values(), cartpole_start(setting.starts, 9, 1).values());
    EXPECT_EQ(starts[2].values(), o.extra_starts[0].values());
    EXPECT_EQ(starts[3].values(), o.extra_starts[1].values());
}

/// The curriculum's pieces on the easy setting with short episodes (400 steps) and the small
/// controller, which fails some starts within them.
struct CartpoleCurriculum : ::testing::Test {
    cartpole_setting setting = cartpole_setting::load("easy");
    processor_spec spec;
    cartpole_task_options base;
    curriculum_options co;
    void SetUp() override {
        spec.proc_params = risp_preset("risp-1+");
        base.training_episodes = 3;
        base.seed = 21;
        co.stage_steps = {50, 400};
        co.validation_starts = 40;
        co.mined_per_round = 2;
    }
    /// Independently: the positions k in [0, 40) such that the controller fails within `steps`
    /// steps from start 3 + k of stream 21, each episode run on a fresh agent.
    std::vector<std::uint64_t> failing(const volley::hw::tennlab_network& net, int steps) const {
        std::vector<std::uint64_t> out;
        for (std::uint64_t k = 0; k < 40; ++k) {
            network_agent agent(spec, net, setting);
            episode_options o;
            o.max_steps = steps;
            if (run_cartpole_episode(agent, setting, cartpole_start(setting.starts, 21, 3 + k), o).steps < steps)
                out.push_back(k);
        }
        return out;
    }
};

TEST_F(CartpoleCurriculum, ValidationRoundsMineTheFailedStartsThenTheNextStageBegins) {
    const cartpole_curriculum c(setting, spec, base, co);
    const auto net = small_controller(spec);
    const auto short_fails = failing(net, 50), expected = failing(net, 400);
    ASSERT_GE(expected.size(), 3u) << "the small controller fails some starts within 400 steps";
    ASSERT_LT(expected.size(), 40u) << "and survives others";
    ASSERT_LT(short_fails.size(), expected.size());
    EXPECT_EQ(c.failed_validation_starts(net, 0), short_fails);
    EXPECT_EQ(c.failed_validation_starts(net, 1), expected);
    EXPECT_EQ(c.task_at({}).get()->options().training_steps, 50);
    // Stage 0: the starts failed within 50 steps are mined two a round; then stage 1 begins.
    curriculum_point p;
    for (std::size_t k = 0; k < short_fails.size(); k += 2) {
        const auto q = c.next(p, net);
        ASSERT_TRUE(q);
        p.mined.insert(p.mined.end(), short_fails.begin() + static_cast<std::ptrdiff_t>(k),
                       short_fails.begin() + static_cast<std::ptrdiff_t>(std::min(k + 2, short_fails.size())));
        EXPECT_EQ(*q, p);
    }
    const auto p1 = c.next(p, net);
    ASSERT_TRUE(p1);
    EXPECT_EQ(*p1, (curriculum_point{1, short_fails}));
    EXPECT_EQ(c.task_at(*p1)->options().training_steps, 400);
    // Stage 1: the first two starts failed within 400 steps, not mined yet, join the training starts.
    std::vector<std::uint64_t> fresh;
    for (const auto k : expected)
        if (std::find(short_fails.begin(), short_fails.end(), k) == short_fails.end()) fresh.push_back(k);
    ASSERT_GE(fresh.size(), 2u);
    const auto p2 = c.next(*p1, net);
    ASSERT_TRUE(p2);
    auto mined = short_fails;
    mined.insert(mined.end(), fresh.begin(), fresh.begin() + 2);
    EXPECT_EQ(*p2, (curriculum_point{1, mined}));
    const auto t2 = c.task_at(*p2);
    ASSERT_EQ(t2->training_starts().size(), 3 + mined.size());
    EXPECT_EQ(t2->training_starts().back().values(), cartpole_start(setting.starts, 21, 3 + fresh[1]).values());
    EXPECT_NE(c.describe(*p2).find(std::to_string(3 + mined.size()) + " training episodes of 400 steps, " +
                                   std::to_string(mined.size()) + " of them mined"),
              std::string::npos)
        << c.describe(*p2);
    // With every failed start mined, the last stage ends the curriculum.
    EXPECT_FALSE(c.next({1, expected}, net));
    // Without validation starts, each stage hands over at once and the last one ends it.
    auto none = co;
    none.validation_starts = 0;
    const cartpole_curriculum bare(setting, spec, base, none);
    EXPECT_EQ(bare.next({}, net), (curriculum_point{1, {}}));
    EXPECT_FALSE(bare.next({1, {}}, net));
}

TEST_F(CartpoleCurriculum, TheCornersOfTheStartBoxComeFirst) {
    co.corner_starts = true;
    co.validation_starts = 2;
    const cartpole_curriculum c(setting, spec, base, co);
    const auto& pool = c.validation_pool();
    ASSERT_EQ(pool.size(), 18u);
    EXPECT_EQ(pool[0].values(), (std::array<double, 4>{-1.2, -0.5, -0.1, -0.5}));
    EXPECT_EQ(pool[6].values(), (std::array<double, 4>{-1.2, 0.5, 0.1, -0.5}));  // 0110
    EXPECT_EQ(pool[15].values(), (std::array<double, 4>{1.2, 0.5, 0.1, 0.5}));
    EXPECT_EQ(pool[16].values(), cartpole_start(setting.starts, 21, 3).values());
    EXPECT_EQ(pool[17].values(), cartpole_start(setting.starts, 21, 4).values());
}

TEST_F(CartpoleCurriculum, PointsRoundTripAndBadOnesAreRefused) {
    const cartpole_curriculum c(setting, spec, base, co);
    const curriculum_point p{1, {4, 17}};
    EXPECT_EQ(curriculum_point::from_json(p.to_json(), "ck.json"), p);
    EXPECT_EQ(curriculum_point::from_json(1, "ck.json"), (curriculum_point{1, {}})) << "older checkpoints: a stage number";
    for (const auto& bad : {nlohmann::json(-1), nlohmann::json("x"), nlohmann::json{{"stage", 0}},
                            nlohmann::json{{"stage", 0}, {"mined", {-3}}}}) {
        const auto m = message_of<volley::invalid_parameter>([&] { curriculum_point::from_json(bad, "ck.json"); });
        EXPECT_NE(m.find("ck.json"), std::string::npos) << m;
    }
    auto m = message_of<volley::invalid_parameter>([&] { c.task_at({2, {}}, "ck.json"); });
    EXPECT_NE(m.find("stage"), std::string::npos) << m;
    m = message_of<volley::invalid_parameter>([&] { c.task_at({1, {40}}, "ck.json"); });
    EXPECT_NE(m.find("mined"), std::string::npos) << m;
    EXPECT_NE(m.find("40"), std::string::npos) << m;
    auto bad = co;
    bad.mined_per_round = 0;
    EXPECT_THROW(cartpole_curriculum(setting, spec, base, bad), volley::invalid_parameter);
    bad = co;
    bad.stage_steps.clear();
    EXPECT_THROW(cartpole_curriculum(setting, spec, base, bad), volley::invalid_parameter);
}

}  // namespace

namespace {

/// A small log of two steps in TENNLab's format, as written to a file of the test's own.
std::filesystem::path write_log(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("volley_cartpole_log_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST(CartpoleLog, EveryTruncationOrFlippedByteIsReadOrRefusedWithAFileFormatError) {
    const std::string good =
        "ML tmp_network.txt\n# Step 0000. Observations: -1.17261 0.201336 -0.0686158 0.40251\n"
        "# Step 0000. I-Spike-C: 4 0 0 1 3 0 0 2\nAS 0 0 1\nRUN 24\nGSR\n# Step 0000. R: 0      1001\n"
        "# Step 0000. O-Spike-C: 3 4\n# Step 0000. Action: 1\n#  0001. Observations: -1.16858 0.397361 -0.0605656 0.0889857\n"
        "#  0001. I-Spike-C: 4 0 0 2 3 0 0 1\n#  0001. O-Spike-C: 3 2\n#  0001. Action: 0\n";
    const auto steps = read_cartpole_log(write_log("good", good).string());
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[1].observations[3], 0.0889857);
    EXPECT_EQ(steps[0].input_counts, (std::vector<int>{4, 0, 0, 1, 3, 0, 0, 2}));
    EXPECT_EQ(steps[1].action, 0);
    int read = 0, refused = 0;
    for (std::size_t cut = 0; cut < good.size(); cut += 7) {
        const auto path = write_log("cut", good.substr(0, cut));
        try {
            read_cartpole_log(path.string());
            ++read;
        } catch (const volley::file_format_error& e) {
            EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
            ++refused;
        }
    }
    for (std::size_t at = 0; at < good.size(); at += 3) {
        std::string bad = good;
        bad[at] = static_cast<char>(bad[at] ^ 0x5a);
        try {
            read_cartpole_log(write_log("flip", bad).string());
            ++read;
        } catch (const volley::file_format_error&) {
            ++refused;
        }
    }
    EXPECT_GT(read, 0);
    EXPECT_GT(refused, 0);
    // A step number too long for an int is refused, not thrown as std::out_of_range.
    EXPECT_THROW(read_cartpole_log(write_log("long", "# Step 123456789012. Observations: 1 2 3 4\n").string()),
                 volley::file_format_error);
    EXPECT_THROW(read_cartpole_log("/nonexistent/log.txt"), volley::io_error);
}
