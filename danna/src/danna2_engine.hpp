#pragma once
// The DANNA 2 element-core engine: neurons addressed directly, synapses from any neuron to
// any neuron (no neighbour limits), with DANNA.md's cycle semantics (see cycle_engine.hpp).
// Event-driven: only neurons that receive something in a cycle are evaluated, plus the few
// with threshold 0 that fire on their own; idle leak is applied lazily.

#include <volley/danna/cycle_engine.hpp>
#include <volley/danna/cycle_rules.hpp>
#include <volley/danna/hardware_network.hpp>

#include <map>
#include <vector>

namespace volley::danna::detail {

class danna2_engine final : public cycle_engine {
  public:
    danna2_engine(const hardware_network& net, const cycle_rules& rules);

    void inject(std::uint32_t neuron, cycle_t cycle, std::int32_t value) override;
    void run_until(cycle_t end, std::vector<fire_event>& fires) override;
    cycle_t now() const override { return now_; }
    std::int32_t charge(std::uint32_t neuron) const override;
    std::vector<int> weights() const override { return weight_; }
    void clear_activity() override;
    const event_counts& counts() const override { return counts_; }

  private:
    void step(cycle_t t, std::vector<fire_event>& fires);
    void touch(std::uint32_t n);
    void fire(std::uint32_t n, cycle_t t, std::vector<fire_event>& fires);
    std::int32_t leaked(std::int32_t c, cycle_t cycles) const;

    cycle_rules rules_;
    // Neurons.
    std::vector<std::int32_t> threshold_, refractory_, charge_;
    std::vector<cycle_t> refractory_end_, last_update_;
    std::vector<std::int64_t> sum_;
    std::vector<std::uint8_t> touched_;
    std::vector<std::uint32_t> touched_list_, self_firing_;
    // Synapses, by index; out_ lists them by pre-neuron and in_ by post-neuron (CSR).
    std::vector<std::uint32_t> target_;
    std::vector<std::int32_t> weight_, delay_, in_flight_;
    std::vector<std::uint8_t> learning_;
    std::vector<cycle_t> last_delivery_;
    std::vector<std::uint32_t> out_begin_, out_, in_begin_, in_;
    bool any_learning_ = false;
    // Deliveries due, by cycle modulo the ring size; inputs by absolute cycle.
    std::vector<std::vector<std::uint32_t>> ring_;
    std::map<cycle_t, std::vector<std::pair<std::uint32_t, std::int32_t>>> inputs_;
    cycle_t now_ = 0;
    event_counts counts_;
};

}  // namespace volley::danna::detail
