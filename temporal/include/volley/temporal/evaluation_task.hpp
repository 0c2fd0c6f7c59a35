#pragma once
// A task a network is evaluated on (docs/control.md, "Tasks"): the one interface through which
// EONS's fitness, `volley evolve` and the Python module reach the temporal questions and the
// control tasks alike. A task knows the shape of its networks, scores a network on its
// training material (the fitness) and reports it on held-out material.

#include <volley/eons/evolution.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/cartpole_setting.hpp>
#include <volley/temporal/control_episode.hpp>
#include <volley/temporal/fitness.hpp>
#include <volley/temporal/processor_spec.hpp>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace volley::temporal {

class evaluation_task {
  public:
    virtual ~evaluation_task() = default;
    /// e.g. "cartpole easy", "order".
    virtual std::string name() const = 0;
    /// The inputs, outputs and property pack of the task's networks.
    virtual eons::network_template network_template() const = 0;
    /// The processor the task runs networks on.
    virtual const processor_spec& processor() const = 0;
    /// The score of `net` on the training material, in [0, 1] (higher is better): a pure
    /// function of the network, safe to call from several threads at once. A network of the
    /// wrong shape throws invalid_parameter.
    virtual double fitness(const hw::tennlab_network& net) const = 0;
    /// The fitness as cases whose mean it is (e.g. one per training episode), for lexicase
    /// selection (eons_config::selection); by default the fitness as one case.
    virtual std::vector<double> case_scores(const hw::tennlab_network& net) const { return {fitness(net)}; }
    /// The network's figures on the held-out material, as JSON (the task's own keys).
    virtual nlohmann::json evaluate(const hw::tennlab_network& net) const = 0;
};

/// The EONS fitness function of a task (shares the task).
eons::fitness_function fitness_of(std::shared_ptr<const evaluation_task> task);
/// The same as cases (evaluation_task::case_scores).
eons::case_fitness_function case_fitness_of(std::shared_ptr<const evaluation_task> task);

/// The temporal questions as a task: fitness = accuracy on problem->sequences, evaluate =
/// accuracy and costs on `test` (evaluate_network's figures).
class question_task final : public evaluation_task {
  public:
    question_task(std::shared_ptr<const training_problem> problem, std::vector<encoded_sequence> test);
    std::string name() const override;
    eons::network_template network_template() const override;
    const processor_spec& processor() const override { return problem_->processor; }
    double fitness(const hw::tennlab_network& net) const override;
    /// One case per training sequence (make_case_fitness).
    std::vector<double> case_scores(const hw::tennlab_network& net) const override { return cases_(net); }
    nlohmann::json evaluate(const hw::tennlab_network& net) const override;

  private:
    std::shared_ptr<const training_problem> problem_;
    eons::fitness_function fitness_;
    eons::case_fitness_function cases_;
    std::vector<encoded_sequence> test_;
};

/// The most episodes a cart-pole task runs from one stream (training, test or validation
/// starts): a bound checked before anything is allocated.
inline constexpr int max_cartpole_episodes = 100'000;

/// The options of the cart-pole task.
struct cartpole_task_options {
    int training_episodes = 10;  ///< episodes per fitness evaluation (training starts 0..E−1)
    /// Further training starts after those of the stream (e.g. those a curriculum mined from
    /// its validation starts, cartpole_curriculum.hpp).
    std::vector<cartpole_state> extra_starts;
    int training_steps = 0;      ///< steps per training episode at most (0: the setting's)
    std::uint64_t seed = 1;      ///< stream of the training starts
    int test_episodes = 20;      ///< held-out starts (stream test_start_seed), whole episodes
    /// Halve the score of a network that the DANNA grid (preset `fpga2014`) cannot place and
    /// route, so that a network that survives every training episode (fitness 1) runs on the grid.
    bool placeable_on_grid = false;
    /// invalid_parameter for training_episodes or test_episodes outside [1, max_cartpole_episodes],
    /// training_steps < 0.
    void validate() const;
};

/// Cart-pole on a setting: fitness = mean over the training starts of steps survived divided
/// by the training episode length (partial credit: a network that balances longer scores
/// higher even when it never survives a whole episode), halved for a network the grid cannot
/// place when options.placeable_on_grid; evaluate = the steps of whole episodes from the test starts.
class cartpole_task final : public evaluation_task {
  public:
    cartpole_task(cartpole_setting setting, processor_spec processor, cartpole_task_options options = {});
    std::string name() const override { return "cartpole " + setting_.name; }
    eons::network_template network_template() const override;
    const processor_spec& processor() const override { return processor_; }
    double fitness(const hw::tennlab_network& net) const override;
    /// One case per training start: its steps survived over the episode length (halved as
    /// fitness is).
    std::vector<double> case_scores(const hw::tennlab_network& net) const override;
    /// {"setting", "processor", "episodes", "steps": [...], "mean_steps", "min_steps",
    ///  "survived", "neurons", "synapses"}.
    nlohmann::json evaluate(const hw::tennlab_network& net) const override;

    const cartpole_setting& setting() const { return setting_; }
    const cartpole_task_options& options() const { return options_; }
    /// The training starts (0..E−1 of stream options.seed, then the extra starts) and the test starts.
    std::vector<cartpole_state> training_starts() const;
    std::vector<cartpole_state> test_starts() const;

  private:
    struct training_result {
        std::vector<int> steps;  ///< per training start
        double factor = 1;       ///< 1/2 for a network the grid cannot place (options.placeable_on_grid)
        int max_steps = 0;       ///< the training episodes' length
    };
    training_result training_run(const hw::tennlab_network& net) const;

    cartpole_setting setting_;
    processor_spec processor_;
    cartpole_task_options options_;
};

}  // namespace volley::temporal
