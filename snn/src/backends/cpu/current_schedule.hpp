#pragma once
// The current stimuli of one population as piecewise-constant schedules on the step grid, for
// the LIF and ODE populations: a change at time t
// takes effect in the step that starts at t (docs/network-format.md, "Currents").

#include <cstdint>
#include <span>
#include <vector>

#include <volley/snn/network.hpp>

namespace volley::snn::detail {

class current_schedule {
  public:
    /// The stimuli of `net` that target `pop`, on a grid of step `dt_ms`.
    current_schedule(const network& net, population_index pop, double dt_ms);

    bool empty() const noexcept { return stimuli_.empty(); }

    /// True when some stimulus changes its amplitude at step `s`.
    bool changes_at(std::int64_t s) const;

    /// Sets out[i] (i in [begin, end)) to the sum of the amplitudes active during step `s`.
    void amplitudes_at(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                       std::span<double> out) const;

    /// Adds those amplitudes to out[i], one stimulus after another, in declaration order.
    void add_amplitudes(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                        std::span<double> out) const;

  private:
    struct stimulus {
        std::vector<std::int64_t> steps;     ///< where the amplitude changes, ascending
        std::vector<double> amplitudes;      ///< the amplitude from that step on
        std::vector<std::uint32_t> neurons;  ///< empty: all
        double at(std::int64_t s) const;
    };
    std::vector<stimulus> stimuli_;
    std::vector<std::int64_t> change_steps_;  ///< union of the stimuli's steps, ascending
};

}  // namespace volley::snn::detail
