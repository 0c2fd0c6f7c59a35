// Folding pools, padding and flatten into the next projection (see folded_projection.hpp).

#include "conversion/folded_projection.hpp"

#include <algorithm>

namespace volley::convert::detail {

snn::convolution fold_convolution(const pending_linear& m, const conv2d_spec& conv, double scale) {
    const std::size_t fh = m.pool_h, fw = m.pool_w;
    snn::convolution c;
    c.in_channels = static_cast<std::uint32_t>(m.channels);
    c.in_height = static_cast<std::uint32_t>(m.height);
    c.in_width = static_cast<std::uint32_t>(m.width);
    c.out_channels = static_cast<std::uint32_t>(conv.out_channels);
    c.groups = static_cast<std::uint32_t>(conv.groups);
    c.kernel_height = static_cast<std::uint32_t>((conv.kernel_h - 1) * conv.dilation_h * fh + fh);
    c.kernel_width = static_cast<std::uint32_t>((conv.kernel_w - 1) * conv.dilation_w * fw + fw);
    c.stride_h = static_cast<std::uint32_t>(conv.stride_h * fh);
    c.stride_w = static_cast<std::uint32_t>(conv.stride_w * fw);
    c.pad_top = static_cast<std::uint32_t>((conv.pad_top + m.pad.top) * fh);
    c.pad_left = static_cast<std::uint32_t>((conv.pad_left + m.pad.left) * fw);
    // The output size of the pooled convolution, reproduced with the smallest bottom/right pad.
    const std::size_t ph = m.pooled_height() + m.pad.top + m.pad.bottom + conv.pad_top + conv.pad_bottom;
    const std::size_t pw = m.pooled_width() + m.pad.left + m.pad.right + conv.pad_left + conv.pad_right;
    const std::size_t oh = (ph - conv.dilation_h * (conv.kernel_h - 1) - 1) / conv.stride_h + 1;
    const std::size_t ow = (pw - conv.dilation_w * (conv.kernel_w - 1) - 1) / conv.stride_w + 1;
    const std::size_t need_h = (oh - 1) * c.stride_h + c.kernel_height, need_w = (ow - 1) * c.stride_w + c.kernel_width;
    c.pad_bottom = static_cast<std::uint32_t>(need_h > m.height + c.pad_top ? need_h - m.height - c.pad_top : 0);
    c.pad_right = static_cast<std::uint32_t>(need_w > m.width + c.pad_left ? need_w - m.width - c.pad_left : 0);
    const std::size_t cg = conv.in_channels / conv.groups;
    c.kernel.assign(conv.out_channels * cg * c.kernel_height * c.kernel_width, 0.0);
    const double share = scale / static_cast<double>(fh * fw);
    for (std::size_t o = 0; o < conv.out_channels; ++o)
        for (std::size_t ci = 0; ci < cg; ++ci)
            for (std::size_t ky = 0; ky < conv.kernel_h; ++ky)
                for (std::size_t kx = 0; kx < conv.kernel_w; ++kx) {
                    const double w = conv.kernel[((o * cg + ci) * conv.kernel_h + ky) * conv.kernel_w + kx] * share;
                    for (std::size_t a = 0; a < fh; ++a)
                        for (std::size_t b = 0; b < fw; ++b) {
                            const std::size_t y = ky * conv.dilation_h * fh + a, x = kx * conv.dilation_w * fw + b;
                            c.kernel[((o * cg + ci) * c.kernel_height + y) * c.kernel_width + x] += w;
                        }
                }
    return c;
}

std::vector<double> fold_dense(const pending_linear& m, const dense_spec& dense, double scale) {
    const std::size_t n_src = m.channels * m.height * m.width, n_out = dense.out_features;
    const std::size_t hp = m.pooled_height(), wp = m.pooled_width();
    // column_of[pooled CHW index] = the dense input column that reads it.
    std::vector<std::size_t> column_of(m.read_channels() * hp * wp);
    for (std::size_t i = 0; i < column_of.size(); ++i) column_of[i] = i;
    if (!m.permutation.empty())
        for (std::size_t i = 0; i < m.permutation.size(); ++i) column_of[m.permutation[i]] = i;
    const double share = scale / static_cast<double>(m.pool_h * m.pool_w);
    std::vector<double> weights(n_src * n_out, 0.0);
    for (std::size_t ch = 0; ch < m.channels; ++ch)
        for (std::size_t y = 0; y < hp * m.pool_h; ++y)
            for (std::size_t x = 0; x < wp * m.pool_w; ++x) {
                const std::size_t src = (ch * m.height + y) * m.width + x;
                const std::size_t col = column_of[((ch + m.channel_offset) * hp + y / m.pool_h) * wp + x / m.pool_w];
                for (std::size_t o = 0; o < n_out; ++o)
                    weights[src * n_out + o] = dense.kernel[o * dense.in_features + col] * share;
            }
    return weights;
}

void apply_convolution(const snn::convolution& c, const float* x, double* y) {
    const std::size_t oh = c.out_height(), ow = c.out_width(), H = c.in_height, W = c.in_width;
    const std::size_t cg = c.in_channels / c.groups, og = c.out_channels / c.groups;
    for (std::size_t o = 0; o < c.out_channels; ++o)
        for (std::size_t r = 0; r < oh; ++r)
            for (std::size_t q = 0; q < ow; ++q) {
                double sum = 0;
                for (std::size_t ci = 0; ci < cg; ++ci) {
                    const std::size_t ch = o / og * cg + ci;
                    for (std::size_t ky = 0; ky < c.kernel_height; ++ky) {
                        const std::ptrdiff_t iy = static_cast<std::ptrdiff_t>(r * c.stride_h + ky * c.dilation_h) -
                                                  static_cast<std::ptrdiff_t>(c.pad_top);
                        if (iy < 0 || iy >= static_cast<std::ptrdiff_t>(H)) continue;
                        for (std::size_t kx = 0; kx < c.kernel_width; ++kx) {
                            const std::ptrdiff_t ix = static_cast<std::ptrdiff_t>(q * c.stride_w + kx * c.dilation_w) -
                                                      static_cast<std::ptrdiff_t>(c.pad_left);
                            if (ix < 0 || ix >= static_cast<std::ptrdiff_t>(W)) continue;
                            sum += c.kernel[((o * cg + ci) * c.kernel_height + ky) * c.kernel_width + kx] *
                                   static_cast<double>(x[(ch * H + static_cast<std::size_t>(iy)) * W +
                                                         static_cast<std::size_t>(ix)]);
                        }
                    }
                }
                y[(o * oh + r) * ow + q] = sum;
            }
}

}  // namespace volley::convert::detail
