#pragma once
// Replaying a TENNLab closed-loop cart-pole log step by step (docs/control.md, "Replaying a
// TENNLab log"). TENNLab's cart-pole application can write each step of an episode as
// processor_tool commands with comments: the step's observations, the input spike counts, the
// raster, the output spike counts and the action. Each logged observation is fed to Volley's
// encoder and network in turn (the network's state carried from step to step, as in the
// episode), and every count and action is compared; where all four values are logged, the
// dynamics must take each observation to the next within the printed digits.

#include <volley/temporal/control_episode.hpp>

#include <string>
#include <vector>

namespace volley::temporal {

/// One step of a log.
struct logged_step {
    int step = 0;
    std::vector<double> observations;
    std::vector<int> input_counts, output_counts;
    int action = -1;
    int line = 0;  ///< line of the Observations comment
};

/// Reads the comments of a log (lines "# Step N. Observations: …", "I-Spike-C: …",
/// "O-Spike-C: …", "Action: …"; "#  N." without "Step" too). io_error when the file cannot be read, file_format_error naming
/// the line when a step's comments are incomplete, out of order or not numbers.
std::vector<logged_step> read_cartpole_log(const std::string& path);

/// What a replay found.
struct replay_report {
    int steps = 0;
    int input_mismatches = 0, output_mismatches = 0, action_mismatches = 0;
    int first_mismatch_step = -1;  ///< −1: none
    std::string first_mismatch;    ///< what differed first
    int dynamics_checked = 0;      ///< steps whose next observation was predicted
    int dynamics_outside = 0;      ///< predictions outside the printed digits
    /// Largest |predicted − logged| over what the printed digits allow (≤ 1: within them).
    double dynamics_worst_ratio = 0;
    bool ok() const { return input_mismatches + output_mismatches + action_mismatches + dynamics_outside == 0; }
};

/// Replays `log` through `agent` (reset first) with `setting`'s coding and actions.
/// invalid_parameter when a step logs another number of values, inputs or outputs than the
/// setting has.
replay_report replay_cartpole_log(network_agent& agent, const cartpole_setting& setting,
                                  const std::vector<logged_step>& log);

}  // namespace volley::temporal
