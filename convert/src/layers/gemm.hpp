#pragma once
// The one matrix product the layers use: C = op(A)·op(B) or C += op(A)·op(B), row-major.
//
// Why a kernel of our own: the project builds for baseline x86-64 (SSE2), where Eigen's float
// GEMM runs at a third of what AVX2+FMA gives on the same core. gemm_avx2.cpp holds a packed
// 6×16 register-blocked kernel (the BLIS/GotoBLAS structure, Goto & van de Geijn 2008) compiled
// for AVX2+FMA and chosen at run time when the CPU has both; otherwise Eigen does the product.

#include <cstddef>

namespace volley::convert::detail {

/// Operands of a row-major product: element (i, k) of A is a[i·lda + k], or a[k·lda + i] when
/// trans_a; likewise for B. C is m × n with row stride ldc.
template <class T>
struct gemm_operands {
    bool trans_a = false, trans_b = false;
    std::size_t m = 0, n = 0, k = 0;
    const T* a = nullptr;
    std::size_t lda = 0;
    const T* b = nullptr;
    std::size_t ldb = 0;
    T* c = nullptr;
    std::size_t ldc = 0;
    bool accumulate = false;  ///< C += op(A)·op(B) instead of C = op(A)·op(B)
};

/// Computes the product described by `g` (Eigen for double; the AVX2 kernel or Eigen for float).
void gemm(const gemm_operands<float>& g);
void gemm(const gemm_operands<double>& g);

/// True when the AVX2+FMA float kernel is in use on this CPU.
bool gemm_uses_avx2();

/// The AVX2+FMA kernel (gemm_avx2.cpp); `workspace` holds gemm_avx2_workspace_floats floats,
/// 32-byte aligned. Call only when the CPU supports AVX2 and FMA.
void gemm_avx2(const gemm_operands<float>& g, float* workspace);

/// Floats of packing workspace that gemm_avx2 needs.
inline constexpr std::size_t gemm_avx2_workspace_floats = 96 * 256 + 256 * 512 + 64;

}  // namespace volley::convert::detail
