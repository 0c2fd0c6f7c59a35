// The branch-free vexp, vexpm1 and vexprel: error in ulp against the C library over dense
// points, special values, and bit-identical results between a scalar loop and the same loop
// vectorised for SSE2, AVX2 and AVX-512. Compile with -ffp-contract=off, as the kernels are.

#include "backends/vector_exp.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace volley::snn {
namespace {

using detail::vexp;
using detail::vexpm1;
using detail::vexprel;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Doubles mapped to integers in the same order, so that adjacent doubles differ by 1.
std::int64_t ordered(double d) {
    const auto i = std::bit_cast<std::int64_t>(d);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
}

// The number of doubles between a and b (0 when both are NaN, the maximum when one is).
std::uint64_t ulp_distance(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : UINT64_MAX;
    const auto ua = static_cast<std::uint64_t>(ordered(a));
    const auto ub = static_cast<std::uint64_t>(ordered(b));
    return ordered(a) > ordered(b) ? ua - ub : ub - ua;
}

// Uniform over [-745, 710], log-uniform magnitudes in [1e-300, 1] of both signs, and runs of
// adjacent doubles and of nearby points around every cut: the k boundaries (j + 1/2) ln2, the
// overflow and underflow thresholds, the clamps and 0.
std::vector<double> test_points() {
    std::vector<double> xs;
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> wide(-745.0, 710.0);
    for (int i = 0; i < 1'000'000; ++i) xs.push_back(wide(rng));
    std::uniform_real_distribution<double> exponent(-300.0, 0.0);
    for (int i = 0; i < 250'000; ++i) {
        const double m = std::pow(10.0, exponent(rng));
        xs.push_back(m);
        xs.push_back(-m);
    }
    std::vector<double> cuts = {0.0, 709.782712893384, 709.0, -708.39641853226408, -745.1332191019411,
                                -744.44007192138122, -40.0, -37.42994775023705, 710.0, -746.0};
    for (int j = -70; j <= 70; ++j) cuts.push_back((j + 0.5) * 0.69314718055994530942);
    for (const double cut : cuts) {
        double up = cut;
        double down = cut;
        for (int i = 0; i < 1000; ++i) {
            xs.push_back(up = std::nextafter(up, inf));
            xs.push_back(down = std::nextafter(down, -inf));
        }
        std::uniform_real_distribution<double> near(cut - 1e-3, cut + 1e-3);
        for (int i = 0; i < 1000; ++i) xs.push_back(near(rng));
    }
    return xs;
}

const std::vector<double>& points() {
    static const std::vector<double> xs = test_points();
    return xs;
}

// (e^x - 1) / x in long double, rounded to double: close to correctly rounded, unlike
// expm1(x) / x in double, whose own error is up to 1.5 ulp.
double exprel_reference(double x) {
    if (x == 0.0) return 1.0;
    return static_cast<double>(std::expm1(static_cast<long double>(x)) / static_cast<long double>(x));
}

TEST(vector_exp, exp_within_1_ulp_of_std_exp) {
    std::uint64_t normal = 0, subnormal = 0;
    double worst = 0.0;
    for (const double x : points()) {
        const double want = std::exp(x);
        const std::uint64_t d = ulp_distance(vexp(x), want);
        if (std::abs(want) >= DBL_MIN) {
            if (d > normal) worst = x;
            normal = std::max(normal, d);
        } else {
            subnormal = std::max(subnormal, d);
        }
    }
    std::printf("vexp: max %llu ulp on normal results (at x = %.17g), %llu units of 2^-1074 on subnormal ones\n",
                static_cast<unsigned long long>(normal), worst, static_cast<unsigned long long>(subnormal));
    EXPECT_LE(normal, 1u);
    EXPECT_LE(subnormal, 1u);
}

TEST(vector_exp, expm1_within_1_ulp_of_std_expm1) {
    std::uint64_t worst_ulp = 0;
    double worst = 0.0;
    for (const double x : points()) {
        const std::uint64_t d = ulp_distance(vexpm1(x), std::expm1(x));
        if (d > worst_ulp) worst = x;
        worst_ulp = std::max(worst_ulp, d);
    }
    std::printf("vexpm1: max %llu ulp (at x = %.17g)\n", static_cast<unsigned long long>(worst_ulp), worst);
    EXPECT_LE(worst_ulp, 1u);
}

TEST(vector_exp, exprel_within_2_ulp_where_exp_is_finite) {
    std::uint64_t worst_ulp = 0, against_double = 0;
    double worst = 0.0;
    for (const double x : points()) {
        if (x > 709.782712893384) continue;  // e^x overflows; the quotient would not
        const double got = vexprel(x);
        const std::uint64_t d = ulp_distance(got, exprel_reference(x));
        if (d > worst_ulp) worst = x;
        worst_ulp = std::max(worst_ulp, d);
        const double plain = x == 0.0 ? 1.0 : std::expm1(x) / x;
        against_double = std::max(against_double, ulp_distance(got, plain));
    }
    std::printf("vexprel: max %llu ulp against long double (at x = %.17g), %llu against std::expm1(x) / x\n",
                static_cast<unsigned long long>(worst_ulp), worst, static_cast<unsigned long long>(against_double));
    EXPECT_LE(worst_ulp, 2u);
    EXPECT_LE(against_double, 3u);
}

TEST(vector_exp, special_values) {
    EXPECT_EQ(vexp(0.0), 1.0);
    EXPECT_EQ(vexp(-0.0), 1.0);
    EXPECT_EQ(vexp(inf), inf);
    EXPECT_EQ(vexp(-inf), 0.0);
    EXPECT_FALSE(std::signbit(vexp(-inf)));
    EXPECT_TRUE(std::isnan(vexp(nan)));
    EXPECT_TRUE(std::isnan(vexp(-nan)));
    EXPECT_EQ(vexp(709.782712893384), std::exp(709.782712893384));  // the largest finite result
    EXPECT_EQ(vexp(709.7827128933841), inf);
    EXPECT_EQ(vexp(1e300), inf);
    EXPECT_EQ(vexp(-708.3964185322641), std::exp(-708.3964185322641));  // near DBL_MIN
    EXPECT_EQ(vexp(-745.1332191019411), 0x1p-1074);                     // the smallest subnormal
    EXPECT_EQ(vexp(-745.2), 0.0);
    EXPECT_EQ(vexp(-1e300), 0.0);

    EXPECT_EQ(vexpm1(0.0), 0.0);
    EXPECT_FALSE(std::signbit(vexpm1(0.0)));
    EXPECT_EQ(vexpm1(-0.0), 0.0);
    EXPECT_TRUE(std::signbit(vexpm1(-0.0)));
    EXPECT_EQ(vexpm1(1e-300), 1e-300);
    EXPECT_EQ(vexpm1(-0x1p-1074), -0x1p-1074);
    EXPECT_EQ(vexpm1(inf), inf);
    EXPECT_EQ(vexpm1(709.7827128933841), inf);
    EXPECT_EQ(vexpm1(-inf), -1.0);
    EXPECT_EQ(vexpm1(-40.0), -1.0);
    EXPECT_EQ(vexpm1(-1e300), -1.0);
    EXPECT_TRUE(std::isnan(vexpm1(nan)));

    EXPECT_EQ(vexprel(0.0), 1.0);
    EXPECT_EQ(vexprel(-0.0), 1.0);
    EXPECT_EQ(vexprel(1e-300), 1.0);
    EXPECT_EQ(vexprel(-0x1p-1074), 1.0);
    EXPECT_EQ(vexprel(inf), inf);
    EXPECT_EQ(vexprel(-inf), 0.0);
    EXPECT_FALSE(std::signbit(vexprel(-inf)));
    EXPECT_EQ(vexprel(-1e300), 1e-300);
    EXPECT_TRUE(std::isnan(vexprel(nan)));
}

// The same loops at four code generations. The reference may not vectorise at all.
using kernel = void (*)(const double*, double*, std::size_t);

#define VOLLEY_VECTOR_EXP_LOOPS(prefix, attrs)                                                        \
    attrs void prefix##_exp(const double* x, double* y, std::size_t n) {                               \
        for (std::size_t i = 0; i < n; ++i) y[i] = vexp(x[i]);                                         \
    }                                                                                                  \
    attrs void prefix##_expm1(const double* x, double* y, std::size_t n) {                             \
        for (std::size_t i = 0; i < n; ++i) y[i] = vexpm1(x[i]);                                       \
    }                                                                                                  \
    attrs void prefix##_exprel(const double* x, double* y, std::size_t n) {                            \
        for (std::size_t i = 0; i < n; ++i) y[i] = vexprel(x[i]);                                      \
    }

VOLLEY_VECTOR_EXP_LOOPS(scalar, [[gnu::noinline]] __attribute__((optimize("no-tree-vectorize"))))
VOLLEY_VECTOR_EXP_LOOPS(baseline, [[gnu::noinline]])

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2")
VOLLEY_VECTOR_EXP_LOOPS(avx2, [[gnu::noinline]])
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512dq,avx512bw,prefer-vector-width=512")
VOLLEY_VECTOR_EXP_LOOPS(avx512, [[gnu::noinline]])
#pragma GCC pop_options
#endif

// Every point, the special values, and an odd length so that the remainder loop runs too.
std::vector<double> identity_inputs() {
    std::vector<double> xs(points().begin(), points().begin() + 200'001);
    for (const double x : points())
        if (std::abs(x) < 1.0 || x < -700.0 || x > 700.0) xs.push_back(x);
    for (const double s : {0.0, -0.0, inf, -inf, nan, 1e300, -1e300, 0x1p-1074, -0x1p-1074})
        xs.push_back(s);
    if (xs.size() % 2 == 0) xs.push_back(0.5);
    return xs;
}

void expect_same_bits(kernel reference, kernel candidate, const char* name) {
    const std::vector<double> xs = identity_inputs();
    std::vector<double> want(xs.size()), got(xs.size());
    reference(xs.data(), want.data(), xs.size());
    candidate(xs.data(), got.data(), xs.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        if (std::bit_cast<std::uint64_t>(want[i]) != std::bit_cast<std::uint64_t>(got[i])) {
            if (differing++ < 5)
                ADD_FAILURE() << name << " at x = " << xs[i] << ": " << got[i] << " instead of " << want[i];
        }
    }
    EXPECT_EQ(differing, 0u) << name;
}

TEST(vector_exp, baseline_loop_matches_scalar_bits) {
    expect_same_bits(scalar_exp, baseline_exp, "vexp");
    expect_same_bits(scalar_expm1, baseline_expm1, "vexpm1");
    expect_same_bits(scalar_exprel, baseline_exprel, "vexprel");
}

#if defined(__x86_64__)
TEST(vector_exp, avx2_loop_matches_scalar_bits) {
    if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "no AVX2";
    expect_same_bits(scalar_exp, avx2_exp, "vexp");
    expect_same_bits(scalar_expm1, avx2_expm1, "vexpm1");
    expect_same_bits(scalar_exprel, avx2_exprel, "vexprel");
}

TEST(vector_exp, avx512_loop_matches_scalar_bits) {
    if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")))
        GTEST_SKIP() << "no AVX-512";
    expect_same_bits(scalar_exp, avx512_exp, "vexp");
    expect_same_bits(scalar_expm1, avx512_expm1, "vexpm1");
    expect_same_bits(scalar_exprel, avx512_exprel, "vexprel");
}
#endif

}  // namespace
}  // namespace volley::snn
