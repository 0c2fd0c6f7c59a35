#pragma once
// The common neuroprocessor interface (docs/architecture.md, "Hardware backends"), in the style of
// the TENNLab framework's Processor: load networks, apply input spikes, run for a number of
// timesteps, and read outputs and neuron state. RISP and the DANNA models implement it.
//
// All times are in timesteps of the processor (one step = one simulation cycle). Several
// networks can be loaded at once; each has its own id and its own state.

#include <volley/hw/cost_report.hpp>
#include <volley/hw/property_pack.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace volley::hw {

/// One input spike: input node `id`, `time` steps after the start of the next run, `value`.
struct spike {
    node_id id = 0;    ///< the input node's id (not its input index)
    double time = 0;   ///< [steps] relative to the start of the next run; truncated
    double value = 1;  ///< normalised to [0, 1], or a raw value (see apply_spike)
};

/// An event-driven neuromorphic processor.
class neuroprocessor {
  public:
    virtual ~neuroprocessor() = default;

    /// The processor's name, e.g. "risp".
    virtual std::string name() const = 0;
    /// The property pack a network must carry to load on this processor.
    virtual property_pack network_properties() const = 0;
    /// The processor's parameters, as the JSON it was made from would echo them.
    virtual nlohmann::json parameters() const = 0;

    /// Loads `net` as network `network_id`, replacing any network with that id and its state.
    /// Throws tennlab_error when the network does not fit the processor.
    virtual void load_network(const tennlab_network& net, int network_id = 0) = 0;
    /// Loads `nets[i]` as network i, for every i.
    void load_networks(const std::vector<tennlab_network>& nets);
    /// Removes network `network_id`.
    virtual void clear(int network_id = 0) = 0;
    /// True when a network with that id is loaded.
    virtual bool has_network(int network_id = 0) const = 0;

    /// Queues one input spike. With `normalized`, `value` must be in [0, 1] and is scaled by
    /// the processor; otherwise it is used as the raw charge value.
    virtual void apply_spike(const spike& s, bool normalized = true, int network_id = 0) = 0;
    /// Queues several spikes in order (stops at the first failing one).
    void apply_spikes(const std::vector<spike>& spikes, bool normalized = true, int network_id = 0);

    /// Simulates `duration` steps (the processor defines how a fractional duration rounds).
    virtual void run(double duration, int network_id = 0) = 0;
    /// Steps simulated since load or the last clear_activity.
    virtual std::int64_t total_steps(int network_id = 0) const = 0;
    /// Drops charges, in-flight events, pending inputs and fire records; the network stays.
    virtual void clear_activity(int network_id = 0) = 0;

    /// Enables or disables recording of fire times for output `output_index`.
    virtual void track_output_events(int output_index, bool track = true, int network_id = 0) = 0;
    /// Enables or disables recording of fire times for node `id`.
    virtual void track_neuron_events(node_id id, bool track = true, int network_id = 0) = 0;

    /// Number of outputs of network `network_id`.
    virtual int num_outputs(int network_id = 0) const = 0;
    /// Fire count of output `output_index` in the last run.
    virtual int output_count(int output_index, int network_id = 0) const = 0;
    /// Last fire time [steps since the last run's start] of an output, or -1.
    virtual double output_last_fire(int output_index, int network_id = 0) const = 0;
    /// Fire times [steps since the last run's start] of an output (needs tracking).
    virtual std::vector<double> output_vector(int output_index, int network_id = 0) const = 0;
    /// output_count for every output, by output index.
    std::vector<int> output_counts(int network_id = 0) const;
    /// output_last_fire for every output, by output index.
    std::vector<double> output_last_fires(int network_id = 0) const;
    /// output_vector for every output, by output index.
    std::vector<std::vector<double>> output_vectors(int network_id = 0) const;

    /// Node ids in ascending order: the order of every per-neuron vector below.
    virtual std::vector<node_id> neuron_ids(int network_id = 0) const = 0;
    /// Charge of every neuron, by ascending node id.
    virtual std::vector<double> neuron_charges(int network_id = 0) const = 0;
    /// Fire count of every neuron in the last run, by ascending node id.
    virtual std::vector<int> neuron_counts(int network_id = 0) const = 0;
    /// Last fire time [steps] of every neuron in the last run (-1 if none), by ascending id.
    virtual std::vector<double> neuron_last_fires(int network_id = 0) const = 0;
    /// Fire times [steps] of every neuron in the last run (tracked neurons only; others empty).
    virtual std::vector<std::vector<double>> neuron_vectors(int network_id = 0) const = 0;

    /// The cost of everything run since the network was loaded: resources, cycles, events by
    /// kind, and time and energy at the processor's clock and per-event constants.
    virtual cost_report costs(int network_id = 0) const = 0;
};

}  // namespace volley::hw
