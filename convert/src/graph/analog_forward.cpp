// The analog forward pass of a cnn_graph, one image at a time (OpenMP over images), so that the
// result of each image does not depend on the thread count.

#include <volley/convert/analog_forward.hpp>
#include <volley/error.hpp>
#include <volley/thread_limit.hpp>

#include "layers/gemm.hpp"

#include <algorithm>
#include <limits>

#include <omp.h>

namespace volley::convert {

namespace {

/// Per-thread buffers: one output per node, and the im2col columns.
struct image_scratch {
    std::vector<std::vector<float>> outputs;
    std::vector<float> columns;
};

/// im2col for the general geometry (asymmetric padding, per-axis stride, dilation) of the
/// channels [c0, c0 + channels) of `image`.
void im2col_general(const float* image, const shape4& in, const conv2d_spec& c, std::size_t c0,
                    std::size_t channels, std::size_t oh, std::size_t ow, float* columns) {
    const std::size_t plane = oh * ow;
    for (std::size_t ch = 0; ch < channels; ++ch) {
        const float* src = image + (c0 + ch) * in.h * in.w;
        for (std::size_t ky = 0; ky < c.kernel_h; ++ky)
            for (std::size_t kx = 0; kx < c.kernel_w; ++kx) {
                float* row = columns + ((ch * c.kernel_h + ky) * c.kernel_w + kx) * plane;
                for (std::size_t oy = 0; oy < oh; ++oy) {
                    const auto y =
                        static_cast<std::ptrdiff_t>(oy * c.stride_h + ky * c.dilation_h) -
                        static_cast<std::ptrdiff_t>(c.pad_top);
                    float* out = row + oy * ow;
                    if (y < 0 || y >= static_cast<std::ptrdiff_t>(in.h)) {
                        std::fill(out, out + ow, 0.0f);
                        continue;
                    }
                    const float* line = src + static_cast<std::size_t>(y) * in.w;
                    for (std::size_t ox = 0; ox < ow; ++ox) {
                        const auto x =
                            static_cast<std::ptrdiff_t>(ox * c.stride_w + kx * c.dilation_w) -
                            static_cast<std::ptrdiff_t>(c.pad_left);
                        out[ox] = (x < 0 || x >= static_cast<std::ptrdiff_t>(in.w))
                                      ? 0.0f
                                      : line[static_cast<std::size_t>(x)];
                    }
                }
            }
    }
}

void run_conv(const layer_node& n, const shape4& in, const float* x, float* y,
              std::vector<float>& columns) {
    const auto& c = n.conv;
    const shape4& out = n.output_shape;
    const std::size_t plane = out.h * out.w, in_per_group = c.in_channels / c.groups,
                      out_per_group = c.out_channels / c.groups,
                      rows = in_per_group * c.kernel_h * c.kernel_w;
    columns.resize(rows * plane);
    for (std::size_t gr = 0; gr < c.groups; ++gr) {
        im2col_general(x, in, c, gr * in_per_group, in_per_group, out.h, out.w, columns.data());
        detail::gemm(detail::gemm_operands<float>{
            false, false, out_per_group, plane, rows, c.kernel.data() + gr * out_per_group * rows,
            rows, columns.data(), plane, y + gr * out_per_group * plane, plane, false});
    }
    for (std::size_t o = 0; o < c.out_channels; ++o)
        for (std::size_t k = 0; k < plane; ++k) y[o * plane + k] += c.bias[o];
}

void run_dense(const layer_node& n, const float* x, float* y) {
    const auto& d = n.dense;
    for (std::size_t o = 0; o < d.out_features; ++o) {
        const float* w = d.kernel.data() + o * d.in_features;
        double sum = 0;
        for (std::size_t i = 0; i < d.in_features; ++i) sum += static_cast<double>(w[i]) * x[i];
        y[o] = static_cast<float>(sum + d.bias[o]);
    }
}

void run_pool(const layer_node& n, const shape4& in, const float* x, float* y) {
    const auto& p = n.pool;
    const shape4& out = n.output_shape;
    const bool is_max = n.kind == layer_kind::max_pool;
    const float inv_area = 1.0f / static_cast<float>(p.pool_h * p.pool_w);
    for (std::size_t ch = 0; ch < in.c; ++ch) {
        const float* src = x + ch * in.h * in.w;
        float* dst = y + ch * out.h * out.w;
        for (std::size_t oy = 0; oy < out.h; ++oy)
            for (std::size_t ox = 0; ox < out.w; ++ox) {
                float acc = is_max ? -std::numeric_limits<float>::infinity() : 0.0f;
                for (std::size_t ky = 0; ky < p.pool_h; ++ky)
                    for (std::size_t kx = 0; kx < p.pool_w; ++kx) {
                        const float v = src[(oy * p.stride_h + ky) * in.w + ox * p.stride_w + kx];
                        acc = is_max ? std::max(acc, v) : acc + v;
                    }
                dst[oy * out.w + ox] = is_max ? acc : acc * inv_area;
            }
    }
}

void run_zero_pad(const layer_node& n, const shape4& in, const float* x, float* y) {
    const shape4& out = n.output_shape;
    std::fill(y, y + out.per_image(), 0.0f);
    for (std::size_t ch = 0; ch < in.c; ++ch)
        for (std::size_t r = 0; r < in.h; ++r)
            std::copy(x + (ch * in.h + r) * in.w, x + (ch * in.h + r + 1) * in.w,
                      y + (ch * out.h + r + n.pad.top) * out.w + n.pad.left);
}

void run_image(const cnn_graph& g, const float* image, image_scratch& s, std::size_t index,
               const activation_visitor& visitor) {
    s.outputs.resize(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const auto& n = g.nodes[i];
        auto& y = s.outputs[i];
        y.resize(n.output_shape.per_image());
        const float* x = n.inputs.empty() ? image : s.outputs[n.inputs.front()].data();
        const shape4& in =
            n.inputs.empty() ? g.input_shape : g.nodes[n.inputs.front()].output_shape;
        switch (n.kind) {
            case layer_kind::conv2d:
                run_conv(n, in, x, y.data(), s.columns);
                break;
            case layer_kind::dense:
                run_dense(n, x, y.data());
                break;
            case layer_kind::avg_pool:
            case layer_kind::max_pool:
                run_pool(n, in, x, y.data());
                break;
            case layer_kind::zero_pad:
                run_zero_pad(n, in, x, y.data());
                break;
            case layer_kind::flatten:
            case layer_kind::reshape:
                if (n.permutation.empty())
                    std::copy(x, x + y.size(), y.data());
                else
                    for (std::size_t k = 0; k < y.size(); ++k) y[k] = x[n.permutation[k]];
                break;
            case layer_kind::relu:
            case layer_kind::identity:
                std::copy(x, x + y.size(), y.data());
                break;
            case layer_kind::add:
                std::copy(x, x + y.size(), y.data());
                for (std::size_t k = 1; k < n.inputs.size(); ++k) {
                    const auto& other = s.outputs[n.inputs[k]];
                    for (std::size_t v = 0; v < y.size(); ++v) y[v] += other[v];
                }
                break;
            case layer_kind::concatenate: {
                std::size_t at = 0;
                for (auto j : n.inputs) {
                    const auto& part = s.outputs[j];
                    std::copy(part.begin(), part.end(),
                              y.begin() + static_cast<std::ptrdiff_t>(at));
                    at += part.size();
                }
                break;
            }
        }
        if (n.relu || n.kind == layer_kind::relu)
            for (auto& v : y) v = std::max(v, 0.0f);
        if (visitor) visitor(index, i, std::span<const float>(y));
    }
}

}  // namespace

tensor<float> analog_forward(const cnn_graph& graph, const tensor<float>& images,
                             const forward_options& options, const activation_visitor& visitor) {
    const shape4 want = graph.input_shape.with_batch(images.shape.n);
    if (!(images.shape == want))
        throw invalid_parameter(graph.source_file, "image shape", to_string(images.shape),
                                "the model expects " + to_string(want));
    if (graph.nodes.empty())
        throw invalid_parameter(graph.source_file, "layers", "0", "empty model");
    const std::size_t n = images.shape.n, classes = graph.classes();
    tensor<float> logits(shape4{n, classes, 1, 1});
    check_thread_count("analog forward pass", options.threads);
    const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads)
    {
        image_scratch scratch;
#pragma omp for schedule(static)
        for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
            const auto k = static_cast<std::size_t>(i);
            run_image(graph, images.image(k), scratch, k, visitor);
            const auto& out = scratch.outputs.back();
            std::copy(out.begin(), out.end(), logits.image(k));
        }
    }
    return logits;
}

std::vector<float> analog_forward_one(const cnn_graph& graph, std::span<const float> image,
                                      const activation_visitor& visitor) {
    if (image.size() != graph.input_shape.per_image())
        throw invalid_parameter(graph.source_file, "image size", std::to_string(image.size()),
                                "the model expects " + to_string(graph.input_shape));
    image_scratch scratch;
    run_image(graph, image.data(), scratch, 0, visitor);
    return scratch.outputs.back();
}

std::vector<std::int32_t> argmax_rows(const tensor<float>& logits) {
    const std::size_t k = logits.shape.per_image();
    std::vector<std::int32_t> out(logits.shape.n);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const float* row = logits.image(i);
        out[i] = static_cast<std::int32_t>(std::max_element(row, row + k) - row);
    }
    return out;
}

}  // namespace volley::convert
