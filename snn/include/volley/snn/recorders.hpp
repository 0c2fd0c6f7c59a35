#pragma once
// Recorders: handles to what a simulation records. They stay valid after the simulation is
// destroyed (the data is shared), and grow as the simulation runs.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <volley/snn/types.hpp>

namespace volley::snn {

/// Recorded spikes of one population (or a subset of it), in time order.
struct spike_data {
    std::string population;
    population_index pop;
    std::uint32_t population_size = 0;
    std::uint32_t first_neuron = 0;      ///< global id of the population's neuron 0
    std::uint32_t recorded_neurons = 0;  ///< how many neurons are recorded
    double dt_ms = 0;
    std::int64_t steps_recorded = 0;  ///< simulated steps since recording began
    std::vector<std::uint32_t> node_ids;  ///< local ids (SONATA node_ids)
    std::vector<std::int64_t> steps;      ///< spike steps: time = step * dt
    /// A spike_source population's trains as sent [ms], by local id (empty for other models):
    /// the exact times of its spikes, which may lie off the dt grid (a kernel receives such a
    /// spike at the end of the step that holds it, `steps`). spike_times_ms() reads them.
    std::vector<std::vector<double>> source_times_ms;
};

/// The times [ms] of recorded spikes [begin, end) of `d`: step * dt, or a spike source's exact
/// times (the k-th spike of a neuron in a step is the k-th of its times in that step).
std::vector<double> spike_times_ms(const spike_data& d, std::size_t begin, std::size_t end);

/// A handle to recorded spikes.
class spike_recorder {
public:
    explicit spike_recorder(std::shared_ptr<spike_data> d) : data_(std::move(d)) {}
    std::size_t size() const noexcept { return data_->steps.size(); }
    /// Mean rate over the recorded neurons and the simulated time [Hz].
    double mean_rate_hz() const noexcept;
    const std::vector<std::uint32_t>& node_ids() const noexcept { return data_->node_ids; }
    const std::vector<std::int64_t>& steps() const noexcept { return data_->steps; }
    /// Spike times [ms] (spike_times_ms).
    std::vector<double> times_ms() const;
    const spike_data& data() const noexcept { return *data_; }

private:
    std::shared_ptr<spike_data> data_;
};

/// Recorded samples of one state variable of a population (or a subset of it).
struct state_data {
    std::string population;
    std::string variable;
    std::vector<std::uint32_t> node_ids;  ///< local ids, one column each
    double dt_ms = 0;
    std::int64_t interval_steps = 1;
    std::vector<std::int64_t> sample_steps;  ///< the step of each sample (state at step * dt)
    std::vector<double> values;              ///< row-major [sample][node]
};

/// A handle to recorded state samples.
class state_recorder {
public:
    explicit state_recorder(std::shared_ptr<state_data> d) : data_(std::move(d)) {}
    std::size_t samples() const noexcept { return data_->sample_steps.size(); }
    /// The value of column `node` (an index into node_ids()) at sample `sample`.
    double at(std::size_t sample, std::size_t node) const {
        return data_->values[sample * data_->node_ids.size() + node];
    }
    const std::vector<std::uint32_t>& node_ids() const noexcept { return data_->node_ids; }
    const state_data& data() const noexcept { return *data_; }

private:
    std::shared_ptr<state_data> data_;
};

/// Recorded weights of one projection, sampled every interval_steps.
struct weight_data {
    std::size_t projection = 0;
    std::string source, target;           ///< population names
    std::vector<std::uint32_t> sources;   ///< the synapses (one column each): source local ids
    std::vector<std::uint32_t> targets;   ///< and target local ids
    double dt_ms = 0;
    std::int64_t interval_steps = 1;
    std::int64_t start_step = 0;             ///< the step of the first sample
    std::vector<std::int64_t> sample_steps;  ///< the step of each sample
    std::vector<double> values;              ///< row-major [sample][synapse] [mV]
};

/// A handle to recorded weights.
class weight_recorder {
public:
    explicit weight_recorder(std::shared_ptr<weight_data> d) : data_(std::move(d)) {}
    std::size_t samples() const noexcept { return data_->sample_steps.size(); }
    std::size_t synapses() const noexcept { return data_->sources.size(); }
    /// The weight of synapse `synapse` at sample `sample` [mV].
    double at(std::size_t sample, std::size_t synapse) const { return data_->values[sample * synapses() + synapse]; }
    const weight_data& data() const noexcept { return *data_; }

private:
    std::shared_ptr<weight_data> data_;
};

}  // namespace volley::snn
