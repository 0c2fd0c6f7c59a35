// Percentile normalisation by an exact two-pass radix select over the float bit patterns of the
// positive activations (see normalization.hpp for why).

#include <volley/convert/normalization.hpp>
#include <volley/error.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>

namespace volley::convert {

namespace {

constexpr std::size_t high_buckets = 1u << 15;  // sign bit is 0 for positive floats
constexpr std::size_t low_buckets = 1u << 16;

/// The order statistic with 0-based `rank` among the positive values: where pass 1 found it.
struct rank_target {
    std::size_t rank = 0;
    std::uint32_t high = 0;          ///< upper 16 bits of its pattern
    std::size_t rank_in_bucket = 0;  ///< its rank among the values of that bucket
    float value = 0;
};

struct node_histogram {
    std::mutex lock;
    std::vector<std::uint64_t> high;          // pass 1
    float max = 0;                            // pass 1: the largest value (p = 100 needs no pass 2)
    std::vector<std::uint64_t> low_a, low_b;  // pass 2, for targets a and b
    rank_target a, b;
    bool need_b = false;
    double fraction = 0;
};

bool is_pass_through(layer_kind k) {
    return k == layer_kind::avg_pool || k == layer_kind::max_pool || k == layer_kind::flatten ||
           k == layer_kind::reshape || k == layer_kind::zero_pad || k == layer_kind::identity;
}

void locate(rank_target& t, const std::vector<std::uint64_t>& high) {
    std::uint64_t before = 0;
    for (std::size_t b = 0; b < high.size(); ++b) {
        if (before + high[b] > t.rank) {
            t.high = static_cast<std::uint32_t>(b);
            t.rank_in_bucket = static_cast<std::size_t>(t.rank - before);
            return;
        }
        before += high[b];
    }
    throw internal_error("percentile rank beyond the histogram");
}

float pin(const rank_target& t, const std::vector<std::uint64_t>& low) {
    std::uint64_t before = 0;
    for (std::size_t b = 0; b < low.size(); ++b) {
        if (before + low[b] > t.rank_in_bucket)
            return std::bit_cast<float>(static_cast<std::uint32_t>((t.high << 16) | b));
        before += low[b];
    }
    throw internal_error("percentile rank beyond the bucket");
}

/// numpy's linear interpolation between neighbouring order statistics (numpy >= 1.22 _lerp).
double lerp(double a, double b, double t) {
    const double d = b - a;
    return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

}  // namespace

double percentile_linear(std::vector<float> values, double p) {
    if (values.empty()) throw invalid_parameter("percentile", "values", "[]", "empty");
    if (!(p >= 0 && p <= 100))
        throw invalid_parameter("percentile", "p", std::to_string(p), "must be in [0, 100]");
    std::sort(values.begin(), values.end());
    const double r = static_cast<double>(values.size() - 1) * p / 100.0;
    const auto k = static_cast<std::size_t>(std::floor(r));
    if (k + 1 >= values.size()) return values.back();
    return lerp(values[k], values[k + 1], r - static_cast<double>(k));
}

layer_scales compute_layer_scales(const cnn_graph& graph, const tensor<float>& images,
                                  const normalization_options& options) {
    if (!(options.percentile > 0 && options.percentile <= 100))
        throw invalid_parameter("normalisation", "percentile", std::to_string(options.percentile),
                                "must be in (0, 100]");
    if (!(options.input_scale > 0) || !std::isfinite(options.input_scale))
        throw invalid_parameter("normalisation", "input_scale", std::to_string(options.input_scale),
                                "must be > 0");
    std::size_t count = images.shape.n;
    if (options.max_images > 0) count = std::min(count, options.max_images);
    if (count == 0)
        throw invalid_parameter("normalisation", "images", "0", "the normalisation set is empty");
    tensor<float> set;
    const tensor<float>* used = &images;
    if (count < images.shape.n) {
        set = tensor<float>(images.shape.with_batch(count));
        std::copy(images.values.begin(),
                  images.values.begin() + static_cast<std::ptrdiff_t>(set.values.size()),
                  set.values.begin());
        used = &set;
    }
    const std::size_t nodes = graph.nodes.size();
    std::vector<std::unique_ptr<node_histogram>> hist(nodes);
    for (auto& h : hist) {
        h = std::make_unique<node_histogram>();
        h->high.assign(high_buckets, 0);
    }
    // Pass 1: counts by the upper 16 bits.
    analog_forward(graph, *used, options.forward,
                   [&](std::size_t, std::size_t node, std::span<const float> v) {
                       auto& h = *hist[node];
                       std::lock_guard guard(h.lock);
                       for (float x : v)
                           if (x > 0) {
                               ++h.high[std::bit_cast<std::uint32_t>(x) >> 16];
                               h.max = std::max(h.max, x);
                           }
                   });
    layer_scales out;
    out.input_scale = options.input_scale;
    out.images = count;
    out.lambda.assign(nodes, 1.0);
    out.measured.assign(nodes, false);
    out.positive_count.assign(nodes, 0);
    bool second_pass = false;
    for (std::size_t i = 0; i < nodes; ++i) {
        auto& h = *hist[i];
        std::uint64_t n = 0;
        for (auto c : h.high) n += c;
        out.positive_count[i] = static_cast<std::size_t>(n);
        if (n == 0) continue;
        const double r = static_cast<double>(n - 1) * options.percentile / 100.0;
        h.a.rank = static_cast<std::size_t>(std::floor(r));
        h.fraction = r - static_cast<double>(h.a.rank);
        h.need_b = h.a.rank + 1 < n && h.fraction > 0;
        if (h.a.rank + 1 == n) continue;  // the maximum, known from pass 1
        locate(h.a, h.high);
        h.low_a.assign(low_buckets, 0);
        if (h.need_b) {
            h.b.rank = h.a.rank + 1;
            locate(h.b, h.high);
            h.low_b.assign(low_buckets, 0);
        }
        second_pass = true;
    }
    // Pass 2: counts by the lower 16 bits inside the buckets that hold the order statistics.
    if (second_pass)
        analog_forward(graph, *used, options.forward,
                       [&](std::size_t, std::size_t node, std::span<const float> v) {
                           auto& h = *hist[node];
                           if (h.low_a.empty()) return;
                           std::lock_guard guard(h.lock);
                           for (float x : v) {
                               if (!(x > 0)) continue;
                               const auto bits = std::bit_cast<std::uint32_t>(x);
                               if ((bits >> 16) == h.a.high) ++h.low_a[bits & 0xffffu];
                               if (h.need_b && (bits >> 16) == h.b.high) ++h.low_b[bits & 0xffffu];
                           }
                       });
    std::vector<double> measured_value(nodes, 1.0);
    for (std::size_t i = 0; i < nodes; ++i) {
        auto& h = *hist[i];
        if (out.positive_count[i] == 0) continue;
        if (h.low_a.empty()) {
            measured_value[i] = h.max;
            continue;
        }
        const double a = pin(h.a, h.low_a);
        measured_value[i] = h.need_b ? lerp(a, pin(h.b, h.low_b), h.fraction) : a;
    }
    for (std::size_t i = 0; i < nodes; ++i) {
        const auto& n = graph.nodes[i];
        const bool relu = n.relu || n.kind == layer_kind::relu;
        const double input_lambda =
            n.inputs.empty() ? options.input_scale : out.lambda[n.inputs.front()];
        bool inherit = !relu && i != graph.output() && is_pass_through(n.kind);
        if (!relu && i != graph.output() && n.kind == layer_kind::concatenate) {
            inherit = true;
            for (auto j : n.inputs) inherit = inherit && out.lambda[j] == input_lambda;
        }
        if (inherit) {
            out.lambda[i] = input_lambda;
        } else {
            out.measured[i] = true;
            out.lambda[i] = out.positive_count[i] ? measured_value[i] : 1.0;
        }
    }
    return out;
}

}  // namespace volley::convert
