#pragma once
// The runtime state of one network loaded on a RISP processor, and its per-step algorithm
// (RISP.md b.2-b.4). Neurons are numbered by ascending node id.

#include <volley/hw/risp_params.hpp>
#include <volley/hw/tennlab_network.hpp>

#include "noise_source.hpp"

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace volley::hw::detail {

/// One entry of a pending-event list. With `group == explicit_event` it is the event
/// (neuron, value); otherwise it stands for every synapse of delay group `group` (the
/// synapses of one neuron with one delay), expanded in synapse order at delivery.
struct event_record {
    std::uint32_t neuron;
    std::uint32_t group;
    double value;
};

inline constexpr std::uint32_t explicit_event = 0xffffffffu;

class risp_network {
  public:
    risp_network(const risp_params& params, const tennlab_network& net, bool strict_values);

    /// Neuron index of node `id`, or -1.
    std::int64_t index_of(node_id id) const;
    const std::vector<node_id>& ids() const { return ids_; }
    const std::vector<std::uint32_t>& outputs() const { return outputs_; }
    bool is_input(std::uint32_t n) const { return is_input_[n] != 0; }

    void apply(std::uint32_t neuron, double time, double value, bool normalized);
    void run(double duration);
    void clear_activity();

    std::int64_t total_steps() const { return now_; }
    double charge(std::uint32_t n) const { return charge_[n]; }
    int fire_count(std::uint32_t n) const { return fire_count_[n]; }
    double last_fire(std::uint32_t n) const { return last_fire_[n]; }
    void set_tracked(std::uint32_t n, bool on) { tracked_[n] = on ? 1 : 0; }
    /// Fire times of every neuron in the last run (tracked neurons only).
    std::vector<std::vector<double>> fire_times() const;
    /// Fire times of one neuron in the last run.
    std::vector<double> fire_times(std::uint32_t n) const;

    std::int64_t fires() const { return fires_; }
    std::int64_t integrated() const { return integrated_; }
    std::int64_t take_fires() { return std::exchange(fires_, 0); }
    std::int64_t take_integrated() { return std::exchange(integrated_, 0); }

    /// (source, target, raw weight) in source order, then reference synapse order.
    std::vector<std::tuple<std::uint32_t, std::uint32_t, double>> synapse_list() const;

  private:
    void step(std::int64_t t);
    void step_dense(std::vector<event_record>& slot, std::int64_t t);
    void fire(std::uint32_t n, std::int64_t t);
    void record(std::uint32_t n, std::int64_t t);
    void append(std::int64_t abs_step, const event_record& rec);
    void promote_future(std::int64_t limit);
    double synapse_value(std::uint32_t syn);

    // Parameters used in the hot path.
    double min_potential_;
    bool ravens_;
    bool noisy_;
    bool run_time_inclusive_;
    risp_params params_;

    // Neurons (SoA, by ascending node id).
    std::vector<node_id> ids_;
    std::vector<double> charge_, threshold_;
    std::vector<std::uint8_t> leak_, touched_, tracked_, is_input_;
    std::vector<std::int32_t> fire_count_;
    std::vector<double> last_fire_;
    std::vector<std::uint32_t> outputs_;

    // Synapses grouped by (source, delay), each group in reference synapse order.
    struct delay_group {
        std::uint32_t begin, end, delay;
    };
    std::vector<std::uint32_t> group_begin_;  // per neuron, into groups_ (size N+1)
    std::vector<delay_group> groups_;
    std::vector<std::uint32_t> syn_target_;
    std::vector<double> syn_value_;
    // Synapses in reference order (noise path and synapse_list).
    std::vector<std::uint32_t> ord_begin_;  // per neuron (size N+1)
    std::vector<std::uint32_t> ord_target_, ord_delay_;
    std::vector<double> ord_weight_;

    // Pending events: a ring of per-step lists covering [now_, now_ + ring size), and a
    // map for inputs scheduled further ahead.
    std::vector<std::vector<event_record>> ring_;
    std::int64_t ring_mask_ = 0;
    std::map<std::int64_t, std::vector<event_record>> future_;
    std::vector<std::uint32_t> to_fire_, touched_list_;
    std::vector<double> accumulator_;  // per-neuron sum of a step's events (exact mode)
    bool exact_ = false;               // integer network: event order cannot change results
    bool exact_inputs_ = true;         // every input since load/clear_activity was integral

    std::int64_t now_ = 0;        // steps since load or clear_activity
    std::int64_t run_start_ = 0;  // absolute step of the last run's step 0
    std::vector<std::pair<std::uint32_t, std::int32_t>> fire_log_;  // (neuron, time) last run
    std::int64_t fires_ = 0, integrated_ = 0;
    noise_source rng_;
};

}  // namespace volley::hw::detail
