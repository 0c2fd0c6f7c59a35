#pragma once
// A gated max-pool projection on the CPU (the max_pool_gate connector, connectors.hpp): SNN
// Toolbox's `fir_max`. Each engine thread holds one for the windows (target neurons) it owns,
// and counts every spike of the whole source population itself, so no thread reads another's
// state. Per step: count() for the step's spikes of every thread (in any order: only the
// counts and a flag per source change), then deliver(), which for each source that fired in
// this step visits the owned windows that contain it and passes one spike to a window when this
// source is the window's leader: the highest count so far, the current step included, ties to
// the first source in row-major order. The leader of a window is unique, so each window gets at
// most one spike per step, and the result does not depend on the thread count.

#include <volley/snn/connectors.hpp>

#include <cstdint>
#include <span>
#include <vector>
#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

class gate_projection {
public:
    /// The gate from population `source_pop` to `target_pop` restricted to the windows
    /// [own_begin, own_end) (local target indices), passing `weight` (fixed point) with the
    /// receptor and delay [steps].
    gate_projection(const max_pool_gate& g, std::uint32_t source_pop, std::uint32_t target_pop, std::uint8_t receptor,
                    std::uint32_t delay, std::int64_t weight, std::uint32_t own_begin, std::uint32_t own_end);

    /// Adds one thread's list of this step's source spikes (local indices) to the counts.
    void count(std::span<const std::uint32_t> spikes);

    // The structured interface (structured_projection.hpp).
    static constexpr const char* kind = "gate";
    std::uint64_t take(std::span<const std::uint32_t> spikes, const double*) {
        count(spikes);
        return 0;  // counted by deliver(): the spikes passed
    }
    /// Passes this step's spikes of the window leaders into ring cells: `cells` points at the
    /// cell of target neuron 0 for this receptor (stride 2 per neuron); `touched`, unless null,
    /// gets each target with input as its local index plus `offset`. Forgets the step's spikes
    /// (not the counts) and returns the number of spikes passed.
    std::uint64_t deliver(std::int64_t* cells, std::int64_t offset, std::vector<std::uint32_t>* touched);
    /// Forgets all counts (a new simulation from step 0).
    void reset();

    std::uint32_t source() const noexcept { return source_; }
    std::uint32_t target() const noexcept { return target_; }
    std::uint8_t receptor() const noexcept { return receptor_; }
    std::uint32_t delay() const noexcept { return delay_; }
    /// The (source, window) pairs of the owned windows.
    std::uint64_t synapses() const noexcept { return synapses_; }
    std::uint64_t bytes() const noexcept;

    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp).
    void visit_state(state_archive& a) { a.field("count", count_), a.field("fired", fired_), a.field("fired_list", fired_list_); }

private:
    /// The window's leader: its source neuron with the highest count, the first on ties.
    std::uint32_t leader(std::uint32_t c, std::uint32_t oy, std::uint32_t ox) const;

    max_pool_gate g_;
    std::uint32_t source_, target_, delay_;
    std::uint8_t receptor_;
    std::int64_t weight_;
    std::uint32_t own_begin_, own_end_, out_h_, out_w_;
    std::uint64_t synapses_ = 0;
    std::vector<std::uint32_t> count_;  ///< spikes of each source neuron so far
    std::vector<std::uint8_t> fired_;   ///< fired in this step
    std::vector<std::uint32_t> fired_list_;
};

}  // namespace volley::snn::detail
