// The RISP <-> engine bridge (see risp_bridge.hpp).

#include <volley/hw/risp_bridge.hpp>

#include <volley/error.hpp>

#include <cmath>
#include <map>

namespace volley::hw {

namespace {

// exp(-1 ms / 1e300 ms) is exactly 1.0 and exp(-1 ms / 1e-300 ms) exactly 0.0 in double, so
// these time constants give an exact non-leaky or fully leaky integrator.
constexpr double no_leak_tau_ms = 1e300;
constexpr double full_leak_tau_ms = 1e-300;

double property_value(const std::vector<double>& values, const property* p, double fallback) {
    return p ? values[static_cast<std::size_t>(p->index)] : fallback;
}

}  // namespace

risp_engine_network risp_to_snn(const tennlab_network& net, const risp_params& params,
                                const std::vector<spike>& inputs, bool normalized) {
    if (params.noisy())
        throw invalid_parameter("RISP network", "noisy_stddev / stds", "non-zero",
                                "the engine has no synaptic noise; a noisy RISP network cannot be bridged");
    const auto& props = net.properties;
    const property* threshold = props.find_node("Threshold");
    const property* leak = props.find_node("Leak");
    const property* weight = props.find_edge("Weight");
    const property* delay = props.find_edge("Delay");
    if (!threshold || !weight || !delay)
        throw invalid_parameter("RISP network", "properties", "Threshold/Weight/Delay",
                                "a RISP network needs Threshold, Weight and Delay properties");

    risp_engine_network out;
    std::map<node_id, std::uint32_t> index;
    const auto n = static_cast<std::uint32_t>(net.nodes.size());
    std::vector<double> thresholds(n), taus(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const auto& node = net.nodes[i];
        index[node.id] = i;
        out.node_of_neuron.push_back(node.id);
        thresholds[i] = params.effective_threshold(property_value(node.values, threshold, 0));
        if (!(thresholds[i] > 0))
            throw invalid_parameter("node " + tennlab_network::display_name(node), "Threshold",
                                    std::to_string(thresholds[i]),
                                    "an effective threshold <= 0 has no engine equivalent");
        const bool leaks = params.leak == leak_mode::all ||
                           (params.leak == leak_mode::configurable && property_value(node.values, leak, 0) != 0);
        taus[i] = leaks ? full_leak_tau_ms : no_leak_tau_ms;
    }
    if (n == 0) throw invalid_parameter("RISP network", "Nodes", "[]", "an empty network cannot be bridged");
    const auto neurons = out.net.add_population(
        "neurons", n, snn::lif_delta{{.tau_m_ms = no_leak_tau_ms, .v_rest_mv = 0, .v_reset_mv = 0,
                                      .v_thresh_mv = 1, .t_ref_ms = 0, .i_e_mv = 0}});
    out.net.set_parameter(neurons, "v_thresh_mv", thresholds);
    out.net.set_parameter(neurons, "tau_m_ms", taus);

    snn::from_list edges;
    std::vector<double> weights, delays;
    for (const auto& e : net.edges) {
        edges.sources.push_back(index.at(e.from));
        edges.targets.push_back(index.at(e.to));
        double w = e.values[static_cast<std::size_t>(weight->index)];
        if (!params.weights.empty()) w = params.weights[static_cast<std::size_t>(std::trunc(w))];
        weights.push_back(w);
        delays.push_back(std::trunc(e.values[static_cast<std::size_t>(delay->index)]));
    }
    if (!edges.sources.empty())
        out.net.connect(neurons, neurons, std::move(edges), {.weight = weights, .delay_ms = delays});

    if (!inputs.empty()) {
        std::vector<std::vector<double>> times;
        snn::from_list to_nodes;
        std::vector<double> values;
        for (std::size_t k = 0; k < inputs.size(); ++k) {
            const auto it = index.find(inputs[k].id);
            if (it == index.end())
                throw invalid_parameter("input spike " + std::to_string(k), "id", std::to_string(inputs[k].id),
                                        "no such node in the network");
            times.push_back({std::trunc(inputs[k].time) + 1});
            to_nodes.sources.push_back(static_cast<std::uint32_t>(k));
            to_nodes.targets.push_back(it->second);
            values.push_back(normalized ? inputs[k].value * params.spike_value_factor : inputs[k].value);
        }
        const auto src = out.net.add_population("inputs", static_cast<std::uint32_t>(inputs.size()),
                                                snn::spike_source{times});
        out.net.connect(src, neurons, std::move(to_nodes), {.weight = values, .delay_ms = 1.0});
    }
    if (params.min_potential > -std::numeric_limits<double>::infinity())
        out.notes.push_back("min_potential is not modelled: the engine agrees while no charge falls below " +
                            std::to_string(params.min_potential));
    if (params.fire_like_ravens)
        out.notes.push_back("fire_like_ravens: RISP records each fire one step later than the engine");
    if (!params.discrete)
        out.notes.push_back("floating point: the engine sums in fixed point (2^-30 of the largest weight), "
                            "RISP in double in queue order; a sum that lands on a threshold may differ");
    return out;
}

tennlab_network snn_to_risp(const snn::network& net, const risp_params& params) {
    tennlab_network out;
    out.properties = params.network_properties();
    const property* threshold = out.properties.find_node("Threshold");
    const property* leak = out.properties.find_node("Leak");
    const property* weight = out.properties.find_edge("Weight");
    const property* delay = out.properties.find_edge("Delay");
    std::vector<std::uint32_t> first(net.populations().size(), 0);
    std::uint32_t next = 0;
    for (std::size_t p = 0; p < net.populations().size(); ++p) {
        const auto& pop = net.populations()[p];
        first[p] = next;
        if (snn::is_source_model(pop.model)) continue;
        const std::string object = "population '" + pop.name + "'";
        if (!std::holds_alternative<snn::lif_delta>(pop.model))
            throw invalid_parameter(object, "model", snn::model_name(pop.model), "only lif_delta maps to RISP");
        auto value_of = [&](const char* name, std::uint32_t i) {
            for (const auto& [k, v] : pop.parameters)
                if (k == name) {
                    if (const auto* c = std::get_if<double>(&v)) return *c;
                    if (const auto* l = std::get_if<std::vector<double>>(&v)) return (*l)[i];
                    throw invalid_parameter(object, name, snn::describe(v), "distributions do not map to RISP");
                }
            return snn::get_parameter(pop.model, name);
        };
        for (std::uint32_t i = 0; i < pop.size; ++i) {
            for (const char* zero : {"v_rest_mv", "v_reset_mv", "t_ref_ms", "i_e_mv"})
                if (value_of(zero, i) != 0)
                    throw invalid_parameter(object + " neuron " + std::to_string(i), zero,
                                            std::to_string(value_of(zero, i)), "must be 0 for RISP");
            const double tau = value_of("tau_m_ms", i);
            const bool leaks = tau <= full_leak_tau_ms;
            if (!leaks && tau < no_leak_tau_ms)
                throw invalid_parameter(object + " neuron " + std::to_string(i), "tau_m_ms", std::to_string(tau),
                                        "RISP neurons either keep their charge or lose it all");
            if (leaks != (params.leak == leak_mode::all) && params.leak != leak_mode::configurable)
                throw invalid_parameter(object + " neuron " + std::to_string(i), "tau_m_ms", std::to_string(tau),
                                        "does not match the processor's leak_mode");
            tennlab_node node;
            node.id = next + i;
            node.id_text = std::to_string(node.id);
            node.values.assign(static_cast<std::size_t>(out.properties.node_slots()), 0.0);
            double t = value_of("v_thresh_mv", i);
            if (!params.threshold_inclusive) t -= params.discrete ? 1 : 0.0000001;
            node.values[static_cast<std::size_t>(threshold->index)] = t;
            if (leak) node.values[static_cast<std::size_t>(leak->index)] = leaks ? 1 : 0;
            out.nodes.push_back(std::move(node));
        }
        next += pop.size;
    }
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        const auto& proj = net.projections()[q];
        if (snn::is_source_model(net.at(proj.source).model)) continue;
        const std::string object = "projection " + std::to_string(q);
        const auto* list = std::get_if<snn::from_list>(&proj.rule);
        if (!list) throw invalid_parameter(object, "connector", snn::connector_name(proj.rule), "only from_list maps to RISP");
        auto element = [&](const snn::value_spec& v, std::size_t k, const char* name) {
            if (const auto* c = std::get_if<double>(&v)) return *c;
            if (const auto* l = std::get_if<std::vector<double>>(&v)) return (*l)[k];
            throw invalid_parameter(object, name, snn::describe(v), "distributions do not map to RISP");
        };
        for (std::size_t k = 0; k < list->sources.size(); ++k) {
            tennlab_edge e;
            e.from = first[proj.source.value] + list->sources[k];
            e.to = first[proj.target.value] + list->targets[k];
            e.values.assign(static_cast<std::size_t>(out.properties.edge_slots()), 0.0);
            e.values[static_cast<std::size_t>(weight->index)] = element(proj.synapse.weight, k, "weight");
            const double d = element(proj.synapse.delay_ms, k, "delay_ms");
            if (d != std::trunc(d) || d < 1)
                throw invalid_parameter(object, "delay_ms", std::to_string(d), "RISP delays are whole steps >= 1");
            e.values[static_cast<std::size_t>(delay->index)] = d;
            out.edges.push_back(std::move(e));
        }
    }
    return out;
}

}  // namespace volley::hw
