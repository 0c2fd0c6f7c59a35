#pragma once
// The current stimuli of one population as schedules on the step grid, for the LIF and ODE
// populations and the device backends: a change at time t takes effect in the step that starts
// at t (docs/network-format.md, "Currents"). DC and step currents change at a few listed steps;
// a sine changes at every step of its window, noise at every interval of it, each neuron drawing
// its own value from a counter-based stream (so no state: any step can be asked for).

#include <cstdint>
#include <span>
#include <vector>

#include <volley/snn/network.hpp>

namespace volley::snn::detail {

class current_schedule {
  public:
    /// The stimuli of `net` that target `pop`, on a grid of step `dt_ms`; `seed` names the
    /// noise streams. Throws invalid_parameter for a noise interval that is not a whole number
    /// of steps.
    current_schedule(const network& net, population_index pop, double dt_ms, std::uint64_t seed);

    bool empty() const noexcept { return stimuli_.empty(); }

    /// True when some stimulus changes its amplitude at step `s`.
    bool changes_at(std::int64_t s) const;

    /// Sets out[i] (i in [begin, end)) to the sum of the amplitudes active during step `s`.
    void amplitudes_at(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                       std::span<double> out) const;

    /// Adds those amplitudes to out[i], one stimulus after another, in declaration order.
    void add_amplitudes(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                        std::span<double> out) const;

    /// The amplitude that stimulus `stimulus` (its index in network::stimuli(), which must
    /// target this population) gives neuron `neuron` during step `s`; 0 for a neuron it does
    /// not drive.
    double amplitude_of(std::size_t stimulus, std::int64_t s, std::uint32_t neuron) const;

  private:
    enum class shape : std::uint8_t { steps, sine, noise };
    struct stimulus {
        shape kind = shape::steps;
        std::size_t index = 0;               ///< in network::stimuli(): names the noise streams
        std::vector<std::int64_t> steps;     ///< steps: where the amplitude changes, ascending
        std::vector<double> amplitudes;      ///< steps: the amplitude from that step on
        std::vector<std::uint32_t> neurons;  ///< empty: all
        std::int64_t first = 0, last = 0;    ///< sine, noise: active on steps [first, last)
        std::int64_t interval = 1;           ///< noise: steps per draw
        double a = 0, b = 0;                 ///< sine: offset, amplitude; noise: mean, stdev
        double omega = 0, phase = 0, t0 = 0;  ///< sine: [rad/ms], [rad], start [ms]
        double at(std::int64_t s, double dt_ms) const;             ///< steps, sine
        double noise_at(std::int64_t s, std::uint32_t neuron, std::uint64_t seed) const;
        bool drives(std::uint32_t neuron) const;
    };
    std::vector<stimulus> stimuli_;
    std::vector<std::int64_t> change_steps_;  ///< union of the step stimuli's steps, ascending
    bool dynamic_ = false;                    ///< some stimulus is a sine or noise
    double dt_ms_ = 0;
    std::uint64_t seed_ = 0;
};

}  // namespace volley::snn::detail
