// The CPU backend's population kernel factory (see population_factory.hpp).

#include "backends/cpu/population_factory.hpp"

#include <volley/error.hpp>

namespace volley::snn::detail {

std::span<const kernel_row> kernel_rows() {
    static const kernel_row kernels[] = {
        {"analog", model_family::analog_source,
         [](const network& net, population_index pop, const population_build&) {
             return population_state(std::in_place_type<analog_population>, net, pop);
         }},
        {"discrete", model_family::discrete,
         [](const network& net, population_index pop, const population_build& b) {
             population_state state(std::in_place_type<discrete_population>, net, pop, b.dt_ms, b.seed);
             std::get<discrete_population>(state).set_isa(b.isa);
             return state;
         }},
        {"source", model_family::spike_source,
         [](const network& net, population_index pop, const population_build& b) {
             return population_state(std::in_place_type<source_population>, net, pop, b.dt_ms, b.seed);
         }},
        {"ode", model_family::ode,
         [](const network& net, population_index pop, const population_build& b) {
             population_state state(std::in_place_type<ode_population>, net, pop, b.dt_ms, b.seed);
             std::get<ode_population>(state).set_isa(b.isa);
             return state;
         }},
        {"lif", model_family::exact_linear,
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
    const model_family family = family_of(p.model);
    for (const auto& kernel : kernel_rows())
        if (kernel.family == family) return kernel.make(net, pop, build);
    throw unsupported_model(model_name(p.model), "population '" + p.name + "': the CPU backend has no kernel for it");
}

}  // namespace volley::snn::detail
