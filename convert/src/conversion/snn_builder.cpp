// Building the spiking network of a CNN (see snn_conversion.hpp).

#include <volley/convert/snn_conversion.hpp>

#include <volley/error.hpp>
#include <volley/snn/neuron_models.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "conversion/folded_projection.hpp"

namespace volley::convert {

namespace {

using detail::pending_linear;

/// The delay of every projection of the converted network [ms = steps]: zero, so that every
/// layer hears the one below in the same step, as in the numpy reference and SNN Toolbox (the
/// engine updates the layers in order within a step; docs/engine.md, "Zero-delay projections").
constexpr double projection_delay_ms = 0.0;

std::string layer_object(const cnn_graph& g, const layer_node& n) {
    return g.source_file + ": layer '" + n.name + "' (" + (n.source_type.empty() ? std::string(to_string(n.kind)) : n.source_type) + ")";
}

[[noreturn]] void unsupported(const cnn_graph& g, const layer_node& n, const std::string& why) {
    throw unsupported_model(layer_object(g, n), why);
}

double checked_lambda(const cnn_graph& g, const layer_scales& s, std::size_t node) {
    const double l = s.lambda[node];
    if (!std::isfinite(l) || !(l > 0))
        throw invalid_parameter(layer_object(g, g.nodes[node]), "lambda", std::to_string(l), "must be finite and > 0");
    return l;
}

void check_options(const conversion_options& o) {
    if (!std::isfinite(o.v0) || o.v0 < 0 || o.v0 >= 1)
        throw invalid_parameter("conversion options", "v0", std::to_string(o.v0), "must be in [0, 1) (units of the threshold)");
    if (o.input == input_coding::ttfs && o.ttfs_window < 2)
        throw invalid_parameter("conversion options", "ttfs_window", std::to_string(o.ttfs_window),
                                "the time-to-first-spike window needs at least 2 steps");
    if (o.input == input_coding::poisson || o.input == input_coding::bernoulli) {
        if (!std::isfinite(o.max_rate) || !(o.max_rate > 0))
            throw invalid_parameter("conversion options", "max_rate", std::to_string(o.max_rate), "must be finite and > 0");
        if (o.input == input_coding::bernoulli && o.max_rate > 1)
            throw invalid_parameter("conversion options", "max_rate", std::to_string(o.max_rate),
                                    "a Bernoulli input fires at most once per step: must be <= 1");
    }
}

}  // namespace

std::string to_string(reset_rule r) { return r == reset_rule::subtract ? "subtract" : "zero"; }

std::string to_string(input_coding c) {
    switch (c) {
        case input_coding::constant_current: return "const";
        case input_coding::poisson: return "poisson";
        case input_coding::bernoulli: return "bernoulli";
        case input_coding::ttfs: return "ttfs";
    }
    return "?";
}

namespace {

constexpr int image_source = -1;

/// One summand of a node's value: the rates of a spiking layer (or the image) carried through
/// the linear moves (pools, padding) into channels [channel_offset, channel_offset + channels)
/// of the node's map, and then, for a weighted term, through one convolution or dense map (a
/// layer's, or the composition of consecutive linear layers such as SeparableConv2D's
/// depthwise and pointwise parts).
struct term {
    int source = image_source;  ///< index into converted_snn::layers, or the image
    pending_linear moves;
    std::shared_ptr<const conv2d_spec> conv;  ///< weighted by this convolution (its bias unused)
    std::shared_ptr<const dense_spec> dense;  ///< weighted by this dense map (its bias unused)
    bool weighted() const noexcept { return conv || dense; }
};

/// A node's value as the converter sees it: a sum of terms over spiking layers plus the biases
/// of the weighted nodes in it, on a (channels, height, width) map, possibly flattened.
struct signal {
    std::size_t channels = 0, height = 0, width = 0;
    bool flattened = false;
    std::vector<std::uint32_t> permutation;
    std::vector<term> terms;
    std::vector<double> bias;  ///< per value, in the CNN's units (weighted terms' biases); empty: 0
    std::string layer;         ///< the one Conv2D/Dense whose output this is (names its population)
    bool weighted() const noexcept {
        return std::any_of(terms.begin(), terms.end(), [](const term& t) { return t.weighted(); });
    }
    std::size_t size() const noexcept { return channels * height * width; }
};

/// The pending moves of a whole spiking layer (or the image) as the start of a signal.
signal from_source(int source, std::size_t c, std::size_t h, std::size_t w) {
    signal s;
    s.channels = c, s.height = h, s.width = w;
    s.terms.push_back({source, pending_linear{c, h, w, 1, 1, {}, false, {}, 0, c}, nullptr, nullptr});
    return s;
}

/// The conv2d_spec restricted to the input channels [offset, offset + count) (groups = 1).
conv2d_spec channel_slice(const conv2d_spec& c, std::size_t offset, std::size_t count) {
    if (offset == 0 && count == c.in_channels) return c;
    conv2d_spec s = c;
    s.in_channels = count;
    s.kernel.assign(c.out_channels * count * c.kernel_h * c.kernel_w, 0.0f);
    const std::size_t k = c.kernel_h * c.kernel_w;
    for (std::size_t o = 0; o < c.out_channels; ++o)
        for (std::size_t i = 0; i < count; ++i)
            std::copy_n(c.kernel.begin() + static_cast<std::ptrdiff_t>(((o * c.in_channels) + offset + i) * k),
                        k, s.kernel.begin() + static_cast<std::ptrdiff_t>((o * count + i) * k));
    return s;
}

/// The explicit (source, target, weight) list of a term without weights: each source cell goes
/// to its pooled, padded, channel-shifted (and flattened) cell with weight scale/pool area.
snn::from_list placement(const term& t, const signal& sig, double scale, std::vector<double>& weights) {
    const auto& m = t.moves;
    const std::size_t hp = m.pooled_height(), wp = m.pooled_width();
    const std::size_t H = hp + m.pad.top + m.pad.bottom, W = wp + m.pad.left + m.pad.right;
    std::vector<std::uint32_t> target_of_chw;  // the flattened position of each CHW cell
    if (!sig.permutation.empty()) {
        target_of_chw.resize(sig.permutation.size());
        for (std::size_t i = 0; i < sig.permutation.size(); ++i) target_of_chw[sig.permutation[i]] = static_cast<std::uint32_t>(i);
    }
    snn::from_list rule;
    const double w = scale / static_cast<double>(m.pool_h * m.pool_w);
    for (std::size_t c = 0; c < m.channels; ++c)
        for (std::size_t y = 0; y < hp * m.pool_h; ++y)
            for (std::size_t x = 0; x < wp * m.pool_w; ++x) {
                const std::size_t chw = ((c + m.channel_offset) * H + y / m.pool_h + m.pad.top) * W + x / m.pool_w + m.pad.left;
                rule.sources.push_back(static_cast<std::uint32_t>((c * m.height + y) * m.width + x));
                rule.targets.push_back(target_of_chw.empty() ? static_cast<std::uint32_t>(chw) : target_of_chw[chw]);
                weights.push_back(w);
            }
    return rule;
}

}  // namespace

converted_snn convert_to_snn(const cnn_graph& g, const layer_scales& scales, const conversion_options& options) {
    check_options(options);
    if (g.nodes.empty()) throw invalid_parameter(g.source_file, "layers", "0", "the model has no layers");
    if (scales.lambda.size() != g.nodes.size())
        throw invalid_parameter(g.source_file, "layer scales", std::to_string(scales.lambda.size()) + " values",
                                "expected one λ per layer (" + std::to_string(g.nodes.size()) + ")");
    converted_snn out;
    out.options = options;
    out.source_file = g.source_file;
    out.channels = g.input_shape.c;
    out.height = g.input_shape.h;
    out.width = g.input_shape.w;
    const double input_scale = scales.input_scale;
    if (!std::isfinite(input_scale) || !(input_scale > 0))
        throw invalid_parameter(g.source_file, "input scale", std::to_string(input_scale), "must be finite and > 0");

    snn::discrete_neuron neuron;
    neuron.p.v_threshold = 1;
    neuron.p.v_reset = 0;
    neuron.reset = options.reset == reset_rule::subtract ? snn::discrete_neuron::reset_mode::subtract
                                                         : snn::discrete_neuron::reset_mode::to_v_reset;
    const bool spike_input = options.input != input_coding::constant_current;
    if (spike_input)
        out.input = out.network.add_population("input", static_cast<std::uint32_t>(out.image_size()), snn::analog_source{});
    const double delay_ms = projection_delay_ms;
    bool image_read = false;

    // Turns node k's signal into a population of IF neurons whose input is the signal / λ_k.
    auto materialise = [&](std::size_t k, const signal& sig, const std::string& name) -> signal {
        const auto& n = g.nodes[k];
        const double lambda = checked_lambda(g, scales, k);
        if (sig.flattened && !sig.permutation.empty() && sig.height * sig.width != 1)
            unsupported(g, n, "a spiking layer on a permuted map");
        spiking_layer layer;
        layer.name = name;
        layer.node = k;
        layer.lambda = lambda;
        layer.channels = sig.channels;
        layer.height = sig.height;
        layer.width = sig.width;
        const std::size_t size = layer.size();
        std::vector<double> bias(size, 0.0);
        for (std::size_t i = 0; i < sig.bias.size(); ++i) bias[i] = sig.bias[i] / lambda;
        const auto pop = out.network.add_population(name, static_cast<std::uint32_t>(size), neuron);
        layer.population = pop;
        out.network.set_parameter(pop, "i_bias", bias);
        if (options.v0 != 0) out.network.initialise(pop, "v", options.v0);
        for (const auto& t : sig.terms) {
            const bool from_image = t.source == image_source;
            const double lambda_src = from_image ? input_scale : out.layers[static_cast<std::size_t>(t.source)].lambda;
            const bool rate_coded = options.input == input_coding::poisson || options.input == input_coding::bernoulli;
            const double scale = lambda_src / lambda * (from_image && rate_coded ? 1.0 / options.max_rate : 1.0);
            snn::connector rule;
            std::vector<double> weights;
            if (!t.weighted()) {
                if (from_image) unsupported(g, n, "a spiking layer straight on the input; the input must reach it through a Conv2D or Dense");
                rule = placement(t, sig, scale, weights);
            } else if (t.conv) {
                auto c = detail::fold_convolution(t.moves, *t.conv, scale);
                if (c.out_height() != layer.height || c.out_width() != layer.width || c.out_channels != layer.channels)
                    throw internal_error("folded convolution into '" + name + "' has the wrong output size");
                rule = std::move(c);
            } else {
                weights = detail::fold_dense(t.moves, *t.dense, scale);
                rule = snn::all_to_all{};
            }
            if (from_image) {
                if (image_read || !out.layers.empty())
                    unsupported(g, n, "the image feeds more than one spiking layer; only one layer may read the input");
                image_read = true;
                out.first_map = rule;
                out.first_weights = weights;
                out.first_bias = bias;
                if (!spike_input) continue;
            }
            const auto src = from_image ? *out.input : out.layers[static_cast<std::size_t>(t.source)].population;
            if (weights.empty()) out.network.connect(src, pop, rule, {.weight = 1.0, .delay_ms = delay_ms});
            else out.network.connect(src, pop, rule, {.weight = std::move(weights), .delay_ms = delay_ms});
        }
        out.layers.push_back(std::move(layer));
        return from_source(static_cast<int>(out.layers.size() - 1), sig.channels, sig.height, sig.width);
    };

    // A max-pool as a gate (SNN Toolbox's fir_max): a relay population of one discrete IF unit
    // per window, which fires on every spike the max_pool_gate passes it (threshold 0.5, input
    // 1, reset to 0). Its rate is the rate of the window's leading input, so its λ is the
    // source's.
    auto gated_max_pool = [&](std::size_t k, const signal& in) -> signal {
        const auto& n = g.nodes[k];
        if (in.weighted() || in.terms.size() != 1 || in.flattened)
            unsupported(g, n, "a gated max-pool must read one spiking layer directly (after ReLU, optionally "
                              "zero-padded); use --max-pool avg");
        const auto& t = in.terms.front();
        const auto& m = t.moves;
        if (t.source == image_source) unsupported(g, n, "a max-pool on the input image; use --max-pool avg");
        if (m.pool_h * m.pool_w != 1 || m.channel_offset != 0 || m.read_channels() != m.channels)
            unsupported(g, n, "a gated max-pool after an average pool or a Concatenate; use --max-pool avg");
        snn::max_pool_gate gate;
        gate.channels = static_cast<std::uint32_t>(m.channels);
        gate.in_height = static_cast<std::uint32_t>(m.height);
        gate.in_width = static_cast<std::uint32_t>(m.width);
        gate.pool_h = static_cast<std::uint32_t>(n.pool.pool_h);
        gate.pool_w = static_cast<std::uint32_t>(n.pool.pool_w);
        gate.stride_h = static_cast<std::uint32_t>(n.pool.stride_h);
        gate.stride_w = static_cast<std::uint32_t>(n.pool.stride_w);
        gate.pad_top = static_cast<std::uint32_t>(m.pad.top);
        gate.pad_bottom = static_cast<std::uint32_t>(m.pad.bottom);
        gate.pad_left = static_cast<std::uint32_t>(m.pad.left);
        gate.pad_right = static_cast<std::uint32_t>(m.pad.right);
        if (gate.pad_top >= gate.pool_h || gate.pad_bottom >= gate.pool_h || gate.pad_left >= gate.pool_w ||
            gate.pad_right >= gate.pool_w)
            unsupported(g, n, "a gated max-pool whose padding is as large as its window; use --max-pool avg");
        const auto& src = out.layers[static_cast<std::size_t>(t.source)];
        spiking_layer relay;
        relay.name = n.name;
        relay.node = k;
        relay.lambda = src.lambda;
        relay.channels = m.channels;
        relay.height = gate.out_height();
        relay.width = gate.out_width();
        if (relay.height != n.output_shape.h || relay.width != n.output_shape.w)
            throw internal_error("gated max-pool '" + n.name + "' has the wrong output size");
        snn::discrete_neuron unit;
        unit.p.v_threshold = 0.5;
        unit.p.v_reset = 0;
        relay.population = out.network.add_population(n.name, static_cast<std::uint32_t>(relay.size()), unit);
        out.network.connect(src.population, relay.population, gate, {.weight = 1.0, .delay_ms = delay_ms});
        out.layers.push_back(std::move(relay));
        return from_source(static_cast<int>(out.layers.size() - 1), m.channels, gate.out_height(), gate.out_width());
    };

    // A Conv2D/Dense reading another linear layer's output (no ReLU between): the two maps
    // compose exactly when the second is a 1x1 convolution (stride 1, no padding, groups 1:
    // SeparableConv2D's pointwise part) on a convolution, or a Dense on a Dense. Each term's map
    // becomes second ∘ first, and the bias b2 + W2·b1.
    auto compose = [&](std::size_t k, const signal& in) -> signal {
        const auto& n = g.nodes[k];
        signal sig = in;
        const std::size_t m_ch = in.channels, hw = in.height * in.width;
        const bool all_conv = std::all_of(in.terms.begin(), in.terms.end(), [](const term& t) { return t.conv != nullptr; });
        const bool all_dense = std::all_of(in.terms.begin(), in.terms.end(), [](const term& t) { return t.dense != nullptr; });
        std::vector<double> w2;  // (out, m_ch)
        std::vector<float> b2;
        if (n.kind == layer_kind::conv2d && all_conv && !in.flattened) {
            const auto& c = n.conv;
            if (c.kernel_h != 1 || c.kernel_w != 1 || c.stride_h != 1 || c.stride_w != 1 || c.groups != 1 ||
                c.pad_top + c.pad_bottom + c.pad_left + c.pad_right > 0)
                unsupported(g, n, "two linear layers in a row (a Conv2D without ReLU before it) compose only when "
                                  "the second is a 1x1 convolution with stride 1; add a ReLU");
            w2.assign(c.kernel.begin(), c.kernel.end());
            b2 = c.bias;
            for (auto& t : sig.terms) {
                const auto& a = *t.conv;
                const std::size_t cg = a.in_channels / a.groups, og = a.out_channels / a.groups, kk = a.kernel_h * a.kernel_w;
                auto composed = std::make_shared<conv2d_spec>(a);
                composed->groups = 1;
                composed->out_channels = c.out_channels;
                composed->bias.assign(c.out_channels, 0.0f);
                composed->kernel.assign(c.out_channels * a.in_channels * kk, 0.0f);
                for (std::size_t o = 0; o < c.out_channels; ++o)
                    for (std::size_t mid = 0; mid < a.out_channels; ++mid) {
                        const double w = w2[o * m_ch + mid];
                        if (w == 0) continue;
                        for (std::size_t ci = 0; ci < cg; ++ci) {
                            const std::size_t ch = mid / og * cg + ci;
                            for (std::size_t q = 0; q < kk; ++q)
                                composed->kernel[(o * a.in_channels + ch) * kk + q] +=
                                    static_cast<float>(w * a.kernel[(mid * cg + ci) * kk + q]);
                        }
                    }
                t.conv = std::move(composed);
            }
        } else if (n.kind == layer_kind::dense && all_dense && hw == 1) {
            const auto& d = n.dense;
            w2.assign(d.kernel.begin(), d.kernel.end());
            b2 = d.bias;
            for (auto& t : sig.terms) {
                const auto& a = *t.dense;
                auto composed = std::make_shared<dense_spec>(a);
                composed->out_features = d.out_features;
                composed->bias.assign(d.out_features, 0.0f);
                composed->kernel.assign(d.out_features * a.in_features, 0.0f);
                for (std::size_t o = 0; o < d.out_features; ++o)
                    for (std::size_t mid = 0; mid < a.out_features; ++mid) {
                        const double w = w2[o * m_ch + mid];
                        for (std::size_t i = 0; i < a.in_features; ++i)
                            composed->kernel[o * a.in_features + i] += static_cast<float>(w * a.kernel[mid * a.in_features + i]);
                    }
                t.dense = std::move(composed);
            }
        } else {
            unsupported(g, n, "two linear layers in a row (a Conv2D or Dense without ReLU before it); add a ReLU");
        }
        const std::size_t out_ch = n.output_shape.c;
        sig.channels = out_ch;
        sig.bias.assign(out_ch * hw, 0.0);
        for (std::size_t o = 0; o < out_ch; ++o)
            for (std::size_t p = 0; p < hw; ++p) {
                double b = b2[o];
                for (std::size_t mid = 0; mid < m_ch && !in.bias.empty(); ++mid) b += w2[o * m_ch + mid] * in.bias[mid * hw + p];
                sig.bias[o * hw + p] = b;
            }
        sig.layer = n.name;
        return sig;
    };

    std::vector<signal> signals(g.nodes.size());
    for (std::size_t k = 0; k < g.nodes.size(); ++k) {
        const auto& n = g.nodes[k];
        const bool is_output = k + 1 == g.nodes.size();
        for (const std::size_t i : n.inputs)
            if (i >= k) unsupported(g, n, "its input comes after it (the graph is not in topological order)");
        if (n.inputs.size() > 1 && n.kind != layer_kind::add && n.kind != layer_kind::concatenate)
            unsupported(g, n, "only Add and Concatenate read more than one layer");
        const signal in = n.inputs.empty() ? from_source(image_source, out.channels, out.height, out.width)
                                           : signals[n.inputs.front()];
        auto only_moves = [&](const signal& s) {
            if (s.weighted())
                unsupported(g, n, "two linear layers in a row (a Conv2D or Dense without ReLU before it); add a ReLU");
        };
        signal sig;
        std::string name = n.name;
        switch (n.kind) {
            case layer_kind::identity:
            case layer_kind::relu:
                sig = in;
                // A ReLU of one Conv2D/Dense is that layer's spiking population: keep its name.
                if (!in.layer.empty()) name = in.layer;
                break;
            case layer_kind::max_pool:
                if (!options.max_pool_as_avg) {
                    sig = gated_max_pool(k, in);
                    break;
                }
                [[fallthrough]];
            case layer_kind::avg_pool: {
                only_moves(in);
                sig = in;
                const auto& p = n.pool;
                for (auto& t : sig.terms) {
                    auto& m = t.moves;
                    if (in.flattened || m.pad.top + m.pad.bottom + m.pad.left + m.pad.right > 0 ||
                        p.pool_h != p.stride_h || p.pool_w != p.stride_w || m.pooled_height() % p.pool_h != 0 ||
                        m.pooled_width() % p.pool_w != 0)
                        unsupported(g, n, "only pools whose windows tile their input convert (pool size = strides, on a "
                                          "size divisible by it, not after padding or Flatten); pool " +
                                              std::to_string(p.pool_h) + "x" + std::to_string(p.pool_w) + " stride " +
                                              std::to_string(p.stride_h) + "x" + std::to_string(p.stride_w) + " on " +
                                              std::to_string(m.pooled_height()) + "x" + std::to_string(m.pooled_width()) +
                                              (n.kind == layer_kind::max_pool ? "; a max-pool converts as a gate with --max-pool gate" : ""));
                    m.pool_h *= p.pool_h;
                    m.pool_w *= p.pool_w;
                }
                sig.height /= p.pool_h;
                sig.width /= p.pool_w;
                break;
            }
            case layer_kind::zero_pad:
                only_moves(in);
                if (in.flattened) unsupported(g, n, "zero padding after Flatten");
                sig = in;
                for (auto& t : sig.terms) {
                    t.moves.pad.top += n.pad.top;
                    t.moves.pad.bottom += n.pad.bottom;
                    t.moves.pad.left += n.pad.left;
                    t.moves.pad.right += n.pad.right;
                }
                sig.height += n.pad.top + n.pad.bottom;
                sig.width += n.pad.left + n.pad.right;
                break;
            case layer_kind::flatten:
            case layer_kind::reshape:
                only_moves(in);
                if (n.kind == layer_kind::reshape && (n.output_shape.h != 1 || n.output_shape.w != 1))
                    unsupported(g, n, "only a Reshape to a flat vector converts (use Flatten)");
                if (in.flattened && !n.permutation.empty())
                    unsupported(g, n, "two permuting Flatten/Reshape layers in a row");
                sig = in;
                sig.flattened = true;
                if (!n.permutation.empty()) sig.permutation = n.permutation;
                break;
            case layer_kind::add:
                sig = in;
                sig.layer.clear();
                for (std::size_t j = 1; j < n.inputs.size(); ++j) {
                    const auto& other = signals[n.inputs[j]];
                    if (other.channels != sig.channels || other.height != sig.height || other.width != sig.width ||
                        other.flattened != sig.flattened || other.permutation != sig.permutation)
                        unsupported(g, n, "its inputs have different shapes or orders");
                    sig.terms.insert(sig.terms.end(), other.terms.begin(), other.terms.end());
                    if (sig.bias.empty()) sig.bias.assign(sig.size(), 0.0);
                    for (std::size_t i = 0; i < other.bias.size(); ++i) sig.bias[i] += other.bias[i];
                }
                break;
            case layer_kind::concatenate:
                sig = in;
                sig.terms.clear();
                sig.bias.clear();
                sig.layer.clear();
                sig.channels = 0;
                for (const std::size_t i : n.inputs) {
                    const auto& part = signals[i];
                    if (part.weighted())
                        unsupported(g, n, "a Concatenate of a Conv2D or Dense without ReLU; add a ReLU to its inputs");
                    if (part.flattened || part.height != sig.height || part.width != sig.width)
                        unsupported(g, n, "only Concatenate along the channels of unflattened maps of one size converts");
                    for (auto t : part.terms) {
                        t.moves.channel_offset += sig.channels;
                        sig.terms.push_back(std::move(t));
                    }
                    sig.channels += part.channels;
                }
                for (auto& t : sig.terms) t.moves.map_channels = sig.channels;
                break;
            case layer_kind::conv2d:
            case layer_kind::dense: {
                if (in.weighted()) {
                    sig = compose(k, in);
                    break;
                }
                sig.terms.clear();
                for (auto t : in.terms) {
                    auto& m = t.moves;
                    if (n.kind == layer_kind::conv2d) {
                        if (in.flattened) unsupported(g, n, "a Conv2D after Flatten");
                        if (n.conv.groups != 1 && (m.channel_offset != 0 || m.channels != n.conv.in_channels))
                            unsupported(g, n, "a grouped Conv2D on a Concatenate");
                        t.conv = std::make_shared<const conv2d_spec>(channel_slice(n.conv, m.channel_offset, m.channels));
                    } else {
                        if (m.pad.top + m.pad.bottom + m.pad.left + m.pad.right > 0)
                            unsupported(g, n, "zero padding before a Dense layer");
                        if (!in.flattened && m.pooled_height() * m.pooled_width() != 1)
                            unsupported(g, n, "a Dense layer on a map that was not flattened");
                        m.flattened = in.flattened;
                        m.permutation = in.permutation;
                        t.dense = std::make_shared<const dense_spec>(n.dense);
                    }
                    sig.terms.push_back(std::move(t));
                }
                sig.channels = n.output_shape.c;
                sig.height = n.output_shape.h;
                sig.width = n.output_shape.w;
                sig.flattened = false;
                sig.permutation.clear();
                const auto& b = n.kind == layer_kind::conv2d ? n.conv.bias : n.dense.bias;
                sig.bias.assign(sig.size(), 0.0);
                for (std::size_t i = 0; i < sig.size(); ++i) sig.bias[i] = b[i / (sig.height * sig.width)];
                sig.layer = n.name;
                break;
            }
        }
        if (n.relu || is_output) {
            if (is_output && !n.relu && n.kind != layer_kind::conv2d && n.kind != layer_kind::dense &&
                n.kind != layer_kind::add)
                unsupported(g, n, "the output layer must be a Conv2D, Dense or Add");
            sig = materialise(k, sig, name);
        }
        signals[k] = std::move(sig);
    }
    if (!image_read) throw unsupported_model(g.source_file, "no spiking layer reads the input");
    return out;
}

std::vector<double> converted_snn::first_layer_current(std::span<const float> image) const {
    if (image.size() != image_size())
        throw invalid_parameter(source_file, "image size", std::to_string(image.size()) + " values",
                                "the model expects " + std::to_string(channels) + "x" + std::to_string(height) + "x" +
                                    std::to_string(width) + " = " + std::to_string(image_size()));
    std::vector<double> current(first_bias.size());
    if (const auto* c = std::get_if<snn::convolution>(&first_map)) {
        detail::apply_convolution(*c, image.data(), current.data());
    } else {
        const std::size_t n = current.size();
        for (std::size_t i = 0; i < image.size(); ++i) {
            const double x = image[i];
            if (x == 0) continue;
            const double* w = first_weights.data() + i * n;
            for (std::size_t j = 0; j < n; ++j) current[j] += w[j] * x;
        }
    }
    for (std::size_t j = 0; j < current.size(); ++j) current[j] += first_bias[j];
    return current;
}

}  // namespace volley::convert
