#pragma once
// im2col and its adjoint col2im for one image (Chellapilla et al. 2006): a convolution becomes
// one GEMM, kernel (out, in·kh·kw) × columns (in·kh·kw, out_h·out_w).

#include <cstddef>

namespace volley::convert::detail {

/// The geometry shared by im2col and col2im.
struct conv_geometry {
    std::size_t channels, height, width;  ///< input image
    std::size_t kernel_h, kernel_w, stride, padding;
    std::size_t out_h, out_w;
};

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
                for (std::size_t oy = 0; oy < g.out_h; ++oy) {
                    const std::ptrdiff_t y = static_cast<std::ptrdiff_t>(oy * g.stride + ky) -
                                             static_cast<std::ptrdiff_t>(g.padding);
                    T* out = row + oy * g.out_w;
                    if (y < 0 || y >= static_cast<std::ptrdiff_t>(g.height)) {
                        for (std::size_t ox = 0; ox < g.out_w; ++ox) out[ox] = T(0);
                        continue;
                    }
                    const T* line = src + static_cast<std::size_t>(y) * g.width;
                    for (std::size_t ox = 0; ox < g.out_w; ++ox) {
                        const std::ptrdiff_t x = static_cast<std::ptrdiff_t>(ox * g.stride + kx) -
                                                 static_cast<std::ptrdiff_t>(g.padding);
                        out[ox] = (x < 0 || x >= static_cast<std::ptrdiff_t>(g.width))
                                      ? T(0)
                                      : line[x];
                    }
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
                for (std::size_t oy = 0; oy < g.out_h; ++oy) {
                    const std::ptrdiff_t y = static_cast<std::ptrdiff_t>(oy * g.stride + ky) -
                                             static_cast<std::ptrdiff_t>(g.padding);
                    if (y < 0 || y >= static_cast<std::ptrdiff_t>(g.height)) continue;
                    T* line = dst + static_cast<std::size_t>(y) * g.width;
                    const T* in = row + oy * g.out_w;
                    for (std::size_t ox = 0; ox < g.out_w; ++ox) {
                        const std::ptrdiff_t x = static_cast<std::ptrdiff_t>(ox * g.stride + kx) -
                                                 static_cast<std::ptrdiff_t>(g.padding);
                        if (x >= 0 && x < static_cast<std::ptrdiff_t>(g.width)) line[x] += in[ox];
                    }
                }
            }
}

}  // namespace volley::convert::detail
