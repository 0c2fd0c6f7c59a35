// Integer mode of a converted network (see snn_quantization.hpp).

#include <volley/convert/snn_quantization.hpp>

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace volley::convert {

namespace {

double max_abs(const std::vector<double>& v) {
    double m = 0;
    for (const double x : v) m = std::max(m, std::abs(x));
    return m;
}

std::vector<double> rounded(const std::vector<double>& v, double scale) {
    std::vector<double> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = std::round(v[i] * scale);
    return out;
}

snn::value_spec rounded(const snn::value_spec& v, double scale, const std::string& object) {
    if (const auto* d = std::get_if<double>(&v)) return std::round(*d * scale);
    if (const auto* l = std::get_if<std::vector<double>>(&v)) return rounded(*l, scale);
    throw internal_error(object + ": a distribution cannot be quantised");
}

/// The incoming weights of a projection: the kernel of a convolution, else the weight list.
double projection_max_abs(const snn::projection& p) {
    if (const auto* c = std::get_if<snn::convolution>(&p.rule)) return max_abs(c->kernel);
    if (const auto* d = std::get_if<double>(&p.synapse.weight)) return std::abs(*d);
    if (const auto* l = std::get_if<std::vector<double>>(&p.synapse.weight)) return max_abs(*l);
    throw internal_error("projection weights of a converted network are not constant or listed");
}

}  // namespace

std::size_t head_start(const converted_snn& net) {
    const auto& projections = net.network.projections();
    std::size_t first = net.layers.size();
    for (std::size_t l = net.layers.size(); l-- > 1;) {
        const auto target = net.layers[l].population;
        bool dense_from_layer = false;
        for (const auto& p : projections)
            if (p.target == target && p.source == net.layers[l - 1].population &&
                std::holds_alternative<snn::all_to_all>(p.rule))
                dense_from_layer = true;
        if (!dense_from_layer) break;
        first = l;
    }
    return first;
}

quantized_snn quantize_snn(const converted_snn& net, const quantization_options& options) {
    if (options.bits < 2 || options.bits > 31)
        throw invalid_parameter("quantisation", "bits", std::to_string(options.bits), "must be in 2..31");
    if (!(options.head_max_threshold >= 0) || !std::isfinite(options.head_max_threshold))
        throw invalid_parameter("quantisation", "head_max_threshold", std::to_string(options.head_max_threshold),
                                "must be finite and >= 0 (0: no limit)");
    const double max_int = std::ldexp(1.0, options.bits - 1) - 1;
    quantized_snn q;
    q.bits = options.bits;
    q.head_first = head_start(net);

    // Scale of each layer, from its incoming weights.
    const auto& pops = net.network.populations();
    std::vector<int> layer_of(pops.size(), -1);
    for (std::size_t l = 0; l < net.layers.size(); ++l) layer_of[net.layers[l].population.value] = static_cast<int>(l);
    std::vector<double> in_max(net.layers.size(), 0);
    for (const auto& p : net.network.projections())
        if (layer_of[p.target.value] >= 0)
            in_max[static_cast<std::size_t>(layer_of[p.target.value])] =
                std::max(in_max[static_cast<std::size_t>(layer_of[p.target.value])], projection_max_abs(p));
    if (!net.layers.empty() && !net.input) {
        if (const auto* c = std::get_if<snn::convolution>(&net.first_map)) in_max[0] = max_abs(c->kernel);
        else in_max[0] = max_abs(net.first_weights);
    }
    for (std::size_t l = 0; l < net.layers.size(); ++l) {
        quantized_layer ql;
        ql.name = net.layers[l].name;
        ql.max_abs_weight = in_max[l];
        ql.head = l >= q.head_first;
        const std::string object = net.source_file + ": layer '" + ql.name + "'";
        if (!(in_max[l] > 0) || !std::isfinite(in_max[l]))
            throw unsupported_model(object, "its incoming weights are all zero: no integer scale exists");
        ql.scale = max_int / in_max[l];
        if (ql.head && options.head_max_threshold > 0 && ql.scale > options.head_max_threshold) {
            ql.scale = options.head_max_threshold;
            ql.scale_limited = true;
        }
        const double theta = std::round(ql.scale);
        if (theta < 1)
            throw unsupported_model(object, "a weight of " + std::to_string(in_max[l]) +
                                                " thresholds does not fit " + std::to_string(options.bits) +
                                                " bits with an integer threshold >= 1; use more bits");
        if (theta > 9007199254740992.0)  // 2^53: beyond exact doubles
            throw unsupported_model(object, "threshold " + std::to_string(theta) + " exceeds 2^53; weights too small");
        ql.threshold = static_cast<std::int64_t>(theta);
        q.layers.push_back(ql);
    }

    // The network again, population by population and projection by projection.
    converted_snn& out = q.snn;
    out.layers = net.layers;
    out.input = net.input;
    out.channels = net.channels;
    out.height = net.height;
    out.width = net.width;
    out.options = net.options;
    out.source_file = net.source_file;
    for (std::size_t k = 0; k < pops.size(); ++k) {
        const auto& p = pops[k];
        const int l = layer_of[k];
        auto model = p.model;
        if (l >= 0) {
            auto* n = std::get_if<snn::discrete_neuron>(&model);
            if (!n) throw internal_error("layer '" + p.name + "' of a converted network is not a discrete_neuron");
            const auto& ql = q.layers[static_cast<std::size_t>(l)];
            n->p.v_threshold = static_cast<double>(ql.threshold);
            n->p.v_reset = 0;
            n->p.i_bias = std::round(n->p.i_bias * ql.scale);
            if (ql.head && options.hardware_head) n->reset = snn::discrete_neuron::reset_mode::to_v_reset;
        }
        const auto pop = out.network.add_population(p.name, p.size, model);
        for (const auto& [name, value] : p.parameters) {
            if (l >= 0 && name == "i_bias") {
                const auto b = rounded(value, q.layers[static_cast<std::size_t>(l)].scale, p.name);
                if (const auto* list = std::get_if<std::vector<double>>(&b))
                    q.layers[static_cast<std::size_t>(l)].max_abs_bias = static_cast<std::int64_t>(max_abs(*list));
                else q.layers[static_cast<std::size_t>(l)].max_abs_bias = static_cast<std::int64_t>(std::abs(std::get<double>(b)));
                out.network.set_parameter(pop, name, b);
            } else if (l >= 0 && (name == "v_threshold" || name == "v_reset")) {
                throw internal_error("layer '" + p.name + "' overrides " + name + " per neuron");
            } else {
                out.network.set_parameter(pop, name, value);
            }
        }
        for (const auto& [name, value] : p.initial_values) {
            const bool hardware_neuron = l >= 0 && q.layers[static_cast<std::size_t>(l)].head && options.hardware_head;
            if (hardware_neuron && name == "v") continue;  // RISP and danna2 neurons start at charge 0
            if (l >= 0 && name == "v")
                out.network.initialise(pop, name, rounded(value, static_cast<double>(q.layers[static_cast<std::size_t>(l)].threshold), p.name));
            else out.network.initialise(pop, name, value);
        }
    }
    for (const auto& p : net.network.projections()) {
        const int l = layer_of[p.target.value];
        if (l < 0) throw internal_error("a projection of a converted network targets a non-spiking population");
        const double s = q.layers[static_cast<std::size_t>(l)].scale;
        auto rule = p.rule;
        auto syn = p.synapse;
        if (auto* c = std::get_if<snn::convolution>(&rule)) c->kernel = rounded(c->kernel, s);
        else syn.weight = rounded(syn.weight, s, pops[p.target.value].name);
        out.network.connect(p.source, p.target, rule, syn);
    }
    if (!net.network.stimuli().empty())
        throw internal_error("a converted network with current stimuli cannot be quantised");

    // The first layer's image map (constant-current coding) and bias.
    const double s0 = net.layers.empty() ? 1.0 : q.layers[0].scale;
    out.first_map = net.first_map;
    if (auto* c = std::get_if<snn::convolution>(&out.first_map)) c->kernel = rounded(c->kernel, s0);
    out.first_weights = rounded(net.first_weights, s0);
    out.first_bias = rounded(net.first_bias, s0);
    return q;
}

}  // namespace volley::convert
