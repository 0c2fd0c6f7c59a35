#pragma once
// The RISP neuroprocessor (TENNLab "Reduced Instruction Spiking Processor"), bit-compatible
// with the framework's reference simulator (RISP.md section b), noise included.

#include <volley/hw/neuroprocessor.hpp>
#include <volley/hw/risp_params.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace volley::hw {

namespace detail {
class risp_network;
}

/// Activity counters of a network since they were last read (the tool's TNC/TNA).
struct risp_counters {
    std::int64_t fires = 0;       ///< recorded fires
    std::int64_t integrated = 0;  ///< integrated events (synaptic events plus inputs)
};

/// A RISP processor holding one or several loaded networks.
///
/// Simulation is event-driven: events wait in per-step lists of a ring buffer as long as
/// the longest delay, and only neurons that received an event are tested. Without noise a
/// fire is stored as one record per (neuron, delay) and expanded at delivery; with noise
/// each synapse value is drawn at fire time, in the reference's synapse order.
class risp_processor : public neuroprocessor {
  public:
    /// Makes a processor from checked parameters.
    explicit risp_processor(risp_params params);
    /// Makes a processor from `proc_params` JSON (throws tennlab_error, RISP.md a.3).
    explicit risp_processor(const nlohmann::json& proc_params);
    ~risp_processor() override;
    risp_processor(risp_processor&&) noexcept;
    risp_processor& operator=(risp_processor&&) noexcept;

    std::string name() const override { return "risp"; }
    property_pack network_properties() const override { return params_.network_properties(); }
    nlohmann::json parameters() const override { return params_.to_json(); }
    /// The checked parameters.
    const risp_params& params() const { return params_; }

    /// Loads a network; outputs are tracked (fire times recorded), other neurons are not.
    void load_network(const tennlab_network& net, int network_id = 0) override;
    void clear(int network_id = 0) override;
    bool has_network(int network_id = 0) const override;

    /// Queues an input spike (RISP.md c). Throws tennlab_error with the reference's message
    /// for a normalised value outside [0, 1] or a weights index out of range.
    void apply_spike(const spike& s, bool normalized = true, int network_id = 0) override;
    /// Runs `duration` steps: trunc(duration - 1) + 1, or trunc(duration) + 1 with
    /// run_time_inclusive. A run of zero steps changes nothing.
    void run(double duration, int network_id = 0) override;
    std::int64_t total_steps(int network_id = 0) const override;
    void clear_activity(int network_id = 0) override;

    void track_output_events(int output_index, bool track = true, int network_id = 0) override;
    void track_neuron_events(node_id id, bool track = true, int network_id = 0) override;

    int num_outputs(int network_id = 0) const override;
    int output_count(int output_index, int network_id = 0) const override;
    double output_last_fire(int output_index, int network_id = 0) const override;
    std::vector<double> output_vector(int output_index, int network_id = 0) const override;

    std::vector<node_id> neuron_ids(int network_id = 0) const override;
    std::vector<double> neuron_charges(int network_id = 0) const override;
    std::vector<int> neuron_counts(int network_id = 0) const override;
    std::vector<double> neuron_last_fires(int network_id = 0) const override;
    std::vector<std::vector<double>> neuron_vectors(int network_id = 0) const override;
    /// Events are neuron fires and integrated events (synaptic deliveries plus inputs) since
    /// the load or the last take_counters(); the clock and energies are assumptions (RISP is a
    /// reference model with no published hardware figures).
    cost_report costs(int network_id = 0) const override;

    /// With strict value checks (the default), load_network also rejects node and edge
    /// values outside their property's bounds or type, which the reference accepts silently.
    /// Values the reference cannot handle (Delay < 1, a Weight index outside the weights
    /// table, non-finite values) are rejected in both modes.
    void set_strict_values(bool strict) { strict_values_ = strict; }

    /// Reads and zeroes the activity counters.
    risp_counters take_counters(int network_id = 0);
    /// Every synapse as (from, to, raw Weight value), by ascending source id and then in
    /// the reference's synapse order (the tool's SW).
    struct synapse_info {
        node_id from, to;  ///< endpoints
        double weight;     ///< raw Weight value (an index with a weights table)
    };
    /// The synapse list described above.
    std::vector<synapse_info> synapses(int network_id = 0) const;

  private:
    detail::risp_network& net(int network_id);
    const detail::risp_network& net(int network_id) const;

    risp_params params_;
    bool strict_values_ = true;
    std::map<int, std::unique_ptr<detail::risp_network>> networks_;
};

}  // namespace volley::hw
