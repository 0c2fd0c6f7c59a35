#pragma once
// The linear layers between two spiking layers, folded into the projection that ends them.
//
// Why folding is exact: an average pool whose windows tile its input (pool = stride, the size
// divisible by it) followed by a convolution (kernel k, stride s, padding p, dilation d) is one
// convolution of the unpooled map with stride s·f, padding p·f and kernel rows
// ky' = ky·d·f + a (a < f) of weight w/f per axis: every pooled cell is the mean of f x f input
// cells, and the pooled padding is exactly the unpooled padding. Zero padding before a
// convolution adds to its padding. Flatten relabels the values, which only reorders the
// columns of the next dense layer.

#include <volley/convert/cnn_graph.hpp>
#include <volley/snn/connectors.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace volley::convert::detail {

/// The linear moves from a spiking layer's map (or the image) to the input of the next
/// conv/dense node.
struct pending_linear {
    std::size_t channels = 0, height = 0, width = 0;  ///< the source map
    std::size_t pool_h = 1, pool_w = 1;               ///< tiling average pool, composed
    zero_pad_spec pad;                                ///< zero padding after the pool
    bool flattened = false;
    std::vector<std::uint32_t> permutation;  ///< flatten's out[i] = in[permutation[i]]; empty: identity
    /// Where the source's channels sit in the (concatenated) map the next layer reads, and that
    /// map's channel count (0: `channels`, no concatenation).
    std::size_t channel_offset = 0, map_channels = 0;
    std::size_t read_channels() const noexcept { return map_channels == 0 ? channels : map_channels; }
    std::size_t pooled_height() const noexcept { return height / pool_h; }
    std::size_t pooled_width() const noexcept { return width / pool_w; }
};

/// The convolution of the source map equivalent to `moves` then `conv`, with every weight
/// multiplied by `scale`. The caller has checked that the pools tile and nothing is flattened.
snn::convolution fold_convolution(const pending_linear& moves, const conv2d_spec& conv, double scale);

/// The all_to_all weight list [source * n_out + out] equivalent to `moves` then `dense`, with
/// every weight multiplied by `scale`. The caller has checked that there is no zero padding.
std::vector<double> fold_dense(const pending_linear& moves, const dense_spec& dense, double scale);

/// y = conv(x) (CHW maps), directly, for the first layer's input current.
void apply_convolution(const snn::convolution& c, const float* x, double* y);

}  // namespace volley::convert::detail
