#pragma once
// A branch-free exp, expm1 and exprel that GCC vectorises, and that give the same bits in
// scalar code, at every x86 vector width (SSE2, AVX2, AVX-512) and in CUDA device code. glibc's
// exp is a scalar call that stops a loop from vectorising; libmvec's vector exp vectorises, but
// its results differ from the scalar exp and between widths, so a simulation would depend on the
// ISA it ran on. These functions use only IEEE +, -, *, / on doubles, 64-bit integer adds and
// shifts, bit casts and selects, so every lane of every width rounds the same way. The caller
// must compile them without contraction into FMA: -ffp-contract=off for GCC and Clang,
// --fmad=false for nvcc.
//
// The method is fdlibm's: x = k ln2 + r with |r| <= ln2 / 2 (Cody-Waite, ln2 in a hi part exact
// in k * ln2_hi and a lo part), a rational approximation of e^r or e^r - 1 that carries the
// rounding error of r, and a scaling by 2^k. k is rounded with the 0x1.8p52 trick and 2^k is
// built from the low bits of that sum with an integer add and shift; the scaling is done as
// 2^(k/2) * 2^(k - k/2), so results near the overflow threshold and in the subnormal range
// are rounded once, correctly. The branches of fdlibm's expm1 are all computed and selected.
//
// Errors against glibc's std::exp and std::expm1, measured by tests/unit/test_vector_exp.cpp
// over 2 million points in [-745, 710] (dense near 0 and around the cut points):
//   vexp(x)    e^x.            <= 1 ulp where the result is a normal double; subnormal
//              results within 1 unit of 2^-1074. x > 709.78 and +inf -> +inf; x < -745.14
//              and -inf -> +0; NaN -> NaN.
//   vexpm1(x)  e^x - 1.        <= 1 ulp, with full relative accuracy near 0 (|x| < ln2/2 uses
//              the polynomial on x directly). x -> -1 below about -37.4 and for -inf; +inf
//              above 709.78; expm1(-0) = -0; NaN -> NaN.
//   vexprel(x) (e^x - 1) / x,  <= 2 ulp (against (e^x - 1) / x in long double), with one
//              division (a polynomial for e^r - 1, see there); 1 at x = 0
//              and near 0 to full accuracy. phi_1 of the exponential integrators: the
//              exponential Euler step is h * vexprel(b * h). -> +0 for -inf; +inf above 709.78
//              (where e^x overflows, although the true value stays finite up to x ~ 716.4);
//              NaN -> NaN.

#include "backends/host_device.hpp"

#include <bit>
#include <cstdint>

namespace volley::snn::detail {

namespace vexp_constants {
inline constexpr double shift = 0x1.8p52;  // adding it rounds a double below 2^51 to an integer
inline constexpr double log2e = 0x1.71547652b82fep0;
inline constexpr double ln2_hi = 0x1.62e42feep-1;  // 21 low zero bits: k * ln2_hi is exact
inline constexpr double ln2_lo = 0x1.a39ef35793c76p-33;
}  // namespace vexp_constants

// 2^k for an integer-valued double k in [-1022, 1023]: k + shift holds k in its low bits, and
// adding the exponent bias then shifting by 52 leaves only (k + 1023) in the exponent field.
VOLLEY_HD inline double vexp_pow2i(double k) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(k + vexp_constants::shift);
    return std::bit_cast<double>((bits + 1023u) << 52);
}

// y * 2^k for an integer-valued k in [-1076, 1024], in two exact-range steps so that an
// overflowing or subnormal result is rounded once.
VOLLEY_HD inline double vexp_scale(double y, double k) {
    const double half = (k * 0.5 + vexp_constants::shift) - vexp_constants::shift;
    return (y * vexp_pow2i(half)) * vexp_pow2i(k - half);
}

// k = round(x / ln2) as an integer-valued double, and x - k ln2 as hi - lo, hi exact.
struct vexp_reduction {
    double k, hi, lo;
};

VOLLEY_HD inline vexp_reduction vexp_reduce(double x) {
    using namespace vexp_constants;
    const double k = (x * log2e + shift) - shift;
    return {k, x - k * ln2_hi, k * ln2_lo};
}

/// e^x, within 1 ulp of glibc's exp (see the header comment for special values).
VOLLEY_HD inline double vexp(double x) {
    // The clamps keep k in the range vexp_scale handles; NaN fails both tests and stays.
    x = x > 710.0 ? 710.0 : x;
    x = x < -746.0 ? -746.0 : x;
    const vexp_reduction red = vexp_reduce(x);
    const double r = red.hi - red.lo;
    const double t = r * r;
    const double c =
        r - t * (0x1.555555555553ep-3 +
                 t * (-0x1.6c16c16bebd93p-9 +
                      t * (0x1.1566aaf25de2cp-14 + t * (-0x1.bbd41c5d26bf1p-20 + t * 0x1.6376972bea4d0p-25))));
    const double y = 1.0 - ((red.lo - (r * c) / (2.0 - c)) - red.hi);
    return vexp_scale(y, red.k);
}

/// e^x - 1, within 1 ulp of glibc's expm1, accurate relative to the result near 0.
VOLLEY_HD inline double vexpm1(double x) {
    // Below -40, e^x < 2^-57 and the result rounds to -1.
    x = x > 710.0 ? 710.0 : x;
    x = x < -40.0 ? -40.0 : x;
    const vexp_reduction red = vexp_reduce(x);
    const double k = red.k;
    const double r = red.hi - red.lo;
    const double c = (red.hi - r) - red.lo;  // the rounding error of r
    // e^r - 1 = r - e - c-terms, from fdlibm's rational approximation in hxs = r^2 / 2.
    const double hfx = 0.5 * r;
    const double hxs = r * hfx;
    const double r1 =
        1.0 + hxs * (-0x1.11111111110f4p-5 +
                     hxs * (0x1.a01a019fe5585p-10 +
                            hxs * (-0x1.4ce199eaadbb7p-14 + hxs * (0x1.0cfca86e65239p-18 + hxs * -0x1.afdb76e09c32dp-23))));
    const double t = 3.0 - r1 * hfx;
    const double e0 = hxs * ((r1 - t) / (6.0 - r * t));
    const double small = r - (r * e0 - hxs);  // k == 0: e^x - 1 directly, c is 0
    const double e = (r * (e0 - c) - c) - hxs;
    const double km1 = 0.5 * (r - e) - 0.5;                                        // k == -1
    const double k1 = r < -0.25 ? -2.0 * (e - (r + 0.5)) : 1.0 + 2.0 * (r - e);  // k == 1
    // |k| >= 2: (1 + (r - e)) 2^k - 1. For 2 <= k < 20 the 1 is subtracted before scaling as
    // 1 - 2^-k, where it is exact; for k >= 20 2^-k is added to the small terms first.
    const double p = vexp_pow2i(-(k > 1000.0 ? 1000.0 : k));
    const double y = k < 2.0 ? 1.0 - (e - r) : (k < 20.0 ? (1.0 - p) - (e - r) : (r - (e + p)) + 1.0);
    const double big = vexp_scale(y, k) - (k < 2.0 ? 1.0 : 0.0);
    const double unit = k == 1.0 ? k1 : (k == -1.0 ? km1 : big);
    return k == 0.0 ? small : unit;
}

/// (e^x - 1) / x, 1 at x = 0: phi_1 of the exponential integrators, within 2 ulp. With one
/// division, where vexpm1(x) / x has two: e^r - 1 by its Taylor polynomial of degree 13
/// (the rest is below 2^-57 of it for |r| <= ln2 / 2), plus the rounding error of r, then
/// e^x - 1 = 2^k (e^r - 1) + (2^k - 1), which is exact in its parts for k < 54; above, the 1 is
/// below half an ulp and (1 + (e^r - 1)) 2^(k-1) 2 overflows to +inf where e^x does.
VOLLEY_HD inline double vexprel(double x) {
    const double xc = x > 710.0 ? 710.0 : (x < -40.0 ? -40.0 : x);  // below -40: e^x - 1 = -1
    const vexp_reduction red = vexp_reduce(xc);
    const double r = red.hi - red.lo;
    const double c = (red.hi - r) - red.lo;  // the rounding error of r
    // (e^r - 1 - r) / r^2 = 1/2! + r/3! + ... + r^11/13!
    double q = 1.0 / 6227020800.0;
    q = 1.0 / 479001600.0 + r * q;
    q = 1.0 / 39916800.0 + r * q;
    q = 1.0 / 3628800.0 + r * q;
    q = 1.0 / 362880.0 + r * q;
    q = 1.0 / 40320.0 + r * q;
    q = 1.0 / 5040.0 + r * q;
    q = 1.0 / 720.0 + r * q;
    q = 1.0 / 120.0 + r * q;
    q = 1.0 / 24.0 + r * q;
    q = 1.0 / 6.0 + r * q;
    q = 0.5 + r * q;
    const double em1_r = r + (r * r * q + c);
    const double half = vexp_pow2i(red.k - 1.0);  // 2^(k-1): k - 1 >= -59
    const double two_k = 2.0 * half;
    const double em1 = red.k < 54.0 ? two_k * em1_r + (two_k - 1.0) : ((1.0 + em1_r) * half) * 2.0;
    // The clamped divisor makes +inf give inf / 710 = inf rather than inf / inf.
    const double d = x > 710.0 ? 710.0 : x;
    return x == 0.0 ? 1.0 : em1 / d;
}

}  // namespace volley::snn::detail
