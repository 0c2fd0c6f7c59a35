#pragma once
// A network controlling the cart-pole (docs/control.md, "Episodes"): per step, the observed
// values are encoded as input spikes, the processor runs timesteps_per_observation steps with
// the network's state carried from step to step, the winner-takes-all output names the action,
// and the cart-pole advances one Euler step under its force.

#include <volley/hw/neuroprocessor.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/cartpole_setting.hpp>
#include <volley/temporal/processor_spec.hpp>

#include <memory>
#include <vector>

namespace volley::temporal {

/// A network loaded on its own processor, acting on observations.
class network_agent {
  public:
    /// Makes the processor, checks the network against the setting (invalid_parameter naming
    /// `object`) and loads it (tennlab_error when the processor cannot).
    network_agent(const processor_spec& spec, const hw::tennlab_network& net, const cartpole_setting& setting,
                  const std::string& object = "control network");

    /// Clears the network's activity (charges, spikes in flight): the start of an episode.
    void reset();
    /// Tracks every neuron's fires from now on (for rasters).
    void track_all_neurons();
    /// The action index for one observation; the input and output spike counts of that step go
    /// to `inputs` and `outputs` when given.
    int act(const std::vector<double>& observation, std::vector<int>* inputs = nullptr, std::vector<int>* outputs = nullptr);

    hw::neuroprocessor& processor() { return *proc_; }
    const hw::tennlab_network& network() const { return net_; }

  private:
    std::unique_ptr<hw::neuroprocessor> proc_;
    hw::tennlab_network net_;
    const cartpole_setting* setting_;
    std::vector<int> outputs_;
};

/// One step of an episode: the state observed, the spike counts and the action.
struct episode_step {
    cartpole_state state;
    std::vector<int> input_counts, output_counts;
    int action = 0;
    std::vector<std::vector<double>> fires;  ///< per neuron (ascending id), when rasters are kept
};

/// What an episode gave.
struct episode_result {
    int steps = 0;              ///< steps survived (the state after each stayed within the limits)
    bool survived = false;      ///< steps == the episode's length
    cartpole_state last;        ///< the state after the last step taken
    std::vector<episode_step> trace;  ///< every step, when asked for
};

/// What to keep of an episode.
struct episode_options {
    int max_steps = 0;        ///< steps at most (0: the setting's episode_steps)
    bool keep_trace = false;  ///< fill episode_result::trace
    int raster_steps = 0;     ///< keep every neuron's fires for the first raster_steps steps
};

/// Runs one episode from `start`: agent.reset(), then steps until the cart-pole fails or
/// max_steps have passed.
episode_result run_cartpole_episode(network_agent& agent, const cartpole_setting& setting, const cartpole_state& start,
                                    const episode_options& options = {});

}  // namespace volley::temporal
