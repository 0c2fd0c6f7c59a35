// GEMM dispatch: the AVX2+FMA kernel where the CPU has it, Eigen otherwise.

#include "layers/gemm.hpp"

#include <Eigen/Core>

#include <memory>
#include <new>

namespace volley::convert::detail {

namespace {

template <class T>
using row_matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using const_view = Eigen::Map<const row_matrix<T>, 0, Eigen::OuterStride<>>;

template <class T>
void gemm_eigen(const gemm_operands<T>& g) {
    using idx = Eigen::Index;
    const auto m = static_cast<idx>(g.m), n = static_cast<idx>(g.n), k = static_cast<idx>(g.k);
    Eigen::Map<row_matrix<T>, 0, Eigen::OuterStride<>> c(g.c, m, n,
                                                         Eigen::OuterStride<>(static_cast<idx>(g.ldc)));
    const const_view<T> a(g.a, g.trans_a ? k : m, g.trans_a ? m : k,
                          Eigen::OuterStride<>(static_cast<idx>(g.lda)));
    const const_view<T> b(g.b, g.trans_b ? n : k, g.trans_b ? k : n,
                          Eigen::OuterStride<>(static_cast<idx>(g.ldb)));
    if (!g.accumulate) c.setZero();
    if (g.trans_a && g.trans_b) c.noalias() += a.transpose() * b.transpose();
    else if (g.trans_a) c.noalias() += a.transpose() * b;
    else if (g.trans_b) c.noalias() += a * b.transpose();
    else c.noalias() += a * b;
}

bool cpu_has_avx2_fma() {
#if defined(VOLLEY_CONVERT_HAVE_AVX2_KERNEL)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

/// Per-thread packing buffers of the AVX2 kernel, 32-byte aligned.
float* avx2_workspace() {
    struct aligned_free {
        void operator()(float* p) const noexcept { ::operator delete[](p, std::align_val_t{32}); }
    };
    thread_local std::unique_ptr<float[], aligned_free> buffer(
        static_cast<float*>(::operator new[](gemm_avx2_workspace_floats * sizeof(float),
                                             std::align_val_t{32})));
    return buffer.get();
}

}  // namespace

bool gemm_uses_avx2() {
    static const bool yes = cpu_has_avx2_fma();
    return yes;
}

void gemm(const gemm_operands<float>& g) {
#if defined(VOLLEY_CONVERT_HAVE_AVX2_KERNEL)
    if (gemm_uses_avx2()) {
        gemm_avx2(g, avx2_workspace());
        return;
    }
#endif
    gemm_eigen(g);
}

void gemm(const gemm_operands<double>& g) { gemm_eigen(g); }

}  // namespace volley::convert::detail
