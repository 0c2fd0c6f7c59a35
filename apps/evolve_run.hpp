#pragma once
// The evolution that `volley evolve` runs for every task (cmd_evolve.cpp, the temporal
// questions; cmd_evolve_cartpole.cpp, the cart-pole): the options, the stage plan, and the loop
// that starts or resumes an EONS population, reports progress, writes checkpoints and moves
// from stage to stage.

#include <volley/convert/image_dataset.hpp>
#include <volley/eons/evolution.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace volley::cli {

struct evolve_cli_options {
    std::string task = "order", processor = "risp", features = "oracle", encoding = "winner";
    int class_a = 7, class_b = 8, frames = 8, cycles_per_frame = 10;
    std::optional<int> population;  ///< default: the config's
    std::string selection;          ///< EONS parent selection (empty: the config's, else the task's default)
    int generations = 50, threads = 0;
    std::size_t train_sequences = 400, test_sequences = 1000;
    std::uint64_t seed = 1;
    std::int64_t timesteps = 32;  ///< cnn features: T steps per image
    std::string config, checkpoint, resume, out, plot, data_dir{convert::default_fashion_mnist_dir};
    bool seed_hand_built = false, json = false, quiet = false;
    bool leak = false;  ///< temporal questions: RISP's leak_mode all
    std::string setting = "easy", preset = "risp-1+";  ///< cartpole only
    int episodes = 10, compare_episodes = 2;  ///< cartpole only
    std::string training_steps = "2000,0";      ///< cartpole: the stages' episode lengths (0: the setting's)
    int validation_starts = 100, mined_per_round = 5;  ///< cartpole: the curriculum's validation rounds
    bool corner_starts = true;                         ///< cartpole: the start box's corners validate too
    double time_limit = 0;  ///< [s] stop after the generation that passes it (0: none)
    bool grid_check = true;  ///< cartpole: networks the DANNA grid cannot place score half
};

/// What an evolution did, for the report.
struct evolution_run {
    eons::evolution_state state;
    std::int64_t evaluations = 0;
    double eval_s = 0;
    int threads = 1;
    bool writes = true;  ///< this process writes files (rank 0)
    bool stopped_by_time = false;  ///< --time-limit ended the run
    int ranks = 1;
    nlohmann::json point;  ///< where the stage plan stood when the run ended
    bool plan_done = false;  ///< the best network reached 1 at the plan's last point
};

/// One stage of an evolution: its fitness and a description for the header line.
struct eons_stage {
    eons::fitness_function fitness;
    std::string what;
    eons::case_fitness_function cases = {};  ///< the fitness as cases, for lexicase selection (empty: one case)
};

/// The stages of an evolution: a point (a JSON value, kept in checkpoints as "volley_stage"),
/// the stage at a point (invalid_parameter naming the object for a point the plan does not
/// have), and where to go once the best network at a point reaches fitness 1 (nullopt: done).
struct stage_plan {
    nlohmann::json first = 0;
    std::function<eons_stage(const nlohmann::json& point, const std::string& object)> at;
    std::function<std::optional<nlohmann::json>(const nlohmann::json& point, const hw::tennlab_network& best)> next =
        [](const nlohmann::json&, const hw::tennlab_network&) { return std::nullopt; };
};

/// One stage and nothing after it.
stage_plan single_stage(eons_stage stage);

/// Starts (or resumes from --resume) an evolution of networks of `shape` and runs --generations
/// of it, printing progress and writing --checkpoint files (with the plan's point). Once the
/// best network at a point reaches fitness 1, the plan names the next point (a longer episode,
/// more training starts) and every network is scored again with its fitness; the run ends when
/// the plan has no next point, at --generations or at --time-limit. A checkpoint resumes at its
/// point, to the result of the run straight through.
evolution_run run_eons(const evolve_cli_options& o, const eons::network_template& shape, const stage_plan& plan,
                       const std::vector<hw::tennlab_network>& seeds);

/// Writes the fitness plot of --plot (rank 0 only).
void plot_fitness(const evolve_cli_options& o, const evolution_run& run, const std::string& title, const std::string& note);

/// `volley evolve --task cartpole`: EONS from random networks on a cart-pole setting.
void run_evolve_cartpole(const evolve_cli_options& o);

}  // namespace volley::cli
