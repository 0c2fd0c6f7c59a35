// The CPU backend's population kernel factory (see population_factory.hpp).

#include "backends/cpu/population_factory.hpp"

#include <volley/error.hpp>

namespace volley::snn::detail {

std::span<const kernel_row> kernel_rows() {
    static const kernel_row kernels[] = {
        {"analog", [](const neuron_model& m) { return std::holds_alternative<analog_source>(m); },
         [](const network& net, population_index pop, const population_build&) {
             return population_state(std::in_place_type<analog_population>, net, pop);
         }},
        {"discrete", [](const neuron_model& m) { return std::holds_alternative<discrete_neuron>(m); },
         [](const network& net, population_index pop, const population_build& b) {
             population_state state(std::in_place_type<discrete_population>, net, pop, b.dt_ms, b.seed);
             std::get<discrete_population>(state).set_isa(b.isa);
             return state;
         }},
        {"source", [](const neuron_model& m) { return is_source_model(m) && !std::holds_alternative<analog_source>(m); },
         [](const network& net, population_index pop, const population_build& b) {
             return population_state(std::in_place_type<source_population>, net, pop, b.dt_ms, b.seed);
         }},
        {"ode", [](const neuron_model& m) { return is_ode_model(m); },
         [](const network& net, population_index pop, const population_build& b) {
             return population_state(std::in_place_type<ode_population>, net, pop, b.dt_ms, b.seed);
         }},
        {"lif",  // exact integration of the linear models
         [](const neuron_model& m) {
             return std::holds_alternative<lif_delta>(m) || std::holds_alternative<lif_exp>(m) ||
                    std::holds_alternative<lif_alpha>(m);
         },
         [](const network& net, population_index pop, const population_build& b) {
             population_state state(std::in_place_type<lif_population>, net, pop, b.dt_ms, b.seed);
             std::get<lif_population>(state).set_threads(b.threads);
             std::get<lif_population>(state).set_isa(b.isa);
             return state;
         }},
    };
    return kernels;
}

population_state make_population_kernel(const network& net, population_index pop, const population_build& build) {
    const auto& p = net.at(pop);
    for (const auto& kernel : kernel_rows())
        if (kernel.runs(p.model)) return kernel.make(net, pop, build);
    throw unsupported_model(model_name(p.model), "population '" + p.name + "': the CPU backend has no kernel for it");
}

}  // namespace volley::snn::detail
