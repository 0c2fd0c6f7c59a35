#pragma once
// Explicit conversions between Volley's layouts (NCHW activations, OIHW conv kernels, (out, in)
// dense kernels over CHW-flattened inputs) and tf.keras's channels_last layouts (NHWC, HWIO,
// (in, out) over HWC-flattened inputs). See CONVERSION.md, "The Flatten trap".

#include <cstddef>
#include <vector>

namespace volley::convert {

/// OIHW (out, in, kh, kw) → HWIO (kh, kw, in, out).
template <class T>
std::vector<T> oihw_to_hwio(const std::vector<T>& w, std::size_t out, std::size_t in,
                            std::size_t kh, std::size_t kw) {
    std::vector<T> r(w.size());
    for (std::size_t o = 0; o < out; ++o)
        for (std::size_t i = 0; i < in; ++i)
            for (std::size_t y = 0; y < kh; ++y)
                for (std::size_t x = 0; x < kw; ++x)
                    r[((y * kw + x) * in + i) * out + o] = w[((o * in + i) * kh + y) * kw + x];
    return r;
}

/// HWIO (kh, kw, in, out) → OIHW (out, in, kh, kw).
template <class T>
std::vector<T> hwio_to_oihw(const std::vector<T>& w, std::size_t out, std::size_t in,
                            std::size_t kh, std::size_t kw) {
    std::vector<T> r(w.size());
    for (std::size_t o = 0; o < out; ++o)
        for (std::size_t i = 0; i < in; ++i)
            for (std::size_t y = 0; y < kh; ++y)
                for (std::size_t x = 0; x < kw; ++x)
                    r[((o * in + i) * kh + y) * kw + x] = w[((y * kw + x) * in + i) * out + o];
    return r;
}

/// A Volley dense kernel (out, in) whose input is a (c, h, w) map flattened in CHW order →
/// the Keras kernel (in, out) whose rows follow the channels_last flatten order (HWC).
/// For a dense layer on a plain vector pass h = w = 1 (then this is a transpose).
template <class T>
std::vector<T> dense_to_keras(const std::vector<T>& w, std::size_t out, std::size_t c,
                              std::size_t h, std::size_t wd) {
    const std::size_t in = c * h * wd;
    std::vector<T> r(w.size());
    for (std::size_t o = 0; o < out; ++o)
        for (std::size_t ch = 0; ch < c; ++ch)
            for (std::size_t y = 0; y < h; ++y)
                for (std::size_t x = 0; x < wd; ++x)
                    r[((y * wd + x) * c + ch) * out + o] = w[o * in + (ch * h + y) * wd + x];
    return r;
}

/// The inverse of dense_to_keras: Keras (in, out) with HWC rows → Volley (out, in) over CHW.
template <class T>
std::vector<T> dense_from_keras(const std::vector<T>& k, std::size_t out, std::size_t c,
                                std::size_t h, std::size_t wd) {
    const std::size_t in = c * h * wd;
    std::vector<T> r(k.size());
    for (std::size_t o = 0; o < out; ++o)
        for (std::size_t ch = 0; ch < c; ++ch)
            for (std::size_t y = 0; y < h; ++y)
                for (std::size_t x = 0; x < wd; ++x)
                    r[o * in + (ch * h + y) * wd + x] = k[((y * wd + x) * c + ch) * out + o];
    return r;
}

/// NCHW (n, c, h, w) → NHWC (n, h, w, c).
template <class T>
std::vector<T> nchw_to_nhwc(const std::vector<T>& a, std::size_t n, std::size_t c, std::size_t h,
                            std::size_t w) {
    std::vector<T> r(a.size());
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t ch = 0; ch < c; ++ch)
            for (std::size_t y = 0; y < h; ++y)
                for (std::size_t x = 0; x < w; ++x)
                    r[((i * h + y) * w + x) * c + ch] = a[((i * c + ch) * h + y) * w + x];
    return r;
}

}  // namespace volley::convert
