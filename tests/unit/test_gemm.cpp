// The float GEMM (AVX2+FMA kernel where the CPU has it, else Eigen) against a double-precision
// triple loop, for every transpose combination and sizes that exercise the tile edges.

#include "layers/gemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <tuple>
#include <vector>

namespace vd = volley::convert::detail;

namespace {

void check_product(bool ta, bool tb, std::size_t m, std::size_t n, std::size_t k, bool accumulate) {
    std::mt19937 rng(static_cast<unsigned>(m * 131 + n * 17 + k));
    std::uniform_real_distribution<float> u(-1, 1);
    const std::size_t lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 1, ldc = n + 2;
    std::vector<float> a((ta ? k : m) * lda), b((tb ? n : k) * ldb), c(m * ldc);
    for (auto& v : a) v = u(rng);
    for (auto& v : b) v = u(rng);
    for (auto& v : c) v = u(rng);
    std::vector<double> expected(c.begin(), c.end());
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double s = accumulate ? expected[i * ldc + j] : 0.0;
            for (std::size_t p = 0; p < k; ++p)
                s += static_cast<double>(ta ? a[p * lda + i] : a[i * lda + p]) *
                     static_cast<double>(tb ? b[j * ldb + p] : b[p * ldb + j]);
            expected[i * ldc + j] = s;
        }
    const std::vector<float> before = c;
    vd::gemm(vd::gemm_operands<float>{ta, tb, m, n, k, a.data(), lda, b.data(), ldb, c.data(),
                                      ldc, accumulate});
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j)
            ASSERT_NEAR(c[i * ldc + j], expected[i * ldc + j], 1e-4 * (1 + std::sqrt(double(k))))
                << "ta " << ta << " tb " << tb << " (" << m << "×" << k << ")·(" << k << "×" << n
                << ") at " << i << ", " << j;
        for (std::size_t j = n; j < ldc; ++j) ASSERT_EQ(c[i * ldc + j], before[i * ldc + j]) << "padding overwritten";
    }
}

}  // namespace

TEST(Gemm, MatchesTripleLoopForAllTransposesAndEdgeSizes) {
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            for (auto [m, n, k] : {std::tuple<std::size_t, std::size_t, std::size_t>{1, 1, 1},
                                   {6, 16, 8}, {7, 17, 3}, {64, 121, 288}, {100, 530, 260},
                                   {5, 3, 0}, {32, 10, 128}})
                for (bool acc : {false, true}) check_product(ta, tb, m, n, k, acc);
}

TEST(Gemm, ReportsTheKernelInUse) {
    std::printf("float GEMM kernel: %s\n", vd::gemm_uses_avx2() ? "AVX2+FMA" : "Eigen (baseline)");
    SUCCEED();
}
