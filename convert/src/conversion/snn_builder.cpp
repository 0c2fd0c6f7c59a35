// Building the spiking network of a CNN (see snn_conversion.hpp).

#include <volley/convert/snn_conversion.hpp>

#include <volley/error.hpp>
#include <volley/snn/neuron_models.hpp>

#include <cmath>
#include <sstream>

#include "conversion/folded_projection.hpp"

namespace volley::convert {

namespace {

using detail::pending_linear;

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
    if (o.input != input_coding::constant_current) {
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
    }
    return "?";
}

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

    pending_linear moves{out.channels, out.height, out.width, 1, 1, {}, false, {}};
    double lambda_src = input_scale;
    // Zero delay: every layer hears the one below in the same step, as in the numpy reference
    // and SNN Toolbox, so that T steps are T updates of the whole network.
    constexpr double delay_ms = 0;
    const snn::synapse_spec kernel_synapse{.weight = 1.0, .delay_ms = delay_ms, .receptor = snn::excitatory};

    for (std::size_t k = 0; k < g.nodes.size(); ++k) {
        const auto& n = g.nodes[k];
        if (n.inputs.size() > 1 || n.kind == layer_kind::add || n.kind == layer_kind::concatenate)
            unsupported(g, n, "Add and Concatenate are not supported by the spiking conversion yet; "
                              "use a sequential model (Conv2D, Dense, pooling, Flatten)");
        if ((k == 0 && !n.inputs.empty()) || (k > 0 && (n.inputs.empty() || n.inputs[0] != k - 1)))
            unsupported(g, n, "only sequential models convert: each layer must read the one before it");
        const bool is_output = k + 1 == g.nodes.size();
        switch (n.kind) {
            case layer_kind::identity:
                if (n.relu) unsupported(g, n, "a ReLU on its own needs a Conv2D or Dense right before it");
                continue;
            case layer_kind::relu:
                unsupported(g, n, "a ReLU on its own needs a Conv2D or Dense right before it");
            case layer_kind::max_pool:
                if (!options.max_pool_as_avg)
                    unsupported(g, n, "the gated max-pool is not implemented; convert with max-pool as average "
                                      "pooling (--max-pool avg) or retrain with AveragePooling2D");
                [[fallthrough]];
            case layer_kind::avg_pool: {
                const auto& p = n.pool;
                if (moves.flattened || moves.pad.top + moves.pad.bottom + moves.pad.left + moves.pad.right > 0 ||
                    p.pool_h != p.stride_h || p.pool_w != p.stride_w || moves.pooled_height() % p.pool_h != 0 ||
                    moves.pooled_width() % p.pool_w != 0)
                    unsupported(g, n, "only pools whose windows tile their input convert (pool size = strides, on a "
                                      "size divisible by it, not after padding or Flatten); pool " +
                                          std::to_string(p.pool_h) + "x" + std::to_string(p.pool_w) + " stride " +
                                          std::to_string(p.stride_h) + "x" + std::to_string(p.stride_w) + " on " +
                                          std::to_string(moves.pooled_height()) + "x" +
                                          std::to_string(moves.pooled_width()));
                moves.pool_h *= p.pool_h;
                moves.pool_w *= p.pool_w;
                if (is_output) unsupported(g, n, "the output layer must be a Conv2D or Dense");
                continue;
            }
            case layer_kind::zero_pad:
                if (moves.flattened) unsupported(g, n, "zero padding after Flatten");
                moves.pad.top += n.pad.top;
                moves.pad.bottom += n.pad.bottom;
                moves.pad.left += n.pad.left;
                moves.pad.right += n.pad.right;
                if (is_output) unsupported(g, n, "the output layer must be a Conv2D or Dense");
                continue;
            case layer_kind::flatten:
            case layer_kind::reshape:
                if (n.kind == layer_kind::reshape && (n.output_shape.h != 1 || n.output_shape.w != 1))
                    unsupported(g, n, "only a Reshape to a flat vector converts (use Flatten)");
                if (moves.flattened && !n.permutation.empty())
                    unsupported(g, n, "two permuting Flatten/Reshape layers in a row");
                moves.flattened = true;
                if (!n.permutation.empty()) moves.permutation = n.permutation;
                if (is_output) unsupported(g, n, "the output layer must be a Conv2D or Dense");
                continue;
            case layer_kind::add:
            case layer_kind::concatenate: break;  // rejected above
            case layer_kind::conv2d:
            case layer_kind::dense: break;
        }
        // A Conv2D or Dense: its neurons become one IF population.
        std::size_t lambda_node = k;
        if (!n.relu && !is_output) {
            if (k + 2 <= g.nodes.size() && g.nodes[k + 1].kind == layer_kind::relu && !g.nodes[k + 1].relu)
                lambda_node = k + 1;
            else
                unsupported(g, n, "a Conv2D or Dense without ReLU inside the network has no spiking equivalent; "
                                  "add a ReLU");
        }
        const double lambda = checked_lambda(g, scales, lambda_node);
        const double scale = lambda_src / lambda * (spike_input && out.layers.empty() ? 1.0 / options.max_rate : 1.0);
        spiking_layer layer;
        layer.name = n.name;
        layer.node = k;
        layer.lambda = lambda;
        layer.channels = n.output_shape.c;
        layer.height = n.output_shape.h;
        layer.width = n.output_shape.w;
        std::vector<double> bias(layer.size());
        snn::connector rule;
        std::vector<double> dense_weights;
        if (n.kind == layer_kind::conv2d) {
            if (moves.flattened) unsupported(g, n, "a Conv2D after Flatten");
            auto c = detail::fold_convolution(moves, n.conv, scale);
            if (c.out_height() != layer.height || c.out_width() != layer.width || c.out_channels != layer.channels)
                throw internal_error("folded convolution of '" + n.name + "' has the wrong output size");
            for (std::size_t i = 0; i < bias.size(); ++i) bias[i] = n.conv.bias[i / (layer.height * layer.width)] / lambda;
            rule = std::move(c);
        } else {
            if (moves.pad.top + moves.pad.bottom + moves.pad.left + moves.pad.right > 0)
                unsupported(g, n, "zero padding before a Dense layer");
            if (!moves.flattened && moves.pooled_height() * moves.pooled_width() != 1)
                unsupported(g, n, "a Dense layer on a map that was not flattened");
            dense_weights = detail::fold_dense(moves, n.dense, scale);
            for (std::size_t i = 0; i < bias.size(); ++i) bias[i] = n.dense.bias[i] / lambda;
            rule = snn::all_to_all{};
        }
        const auto pop = out.network.add_population(n.name, static_cast<std::uint32_t>(layer.size()), neuron);
        layer.population = pop;
        out.network.set_parameter(pop, "i_bias", bias);
        if (options.v0 != 0) out.network.initialise(pop, "v", options.v0);
        if (out.layers.empty()) {
            out.first_map = rule;
            out.first_weights = dense_weights;
            out.first_bias = bias;
            if (spike_input) {
                if (dense_weights.empty()) out.network.connect(*out.input, pop, rule, kernel_synapse);
                else out.network.connect(*out.input, pop, rule, {.weight = dense_weights, .delay_ms = delay_ms});
            }
        } else {
            auto& prev = out.layers.back();
            if (dense_weights.empty()) out.network.connect(prev.population, pop, rule, kernel_synapse);
            else out.network.connect(prev.population, pop, rule, {.weight = dense_weights, .delay_ms = delay_ms});
        }
        out.layers.push_back(std::move(layer));
        moves = pending_linear{n.output_shape.c, n.output_shape.h, n.output_shape.w, 1, 1, {}, false, {}};
        lambda_src = lambda;
        if (lambda_node != k) ++k;  // the ReLU node is part of this layer
    }
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
