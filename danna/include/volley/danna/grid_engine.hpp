#pragma once
// The cycle-accurate engine of the `danna` element grid. It derives who listens to whom from
// the programme's port enable bits once, then simulates network cycles in DANNA.md's order of
// events (cycle_engine.hpp). Work is proportional to events, not to the array's area: idle
// elements are skipped and their leak is applied lazily, so a dense array costs about one
// update per element per cycle and a quiet one almost nothing.

#include <volley/danna/cycle_engine.hpp>
#include <volley/danna/cycle_monitor.hpp>
#include <volley/danna/grid_programme.hpp>

#include <map>
#include <vector>

namespace volley::danna {

/// Runs a grid programme. Neurons of the cycle_engine interface are the programme's nodes.
class grid_engine final : public cycle_engine {
  public:
    /// Builds the engine; the programme is validated first (invalid_parameter).
    explicit grid_engine(const grid_programme& prog);

    void inject(std::uint32_t neuron, cycle_t cycle, std::int32_t value) override;
    void run_until(cycle_t end, std::vector<fire_event>& fires) override;
    cycle_t now() const override { return now_; }
    std::int32_t charge(std::uint32_t neuron) const override;
    std::vector<int> weights() const override;
    void clear_activity() override;
    const event_counts& counts() const override { return counts_; }

    /// Charge of the element at cell `c` at the end of the last cycle (0 if not a neuron).
    std::int32_t element_charge(int c) const;
    /// Records frames into `m` (nullptr: no monitoring) while it is set; not owned.
    void set_monitor(cycle_monitor* m) { monitor_ = m; }
    /// The programme with the current (learnt) weights.
    grid_programme learnt_programme() const;

  private:
    void step(cycle_t t, std::vector<fire_event>& fires);
    void propagate(std::uint32_t source, cycle_t t);
    void touch(std::uint32_t n);
    void fire(std::uint32_t n, cycle_t t, std::vector<fire_event>& fires);
    std::int32_t leaked(std::int32_t c, cycle_t cycles) const;
    void record_frame(cycle_t t);

    grid_programme prog_;
    cycle_rules rules_;
    // Per cell (structure of arrays).
    std::vector<std::int32_t> threshold_, refractory_, charge_, weight_, delay_, in_flight_;
    std::vector<std::uint8_t> learning_, touched_;
    std::vector<cycle_t> refractory_end_, last_update_, last_delivery_;
    std::vector<std::int64_t> sum_;
    std::vector<std::uint32_t> target_;  // synapse -> the neuron reading it
    // Listeners of each neuron or fan-out, split by kind (CSR); synapses read by each neuron.
    std::vector<std::uint32_t> syn_begin_, syn_, fan_begin_, fan_, in_begin_, in_;
    std::vector<std::int32_t> node_of_cell_;  // network neuron index, or -1
    std::vector<std::uint32_t> node_cell_;
    std::vector<std::uint32_t> self_firing_, touched_list_, relay_now_, relay_next_;
    bool any_learning_ = false;
    std::vector<std::vector<std::uint32_t>> ring_;
    std::map<cycle_t, std::vector<std::pair<std::uint32_t, std::int32_t>>> inputs_;
    cycle_t now_ = 0;
    event_counts counts_;
    cycle_monitor* monitor_ = nullptr;
    std::vector<std::uint32_t> fired_cells_;
};

}  // namespace volley::danna
