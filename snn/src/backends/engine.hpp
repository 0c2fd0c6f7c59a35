#pragma once
// The interface every backend implements. Calls cross it per run, never per neuron or synapse.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <volley/snn/simulation.hpp>

#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

class engine {
public:
    virtual ~engine() = default;
    /// Starts recording spikes into `data` (its pop and subset are already set; `mask` is empty
    /// for the whole population, else one flag per neuron).
    virtual void add_spike_recorder(std::shared_ptr<spike_data> data, std::vector<std::uint8_t> mask) = 0;
    /// Starts recording a state variable into `data` (population, variable, node_ids and
    /// interval set); takes the first sample at the current step.
    virtual void add_state_recorder(std::shared_ptr<state_data> data, population_index pop) = 0;
    /// Stops recording into `data` (nothing happens for data it does not record into).
    virtual void remove_spike_recorder(const spike_data* data) = 0;
    virtual void remove_state_recorder(const state_data* data) = 0;
    /// Advances `steps` steps; returns the number done (fewer when `progress` returned false).
    virtual std::int64_t run(std::int64_t steps, const progress_callback& progress,
                             std::int64_t progress_interval) = 0;
    virtual std::int64_t current_step() const = 0;
    /// Back to step 0 with the state built from `net`, pending input cleared and recorders
    /// emptied; constant inputs are kept (the caller puts input tables back).
    virtual void reset(const network& net) = 0;
    /// Gives a population input from outside (the kind its model takes, checked by the caller).
    virtual void set_input(population_index pop, const population_input& input) = 0;
    /// The current stimuli into `pop`, or its spike trains, changed in `net` (simulation::
    /// set_current, set_spike_times): they hold from the next step on.
    virtual void refresh_inputs(const network& net, population_index pop) = 0;
    virtual simulation_stats stats() const = 0;
    /// The current weights of a plastic projection (its index in the network).
    virtual projection_weights weights(std::size_t projection) const = 0;
    /// Saves or restores the whole dynamic state (between runs; recorders are not part of it).
    virtual void visit_state(state_archive& a) = 0;
    /// The backend's name (with the rank when distributed) and its number of threads, which a
    /// checkpoint must match.
    virtual std::string backend_name() const = 0;
    virtual int threads() const = 0;
    /// The ranks of its distributed context (1 unless distributed).
    virtual int ranks() const = 0;
};

/// The one place that chooses a backend for a context (snn/src/backends/factory.cpp).
std::unique_ptr<engine> make_engine(const network& net, const context& ctx, const simulation_options& options);

}  // namespace volley::snn::detail
