// fixed_total_number (NEST's rule) and the binomial draws behind its in-degrees, and the
// normal distribution redrawn within bounds (NEST's nest.math.redraw): each against the exact
// distribution it should follow.

#include "../support/snn_test_support.hpp"

#include "build/connectivity.hpp"
#include "build/draw_values.hpp"
#include "random/binomial.hpp"

#include <cmath>
#include <numbers>
#include <numeric>

namespace volley::snn {
namespace {

constexpr double dt = 0.1;

lif_delta cell() { return lif_delta{{.tau_m_ms = 10, .v_rest_mv = -70, .v_reset_mv = -70, .v_thresh_mv = -55}}; }

detail::synapse_list expand(const network& net, std::size_t q, std::uint32_t begin, std::uint32_t end,
                            std::uint64_t seed = 42) {
    detail::synapse_list l;
    detail::expand_projection(net, q, seed, dt, begin, end, l);
    return l;
}

/// Pearson's chi-square of observed counts against expected ones.
double chi_square(const std::vector<double>& observed, const std::vector<double>& expected) {
    double x = 0;
    for (std::size_t i = 0; i < observed.size(); ++i) x += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
    return x;
}

// ---- binomial ---------------------------------------------------------------------------------

/// Binomial pmf by the product of ratios from P(0) = q^n, in long double: a different route
/// from the sampler's (lgamma at the mode).
std::vector<double> binomial_pmf(int n, double p) {
    std::vector<double> f(n + 1);
    long double x = std::pow(static_cast<long double>(1 - p), n);
    for (int k = 0; k <= n; ++k) {
        f[k] = static_cast<double>(x);
        x *= static_cast<long double>(n - k) / (k + 1) * p / (1 - p);
    }
    return f;
}

TEST(binomial, small_n_follows_the_exact_pmf) {
    // 200,000 draws of Binomial(20, 0.3) against the pmf (bins with expected count >= 5 pooled
    // into the tails): chi-square with about 12 degrees of freedom; 40 is p < 1e-4.
    detail::counter_rng rng(7, detail::stream_purpose::connectivity, 1, 2);
    const int n = 20, draws = 200000;
    std::vector<double> seen(n + 1, 0.0);
    for (int i = 0; i < draws; ++i) seen[detail::binomial(n, 0.3, rng)] += 1;
    const auto f = binomial_pmf(n, 0.3);
    std::vector<double> obs, exp;
    double o_tail = 0, e_tail = 0;
    for (int k = 0; k <= n; ++k) {
        if (f[k] * draws < 5) {
            o_tail += seen[k];
            e_tail += f[k] * draws;
        } else {
            obs.push_back(seen[k]);
            exp.push_back(f[k] * draws);
        }
    }
    obs.push_back(o_tail);
    exp.push_back(e_tail);
    EXPECT_LT(chi_square(obs, exp), 40.0);
}

TEST(binomial, mean_and_variance_match_for_large_and_skewed_cases) {
    struct c { std::uint64_t n; double p; };
    for (const auto [n, p] : {c{17'000'000, 1.0 / 20683}, c{100000, 0.5}, c{3'000'000, 1e-6}, c{5000, 0.999}}) {
        detail::counter_rng rng(11, detail::stream_purpose::connectivity, 3, static_cast<std::uint32_t>(n % 1000));
        const int draws = 20000;
        double sum = 0, sum2 = 0;
        for (int i = 0; i < draws; ++i) {
            const auto x = static_cast<double>(detail::binomial(n, p, rng));
            sum += x;
            sum2 += x * x;
        }
        const double mean = sum / draws, var = sum2 / draws - mean * mean;
        const double mu = static_cast<double>(n) * p, sigma2 = mu * (1 - p);
        EXPECT_NEAR(mean, mu, 5 * std::sqrt(sigma2 / draws)) << n << " " << p;
        EXPECT_NEAR(var / sigma2, 1.0, 0.06) << n << " " << p;  // sd of the ratio ~ sqrt(2/draws) = 0.01
    }
}

TEST(binomial, edge_cases_are_exact) {
    detail::counter_rng rng(1, detail::stream_purpose::connectivity, 0, 0);
    EXPECT_EQ(detail::binomial(0, 0.5, rng), 0u);
    EXPECT_EQ(detail::binomial(10, 0.0, rng), 0u);
    EXPECT_EQ(detail::binomial(10, 1.0, rng), 10u);
    for (int i = 0; i < 100; ++i) EXPECT_LE(detail::binomial(3, 0.9, rng), 3u);
}

// ---- fixed_total_number ---------------------------------------------------------------------------

TEST(fixed_total_number, makes_exactly_n_synapses_and_multinomial_in_degrees) {
    network net;
    const auto a = net.add_population("a", 300, cell());
    const auto b = net.add_population("b", 200, cell());
    const std::uint64_t n = 60000;
    net.connect(a, b, fixed_total_number{n});
    const auto l = expand(net, 0, 0, 200);
    ASSERT_EQ(l.size(), n);
    // In-degrees ~ Binomial(n, 1/200): mean 300, variance 300 · (1 - 1/200) = 298.5.
    std::vector<double> deg(200, 0.0), from(300, 0.0);
    for (std::size_t k = 0; k < l.size(); ++k) {
        deg[l.target[k]] += 1;
        from[l.source[k]] += 1;
    }
    double var = 0;
    for (double d : deg) var += (d - 300) * (d - 300);
    var /= 199;
    EXPECT_NEAR(var / 298.5, 1.0, 0.35);  // the sample variance of 200 values: sd of the ratio 0.1
    // Sources uniform: 300 bins of 200 expected, chi-square with 299 degrees of freedom (sd 24.5).
    EXPECT_LT(chi_square(from, std::vector<double>(300, 200.0)), 299 + 5 * 24.5);
    EXPECT_EQ(simulation(net, context{.threads = 2}, {.dt_ms = dt}).stats().synapses, n);
}

TEST(fixed_total_number, gives_the_same_synapses_whatever_the_split_of_targets) {
    network net;
    const auto a = net.add_population("a", 50, cell());
    net.connect(a, a, fixed_total_number{5000, false}, {.weight = normal{1, 0.2, 0.5, 1.5}, .delay_ms = uniform{0.1, 2}});
    const auto whole = expand(net, 0, 0, 50);
    auto first = expand(net, 0, 0, 17);
    const auto rest = expand(net, 0, 17, 50);
    first.source.insert(first.source.end(), rest.source.begin(), rest.source.end());
    first.target.insert(first.target.end(), rest.target.begin(), rest.target.end());
    first.weight.insert(first.weight.end(), rest.weight.begin(), rest.weight.end());
    first.delay.insert(first.delay.end(), rest.delay.begin(), rest.delay.end());
    EXPECT_EQ(whole.source, first.source);
    EXPECT_EQ(whole.target, first.target);
    EXPECT_EQ(whole.weight, first.weight);
    EXPECT_EQ(whole.delay, first.delay);
    EXPECT_EQ(whole.size(), 5000u);
    for (std::size_t k = 0; k < whole.size(); ++k) EXPECT_NE(whole.source[k], whole.target[k]) << "autapse";
}

TEST(fixed_total_number, refuses_impossible_projections_and_lists) {
    network net;
    const auto a = net.add_population("a", 1, cell());
    const auto b = net.add_population("b", 4, cell());
    using ip = invalid_parameter;
    EXPECT_TRUE(testing::throws_naming<ip>([&] { net.connect(a, a, fixed_total_number{3, false}); }, {"n", "no eligible"}));
    EXPECT_TRUE(testing::throws_naming<ip>(
        [&] { net.connect(a, b, fixed_total_number{3}, {.weight = std::vector<double>{1, 2, 3}}); }, {"weight", "list"}));
    EXPECT_NO_THROW(net.connect(a, a, fixed_total_number{0, false}));
}

TEST(fixed_total_number, round_trips_through_the_network_file) {
    network net;
    const auto a = net.add_population("a", 10, cell());
    net.connect(a, a, fixed_total_number{123, false}, {.weight = normal{0.5, 0.1, 0, 2}, .delay_ms = normal{1.5, 0.75, 0.05}});
    const auto back = parse_network_json(to_network_json(net)).net;
    EXPECT_EQ(back.projections()[0].rule, net.projections()[0].rule);
    EXPECT_EQ(back.projections()[0].synapse.weight, net.projections()[0].synapse.weight);
    EXPECT_EQ(back.projections()[0].synapse.delay_ms, net.projections()[0].synapse.delay_ms);
}

// ---- normal redrawn within bounds ----------------------------------------------------------------

TEST(bounded_normal, draws_stay_within_the_bounds_with_the_truncated_mean) {
    // N(1.5, 0.75) redrawn below 0.05 (the microcircuit's excitatory delays): the mean of the
    // normal truncated to [a, inf) is mu + sigma phi(alpha) / (1 - Phi(alpha)), alpha = (a - mu)/sigma.
    const normal d{1.5, 0.75, 0.05};
    detail::counter_rng rng(3, detail::stream_purpose::synapse_values, 0, 0);
    const int draws = 200000;
    double sum = 0, lowest = 1e9;
    for (int i = 0; i < draws; ++i) {
        const double x = detail::draw_value(d, 0, rng);
        sum += x;
        lowest = std::min(lowest, x);
    }
    const double alpha = (0.05 - 1.5) / 0.75;
    const double phi = std::exp(-alpha * alpha / 2) / std::sqrt(2 * std::numbers::pi);
    const double tail = 0.5 * std::erfc(alpha / std::numbers::sqrt2);  // 1 - Phi(alpha)
    const double expected = 1.5 + 0.75 * phi / tail;
    EXPECT_GE(lowest, 0.05);
    EXPECT_NEAR(sum / draws, expected, 5 * 0.75 / std::sqrt(draws));
    EXPECT_GT(expected - 1.5, 0.04);  // the truncation moves the mean by more than the tolerance
}

TEST(bounded_normal, refuses_bounds_that_hold_almost_nothing) {
    network net;
    const auto a = net.add_population("a", 10, cell());
    using ip = invalid_parameter;
    EXPECT_TRUE(testing::throws_naming<ip>(
        [&] { net.connect(a, a, all_to_all{}, {.weight = normal{0, 1, 4, 10}}); }, {"weight", "0.1%"}));
    EXPECT_TRUE(testing::throws_naming<ip>(
        [&] { net.connect(a, a, all_to_all{}, {.weight = normal{0, 1, 1, -1}}); }, {"weight", "low bound above high"}));
    EXPECT_NO_THROW(net.connect(a, a, all_to_all{}, {.weight = normal{0, 1, 2.5, 10}}));  // 0.6% of the mass
    EXPECT_NEAR(normal_mass_within(normal{0, 1, -1.959963984540054, 1.959963984540054}), 0.95, 1e-12);
}

TEST(bounded_normal, is_accepted_for_plastic_weights_only_within_the_rules_bounds) {
    network net;
    const auto a = net.add_population("a", 10, cell());
    const stdp_pair rule{.w_min = 0, .w_max = 1};
    using ip = invalid_parameter;
    EXPECT_NO_THROW(net.connect(a, a, all_to_all{}, {.weight = normal{0.5, 0.2, 0, 1}, .plasticity = rule}));
    EXPECT_TRUE(testing::throws_naming<ip>(
        [&] { net.connect(a, a, all_to_all{}, {.weight = normal{0.5, 0.2, 0}, .plasticity = rule}); }, {"weight", "w_max"}));
}

}  // namespace
}  // namespace volley::snn
