#pragma once
// The state behind the simulation facade (simulation.cpp, simulation_checkpoint.cpp).

#include <map>
#include <memory>
#include <vector>

#include <volley/snn/simulation.hpp>

#include "backends/engine.hpp"
#include "build/connectivity.hpp"

namespace volley::snn {

struct simulation::impl {
    network net;
    simulation_options options;
    context where;
    std::unique_ptr<detail::engine> engine;
    progress_callback progress;
    std::int64_t progress_interval = 0;
    std::vector<std::shared_ptr<weight_data>> weight_sinks;
    /// Spike recorders of spike_source populations, whose exact times follow set_spike_times.
    std::vector<std::shared_ptr<spike_data>> source_sinks;
    /// Tables given to set_input, by population, which reset() puts back.
    std::map<std::uint32_t, std::vector<std::vector<double>>> table_inputs;

    /// After restore(): the engine holds the checkpoint's input tables, which reset() does not
    /// know; it returns to the network's own.
    void after_restore() { table_inputs.clear(); }

    /// The current weights of projection q (a valid index): plastic ones from the engine,
    /// static ones as built.
    projection_weights weights(std::size_t q) const {
        const auto& proj = net.projections()[q];
        if (is_plastic(proj.synapse.plasticity)) return engine->weights(q);
        detail::synapse_list list;
        detail::expand_projection(net, q, options.seed, options.dt_ms, 0, net.at(proj.target).size, list);
        return {std::move(list.source), std::move(list.target), std::move(list.weight)};
    }

    void sample_weights(weight_data& d) const {
        const auto w = weights(d.projection);
        d.sample_steps.push_back(engine->current_step());
        d.values.insert(d.values.end(), w.weights.begin(), w.weights.end());
    }
};

}  // namespace volley::snn
