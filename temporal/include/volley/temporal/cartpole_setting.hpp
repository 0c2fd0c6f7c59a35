#pragma once
// A cart-pole difficulty setting as data (docs/control.md, "Settings"): which values are
// observed and their ranges, the encoder, the actions, the episode length and the start
// ranges. The four settings of Plank, Rizzo, White and Schuman ("The Cart-Pole Application as
// a Benchmark for Neuromorphic Computing", JLPEA 15(1):5, 2025) ship as JSON files in
// temporal/settings/ and are built in by name.

#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/cartpole.hpp>
#include <volley/temporal/control_coding.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace volley::temporal {

/// An action of the cart: the force it applies.
enum class cartpole_action { nothing, left, right };

/// "nothing", "left" or "right".
std::string to_string(cartpole_action a);
/// The force [N]: 0, −physics.force or +physics.force.
double force_of(cartpole_action a, const cartpole_physics& physics = {});

/// One difficulty setting.
struct cartpole_setting {
    std::string name;         ///< "easy", … or the file's own name
    std::string description;  ///< free text
    /// Observed values by index into cartpole_state::values() (0 x, 1 ẋ, 2 θ, 3 θ̇), in
    /// input order; coding.ranges has one range per observed value.
    std::vector<int> observed;
    observation_coding coding;
    std::vector<cartpole_action> actions;  ///< by output index
    int episode_steps = 15000;             ///< steps of a whole episode (300 s at τ = 0.02 s)
    start_ranges starts = default_start_ranges();
    /// Gymnasium CartPole-v1's constants unless the file's "physics" object changes some
    /// (gravity, cart_mass, pole_mass, half_length, tau, force).
    cartpole_physics physics;

    /// Network inputs (coding.inputs()) and outputs (actions.size()).
    int inputs() const { return coding.inputs(); }
    int outputs() const { return static_cast<int>(actions.size()); }
    /// The observed values of a state, in input order.
    std::vector<double> observe(const cartpole_state& s) const;

    /// Parses a setting. Keys: name, description, observations ([{"value": "x", "range": 2.4},
    /// …]), encoder, max_spikes, spike_interval, timesteps_per_observation, actions (["left",
    /// "right"]), episode_steps, start_ranges ({"x": [lo, hi], …}), physics ({"gravity": 9.8,
    /// …}, optional). An unknown key, value name
    /// or action, a repeated one, or an impossible range throws invalid_parameter naming
    /// `source`, the key and the value.
    static cartpole_setting from_json(const nlohmann::json& j, const std::string& source);
    nlohmann::json to_json() const;
    /// A built-in setting ("easy", "medium", "hard", "hardest") or, for any other name, the
    /// JSON file of that path (io_error, file_format_error or invalid_parameter naming it).
    static cartpole_setting load(const std::string& name_or_path);

    /// invalid_parameter naming `object` when `net` has not inputs() inputs and outputs()
    /// outputs.
    void check_network(const hw::tennlab_network& net, const std::string& object) const;
};

/// The names of the built-in settings, easiest first.
std::vector<std::string> builtin_cartpole_settings();

}  // namespace volley::temporal
