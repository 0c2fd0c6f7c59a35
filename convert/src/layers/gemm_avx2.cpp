// The AVX2+FMA float GEMM kernel. This file alone is compiled with -mavx2 -mfma, so it includes
// no standard-library header that could emit inline functions shared with other files (those
// would then carry AVX2 code into paths that run on older CPUs): only intrinsics and plain loops.

#include "layers/gemm.hpp"

#include <immintrin.h>

namespace volley::convert::detail {

namespace {

constexpr std::size_t mr = 6, nr = 16;            // register tile: 6 rows × 2 ymm
constexpr std::size_t mc = 96, kc = 256, nc = 512;  // cache blocks (A in L2, B panel in L2/L3)

inline std::size_t smaller(std::size_t x, std::size_t y) { return x < y ? x : y; }

/// Packs rows [i0, i0 + rows) × columns [p0, p0 + depth) of op(A) into mr-row panels, k-major,
/// zero-padding the last panel.
void pack_a(const gemm_operands<float>& g, std::size_t i0, std::size_t rows, std::size_t p0,
            std::size_t depth, float* out) {
    for (std::size_t ir = 0; ir < rows; ir += mr) {
        const std::size_t h = smaller(mr, rows - ir);
        if (g.trans_a) {
            const float* src = g.a + p0 * g.lda + i0 + ir;
            for (std::size_t p = 0; p < depth; ++p, src += g.lda, out += mr) {
                for (std::size_t r = 0; r < h; ++r) out[r] = src[r];
                for (std::size_t r = h; r < mr; ++r) out[r] = 0.0f;
            }
            continue;
        }
        for (std::size_t r = 0; r < mr; ++r) {
            if (r >= h) {
                for (std::size_t p = 0; p < depth; ++p) out[p * mr + r] = 0.0f;
                continue;
            }
            const float* src = g.a + (i0 + ir + r) * g.lda + p0;
            for (std::size_t p = 0; p < depth; ++p) out[p * mr + r] = src[p];
        }
        out += depth * mr;
    }
}

/// Packs rows [p0, p0 + depth) × columns [j0, j0 + cols) of op(B) into nr-column panels.
void pack_b(const gemm_operands<float>& g, std::size_t p0, std::size_t depth, std::size_t j0,
            std::size_t cols, float* out) {
    for (std::size_t jr = 0; jr < cols; jr += nr) {
        const std::size_t w = smaller(nr, cols - jr);
        if (g.trans_b) {
            for (std::size_t c = 0; c < nr; ++c) {
                if (c >= w) {
                    for (std::size_t p = 0; p < depth; ++p) out[p * nr + c] = 0.0f;
                    continue;
                }
                const float* src = g.b + (j0 + jr + c) * g.ldb + p0;
                for (std::size_t p = 0; p < depth; ++p) out[p * nr + c] = src[p];
            }
            out += depth * nr;
            continue;
        }
        const float* src = g.b + p0 * g.ldb + j0 + jr;
        for (std::size_t p = 0; p < depth; ++p, src += g.ldb, out += nr) {
            if (w == nr) {
                _mm256_store_ps(out, _mm256_loadu_ps(src));
                _mm256_store_ps(out + 8, _mm256_loadu_ps(src + 8));
            } else {
                for (std::size_t c = 0; c < w; ++c) out[c] = src[c];
                for (std::size_t c = w; c < nr; ++c) out[c] = 0.0f;
            }
        }
    }
}

/// C tile (h × w ≤ 6 × 16) = or += the product of one A panel and one B panel over `depth`.
void micro_kernel(std::size_t depth, const float* ap, const float* bp, float* c, std::size_t ldc,
                  std::size_t h, std::size_t w, bool add) {
    __m256 acc[mr][2];
    for (std::size_t r = 0; r < mr; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
    for (std::size_t p = 0; p < depth; ++p) {
        const __m256 b0 = _mm256_load_ps(bp), b1 = _mm256_load_ps(bp + 8);
        for (std::size_t r = 0; r < mr; ++r) {
            const __m256 a = _mm256_broadcast_ss(ap + r);
            acc[r][0] = _mm256_fmadd_ps(a, b0, acc[r][0]);
            acc[r][1] = _mm256_fmadd_ps(a, b1, acc[r][1]);
        }
        ap += mr;
        bp += nr;
    }
    if (h == mr && w == nr) {
        for (std::size_t r = 0; r < mr; ++r) {
            float* row = c + r * ldc;
            __m256 lo = acc[r][0], hi = acc[r][1];
            if (add) {
                lo = _mm256_add_ps(lo, _mm256_loadu_ps(row));
                hi = _mm256_add_ps(hi, _mm256_loadu_ps(row + 8));
            }
            _mm256_storeu_ps(row, lo);
            _mm256_storeu_ps(row + 8, hi);
        }
        return;
    }
    alignas(32) float tile[mr * nr];
    for (std::size_t r = 0; r < mr; ++r) {
        _mm256_store_ps(tile + r * nr, acc[r][0]);
        _mm256_store_ps(tile + r * nr + 8, acc[r][1]);
    }
    for (std::size_t r = 0; r < h; ++r)
        for (std::size_t col = 0; col < w; ++col)
            c[r * ldc + col] = add ? c[r * ldc + col] + tile[r * nr + col] : tile[r * nr + col];
}

}  // namespace

void gemm_avx2(const gemm_operands<float>& g, float* workspace) {
    float* packed_a = workspace;
    float* packed_b = workspace + mc * kc;
    if (g.k == 0) {
        if (!g.accumulate)
            for (std::size_t i = 0; i < g.m; ++i)
                for (std::size_t j = 0; j < g.n; ++j) g.c[i * g.ldc + j] = 0.0f;
        return;
    }
    for (std::size_t j0 = 0; j0 < g.n; j0 += nc) {
        const std::size_t cols = smaller(nc, g.n - j0);
        for (std::size_t p0 = 0; p0 < g.k; p0 += kc) {
            const std::size_t depth = smaller(kc, g.k - p0);
            const bool add = g.accumulate || p0 > 0;
            pack_b(g, p0, depth, j0, cols, packed_b);
            for (std::size_t i0 = 0; i0 < g.m; i0 += mc) {
                const std::size_t rows = smaller(mc, g.m - i0);
                pack_a(g, i0, rows, p0, depth, packed_a);
                for (std::size_t jr = 0; jr < cols; jr += nr)
                    for (std::size_t ir = 0; ir < rows; ir += mr)
                        micro_kernel(depth, packed_a + ir * depth, packed_b + jr * depth,
                                     g.c + (i0 + ir) * g.ldc + j0 + jr, g.ldc,
                                     smaller(mr, rows - ir), smaller(nr, cols - jr), add);
            }
        }
    }
}

}  // namespace volley::convert::detail
