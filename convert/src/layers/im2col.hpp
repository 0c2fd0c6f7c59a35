#pragma once
// im2col and its adjoint col2im for one image (Chellapilla et al. 2006): a convolution becomes
// one GEMM, kernel (out, in·kh·kw) × columns (in·kh·kw, out_h·out_w).

#include <algorithm>
#include <cstddef>

namespace volley::convert::detail {

/// The geometry shared by im2col and col2im.
struct conv_geometry {
    std::size_t channels, height, width;  ///< input image
    std::size_t kernel_h, kernel_w, stride, padding;
    std::size_t out_h, out_w;
};

/// The output columns [lo, hi) whose input column ox·stride + kx − padding lies inside the image.
inline void valid_columns(const conv_geometry& g, std::size_t kx, std::size_t& lo, std::size_t& hi) {
    const std::ptrdiff_t pad = static_cast<std::ptrdiff_t>(g.padding) - static_cast<std::ptrdiff_t>(kx);
    const auto s = static_cast<std::ptrdiff_t>(g.stride);
    // first ox with ox·s ≥ pad, and first ox with ox·s − pad ≥ width
    const std::ptrdiff_t first = pad <= 0 ? 0 : (pad + s - 1) / s;
    const std::ptrdiff_t end = (static_cast<std::ptrdiff_t>(g.width) + pad + s - 1) / s;
    lo = static_cast<std::size_t>(std::min<std::ptrdiff_t>(first, static_cast<std::ptrdiff_t>(g.out_w)));
    hi = static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(end, static_cast<std::ptrdiff_t>(lo),
                                                             static_cast<std::ptrdiff_t>(g.out_w)));
}

/// Writes the (channels·kh·kw) × (out_h·out_w) row-major column matrix of `image` (CHW) into
/// `columns`; positions in the zero padding read as 0.
template <class T>
void im2col(const T* image, const conv_geometry& g, T* columns) {
    const std::size_t plane = g.out_h * g.out_w;
    for (std::size_t c = 0; c < g.channels; ++c)
        for (std::size_t ky = 0; ky < g.kernel_h; ++ky)
            for (std::size_t kx = 0; kx < g.kernel_w; ++kx) {
                T* row = columns + ((c * g.kernel_h + ky) * g.kernel_w + kx) * plane;
                const T* src = image + c * g.height * g.width;
                std::size_t lo, hi;
                valid_columns(g, kx, lo, hi);
                for (std::size_t oy = 0; oy < g.out_h; ++oy) {
                    const std::ptrdiff_t y = static_cast<std::ptrdiff_t>(oy * g.stride + ky) -
                                             static_cast<std::ptrdiff_t>(g.padding);
                    T* out = row + oy * g.out_w;
                    if (y < 0 || y >= static_cast<std::ptrdiff_t>(g.height)) {
                        std::fill(out, out + g.out_w, T(0));
                        continue;
                    }
                    // input column of output column ox: ox·stride + kx − padding (≥ 0 for ox ≥ lo)
                    const T* line = src + static_cast<std::size_t>(y) * g.width;
                    std::fill(out, out + lo, T(0));
                    if (g.stride == 1)
                        for (std::size_t ox = lo; ox < hi; ++ox) out[ox] = line[ox + kx - g.padding];
                    else
                        for (std::size_t ox = lo; ox < hi; ++ox)
                            out[ox] = line[ox * g.stride + kx - g.padding];
                    std::fill(out + hi, out + g.out_w, T(0));
                }
            }
}

/// The adjoint of im2col: adds each column entry back onto the image pixel it was read from.
template <class T>
void col2im_add(const T* columns, const conv_geometry& g, T* image) {
    const std::size_t plane = g.out_h * g.out_w;
    for (std::size_t c = 0; c < g.channels; ++c)
        for (std::size_t ky = 0; ky < g.kernel_h; ++ky)
            for (std::size_t kx = 0; kx < g.kernel_w; ++kx) {
                const T* row = columns + ((c * g.kernel_h + ky) * g.kernel_w + kx) * plane;
                T* dst = image + c * g.height * g.width;
                std::size_t lo, hi;
                valid_columns(g, kx, lo, hi);
                for (std::size_t oy = 0; oy < g.out_h; ++oy) {
                    const std::ptrdiff_t y = static_cast<std::ptrdiff_t>(oy * g.stride + ky) -
                                             static_cast<std::ptrdiff_t>(g.padding);
                    if (y < 0 || y >= static_cast<std::ptrdiff_t>(g.height)) continue;
                    T* line = dst + static_cast<std::size_t>(y) * g.width;
                    const T* in = row + oy * g.out_w;
                    if (g.stride == 1)
                        for (std::size_t ox = lo; ox < hi; ++ox) line[ox + kx - g.padding] += in[ox];
                    else
                        for (std::size_t ox = lo; ox < hi; ++ox)
                            line[ox * g.stride + kx - g.padding] += in[ox];
                }
            }
}

}  // namespace volley::convert::detail
