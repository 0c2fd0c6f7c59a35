#pragma once
// The cycle-level core shared by the DANNA models' processors: something that holds one
// loaded network, takes external inputs and advances whole network cycles. The two engines
// (DANNA 2 element cores and the element grid) are written independently, so that tests can
// compare them; both follow DANNA.md's order of events within a cycle:
//   1. fan-out elements relay the fires of the previous cycle (grid only);
//   2. synapses deliver the fires that are due (a fire at t with delay d lands at t + d);
//   3. each neuron adds its deliveries and external inputs, saturating; while refractory,
//      they are dropped and counted;
//   4. the optional leak: charge -= charge >> leak_shift;
//   5. the threshold test: a fire resets the charge to 0 and starts the refractory period.

#include <cstdint>
#include <string>
#include <vector>

namespace volley::danna {

/// A network cycle number: cycles since load or the last clear_activity.
using cycle_t = std::int64_t;

/// Events counted since load or the last clear_activity, by kind (the cost report's input).
struct event_counts {
    std::int64_t neuron_fires = 0;        ///< neuron fires
    std::int64_t synapse_deliveries = 0;  ///< weights added to a neuron (not dropped)
    std::int64_t fanout_relays = 0;       ///< fires repeated by fan-out elements (grid only)
    std::int64_t inputs = 0;              ///< external input spikes integrated
    std::int64_t refractory_drops = 0;    ///< deliveries and inputs dropped while refractory
    std::int64_t fifo_overflows = 0;      ///< fires dropped because a delay FIFO was full
    std::int64_t ltp_updates = 0;         ///< weight increments by LTP
    std::int64_t ltd_updates = 0;         ///< weight decrements by LTD
    std::int64_t element_updates = 0;     ///< element evaluations actually performed

    friend bool operator==(const event_counts&, const event_counts&) = default;
};

/// One neuron fire: the neuron's index in the loaded network and the cycle.
struct fire_event {
    std::uint32_t neuron = 0;  ///< index in hardware_network::neurons
    cycle_t cycle = 0;         ///< absolute network cycle
};

/// One loaded network on a DANNA model. Neurons are addressed by their index in the
/// hardware network; synapses by their index in hardware_network::synapses.
class cycle_engine {
  public:
    virtual ~cycle_engine() = default;

    /// Queues an external input: `value` is added to the neuron's charge at cycle `cycle`.
    virtual void inject(std::uint32_t neuron, cycle_t cycle, std::int32_t value) = 0;
    /// Simulates cycles [now(), end), appending every neuron fire to `fires` in cycle order.
    virtual void run_until(cycle_t end, std::vector<fire_event>& fires) = 0;
    /// The next cycle to simulate.
    virtual cycle_t now() const = 0;
    /// A neuron's charge at the end of the last simulated cycle (leak applied up to it).
    virtual std::int32_t charge(std::uint32_t neuron) const = 0;
    /// Current synapse weights, by synapse index (they change under LTP/LTD).
    virtual std::vector<int> weights() const = 0;
    /// Charges, refractory state, fires in flight and pending inputs dropped; clock to 0.
    /// Weights keep their learnt values.
    virtual void clear_activity() = 0;
    /// Events since load or the last clear_activity.
    virtual const event_counts& counts() const = 0;
};

}  // namespace volley::danna
