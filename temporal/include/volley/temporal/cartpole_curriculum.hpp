#pragma once
// The training material of a cart-pole evolution, and how it grows (docs/control.md,
// "Curriculum"). Stages: training episodes of increasing length (say 2,000 steps, then the
// whole 15,000). Within each stage, validation rounds: once the best network survives every
// training episode of the stage, it runs episodes of the stage's length from the validation
// starts (the 16 corners of the start box, then further starts of the training stream; never
// the test stream); the starts it fails join the training starts (at most mined_per_round a
// round, in the pool's order) and the search goes on; once it fails none, the next stage
// begins, and after the last one the curriculum is done. Networks that survive ten or twenty
// training starts often fail starts they never saw, above all those with θ and θ̇ both near
// their bounds, which uniform draws seldom give; the validation rounds put those starts in
// front of the search, and most failures come early in an episode, where short episodes find
// them cheaply.

#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/evaluation_task.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace volley::temporal {

/// Where a curriculum stands: the stage (an index into the stage lengths) and the validation
/// starts mined so far (positions in the validation pool).
struct curriculum_point {
    int stage = 0;
    std::vector<std::uint64_t> mined;

    nlohmann::json to_json() const;
    /// Reads to_json's object (or a bare stage number, as older checkpoints hold it);
    /// invalid_parameter naming `object` for anything else.
    static curriculum_point from_json(const nlohmann::json& j, const std::string& object);
    bool operator==(const curriculum_point&) const = default;
};

/// The options of a curriculum.
struct curriculum_options {
    /// Steps per training episode at most, one length per stage (0: the setting's episode).
    std::vector<int> stage_steps{0};
    /// Validation starts drawn from the training stream: indices training_episodes ..
    /// training_episodes + V − 1 (0 and no corners: no validation rounds; the curriculum ends
    /// with its last stage).
    int validation_starts = 0;
    /// The 16 corners of the start box (each value at its lower or upper bound) come first in
    /// the validation pool.
    bool corner_starts = false;
    /// Failed validation starts added to the training starts per round at most (the first ones
    /// in the pool).
    int mined_per_round = 5;
    /// invalid_parameter for no stage, a negative length, validation_starts outside [0,
    /// max_cartpole_episodes], mined_per_round < 1.
    void validate() const;
};

class cartpole_curriculum {
  public:
    /// `base` gives the setting's training starts, seed, test starts and grid check; its
    /// training_steps and extra_starts are the curriculum's to set.
    cartpole_curriculum(cartpole_setting setting, processor_spec processor, cartpole_task_options base,
                        curriculum_options options);

    /// The task at `p` (its fitness is the stage's); invalid_parameter naming `object` for a
    /// point this curriculum does not have.
    std::shared_ptr<const cartpole_task> task_at(const curriculum_point& p, const std::string& object = "curriculum") const;
    /// Where to go once `best` survives every training episode at `p`: the same stage with the
    /// validation starts `best` fails (in episodes of the stage's length) added; the next stage
    /// when it fails none; nullopt when it fails none at the last stage (the curriculum is done).
    std::optional<curriculum_point> next(const curriculum_point& p, const hw::tennlab_network& best) const;
    /// The validation pool: the corners (x, ẋ, θ, θ̇ each at lo or hi; corner k has value v at
    /// hi when bit 3 − v of k is set), then the stream's starts.
    const std::vector<cartpole_state>& validation_pool() const { return pool_; }
    /// The positions in the pool (but those in `skip`) from which `best` does not survive an
    /// episode of stage `stage`'s length.
    std::vector<std::uint64_t> failed_validation_starts(const hw::tennlab_network& best, int stage,
                                                        const std::vector<std::uint64_t>& skip = {}) const;
    /// e.g. "20 training episodes of 15000 steps, 3 of them mined".
    std::string describe(const curriculum_point& p) const;

    const curriculum_options& options() const { return options_; }

  private:
    cartpole_setting setting_;
    processor_spec processor_;
    cartpole_task_options base_;
    curriculum_options options_;
    std::vector<cartpole_state> pool_;
};

}  // namespace volley::temporal
