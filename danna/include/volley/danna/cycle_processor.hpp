#pragma once
// The neuroprocessor side of both DANNA models: network ids, input spikes, runs and fire
// records, written once over a cycle_engine. danna2_processor and grid_processor supply the
// engine, the property pack and the cost constants.

#include <volley/danna/cycle_engine.hpp>
#include <volley/danna/hardware_network.hpp>
#include <volley/hw/cost_report.hpp>
#include <volley/hw/neuroprocessor.hpp>

#include <map>
#include <memory>
#include <vector>

namespace volley::danna {

/// A neuroprocessor whose networks run on cycle engines.
///
/// Runs follow the TENNLab convention: run(d) simulates trunc(d - 1) + 1 cycles (d cycles for
/// an integer d > 0; nothing for d <= 0). Input spike times are relative to the start of the
/// next run; fire records (counts, last fires, times) describe the last run only, with times
/// relative to its start. Charges are read as they are: no end-of-run normalisation.
class cycle_processor : public hw::neuroprocessor {
  public:
    cycle_processor();
    ~cycle_processor() override;

    void load_network(const hw::tennlab_network& net, int network_id = 0) override;
    /// Loads a hardware network directly (checked against the model's limits).
    void load_hardware_network(const hardware_network& net, int network_id = 0);
    void clear(int network_id = 0) override;
    bool has_network(int network_id = 0) const override;

    /// Normalised: value in [0, 1], added as floor(value × spike_value_factor). Raw: the value
    /// truncated to an integer. Throws invalid_parameter for a node that is not an input.
    void apply_spike(const hw::spike& s, bool normalized = true, int network_id = 0) override;
    void run(double duration, int network_id = 0) override;
    std::int64_t total_steps(int network_id = 0) const override;
    void clear_activity(int network_id = 0) override;

    void track_output_events(int output_index, bool track = true, int network_id = 0) override;
    void track_neuron_events(hw::node_id id, bool track = true, int network_id = 0) override;

    int num_outputs(int network_id = 0) const override;
    int output_count(int output_index, int network_id = 0) const override;
    double output_last_fire(int output_index, int network_id = 0) const override;
    std::vector<double> output_vector(int output_index, int network_id = 0) const override;

    std::vector<hw::node_id> neuron_ids(int network_id = 0) const override;
    std::vector<double> neuron_charges(int network_id = 0) const override;
    std::vector<int> neuron_counts(int network_id = 0) const override;
    std::vector<double> neuron_last_fires(int network_id = 0) const override;
    std::vector<std::vector<double>> neuron_vectors(int network_id = 0) const override;

    /// The loaded hardware network, with synapse weights as learnt so far.
    hardware_network learnt_network(int network_id = 0) const;
    /// Events since load or the last clear_activity.
    event_counts counts(int network_id = 0) const;
    /// The cost report of everything simulated since load or the last clear_activity.


  protected:
    /// Makes the engine for a network already checked against limits().
    virtual std::unique_ptr<cycle_engine> make_engine(const hardware_network& net,
                                                      int network_id) = 0;
    /// The value limits of this model.
    virtual network_limits limits() const = 0;
    /// Refractory period given to neurons of a TENNLab network without a Refractory property.
    virtual int default_refractory() const = 0;
    /// The multiplier of normalised input values.
    virtual double spike_value_factor() const = 0;
    /// Called when a network is removed (the grid forgets its placement).
    virtual void on_clear(int /*network_id*/) {}

    /// The engine of a loaded network (throws invalid_parameter if none).
    const cycle_engine& engine(int network_id) const;

  private:
    struct loaded;
    loaded& get(int network_id);
    const loaded& get(int network_id) const;

    std::map<int, std::unique_ptr<loaded>> networks_;
};

}  // namespace volley::danna
