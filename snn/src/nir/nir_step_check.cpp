// check_nir_step: the neuron nodes whose time constants are not longer than the step (see
// nir_network.hpp). It reads the graph itself, so `volley nir info` can report it without
// mapping the graph.

#include <volley/snn/nir_network.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace volley::snn {

namespace {

/// The time constants of each neuron type, as NIR names them.
std::vector<const char*> time_constants(const std::string& type) {
    if (type == "LIF" || type == "LI") return {"tau"};
    if (type == "CubaLIF" || type == "CubaLI") return {"tau_mem", "tau_syn"};
    return {};
}

std::string consequence(double dt_over_tau, discrete_neuron::integration scheme) {
    char b[160];
    if (scheme == discrete_neuron::integration::euler)
        std::snprintf(b, sizeof b, "the Euler step's decay factor 1 - dt/tau is %.4g (%s)", 1 - dt_over_tau,
                      dt_over_tau > 2 ? "unstable: the state grows in magnitude every step" : "<= 0: the state flips sign or is forgotten every step");
    else
        std::snprintf(b, sizeof b, "the exact step keeps e^{-dt/tau} = %.3g of the state: the node forgets it within a step",
                      std::exp(-dt_over_tau));
    return b;
}

void check(const nir_graph& g, const std::string& prefix, const nir_import_options& o,
           std::vector<nir_step_warning>& out) {
    for (const auto& node : g.nodes) {
        if (node.subgraph) check(*node.subgraph, prefix + node.name + ".", o, out);
        for (const char* key : time_constants(node.type)) {
            const nir_array* tau = node.param(key);
            if (tau == nullptr) continue;
            nir_step_warning w{prefix + node.name, key, 0, 0, {}};
            for (const double t : tau->values) {
                const double ratio = o.dt_s / t;  // τ > 0 is checked by the reader; inf gives 0
                w.dt_over_tau = std::max(w.dt_over_tau, ratio);
                if (ratio >= 1) ++w.neurons;
            }
            if (w.neurons == 0) continue;
            char b[200];
            std::snprintf(b, sizeof b, "%s node '%s': dt/%s = %.4g >= 1 (dt = %g s, %s = %g s) in %zu of its %zu values; ",
                          node.type.c_str(), w.node.c_str(), key, w.dt_over_tau, o.dt_s, key,
                          o.dt_s / w.dt_over_tau, w.neurons, tau->size());
            w.message = b + consequence(w.dt_over_tau, o.discretisation);
            out.push_back(std::move(w));
        }
    }
}

}  // namespace

std::vector<nir_step_warning> check_nir_step(const nir_graph& graph, const nir_import_options& options) {
    std::vector<nir_step_warning> out;
    check(graph, "", options, out);
    return out;
}

}  // namespace volley::snn
