#pragma once
// EONS: evolutionary optimisation of neuromorphic networks (Schuman et al., "Evolutionary
// optimization for neuromorphic systems", NICE 2020), on TENNLab network JSON. A population of
// networks is evolved by tournament selection, elitism, crossover, merge and structural and
// parameter mutations, with a share of fresh random networks each generation (docs/eons.md).
//
// Determinism: every random choice of generation g draws from streams keyed by (seed, g, child
// index), and fitness is a pure function of the network, so the result is identical for any
// thread count, and a checkpoint taken after generation g resumes to the identical result.

#include <volley/hw/property_pack.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <span>
#include <vector>

namespace volley::eons {

/// The EONS parameters; every field has a documented default (docs/eons.md).
/// The JSON keys are the field names.
struct eons_config {
    int population = 100;           ///< networks per generation (>= 2)
    int num_best = 4;               ///< elites copied unchanged into the next generation
    int tournament_size = 3;        ///< networks per tournament (>= 1)
    double random_fraction = 0.05;  ///< share of each generation made of fresh random networks
    double crossover_rate = 0.5;    ///< chance a child is a crossover of two parents
    double merge_rate = 0.0;        ///< chance a child is the merge of two parents
    double mutation_rate = 0.9;     ///< chance a child is mutated (then 1..max_mutations ops)
    int max_mutations = 3;          ///< most mutation operators applied to one child
    // Relative weights of the mutation operators (need not sum to 1).
    double add_node_rate = 1, delete_node_rate = 1, add_edge_rate = 2, delete_edge_rate = 1,
           node_param_rate = 2, edge_param_rate = 3;
    /// Chance that a parameter mutation steps the value (by at most perturb_span of its
    /// property's span, at least one for integers) instead of drawing it afresh.
    double perturb_rate = 0;
    double perturb_span = 0.1;  ///< the largest step, as a share of the span (in (0, 1])
    int starting_nodes = 0;   ///< hidden nodes of a fresh random network
    int starting_edges = 0;   ///< edges of a fresh random network (0: inputs + outputs)
    int max_nodes = 64;       ///< most nodes a network may have (inputs and outputs included)
    double size_penalty = 0;  ///< fitness -= size_penalty * (nodes + edges) (>= 0)
    bool self_edges = true;   ///< whether an edge may go from a node to itself
    /// How parents are chosen: tournaments on the fitness, or epsilon-lexicase on the
    /// fitness's cases (La Cava, Spector & Danai 2016; docs/eons.md, "Selection"), which keeps
    /// networks that do best on a few hard cases although their mean is lower.
    enum class selection_kind { tournament, lexicase };
    selection_kind selection = selection_kind::tournament;

    /// Throws invalid_parameter naming the first out-of-range field and its value
    /// (`source` names the file or object in the message).
    void validate(const std::string& source) const;

    /// Parses a config; unknown keys and out-of-range values throw invalid_parameter naming
    /// the key and the value (`source` names the file in messages). Missing keys keep their
    /// defaults.
    static eons_config from_json(const nlohmann::json& j, const std::string& source);
    /// Every key, with its value.
    nlohmann::json to_json() const;
};

/// What every network of the population must look like: the processor's property pack and
/// the numbers of input and output nodes (ids 0..inputs-1 are inputs, then the outputs).
struct network_template {
    hw::property_pack properties;
    int inputs = 1, outputs = 1;
    nlohmann::json network_values;  ///< Network_Values of every network (may be empty)

    /// {"properties": ..., "inputs": n, "outputs": n, "network_values": [...]}.
    nlohmann::json to_json() const;
    /// Parses to_json()'s form; throws file_format_error or tennlab_error naming `source`.
    static network_template from_json(const nlohmann::json& j, const std::string& source);
};

/// The fitness of a network: a pure function of it, called concurrently from several threads.
/// It must return a finite number (evolve throws invalid_parameter otherwise); higher is better.
using fitness_function = std::function<double(const hw::tennlab_network&)>;

/// A fitness made of cases (e.g. one score per training episode): the same number of finite
/// scores, in the same order, for every network; the fitness is their mean. Lexicase selection
/// reads the cases; tournaments read the mean.
using case_fitness_function = std::function<std::vector<double>(const hw::tennlab_network&)>;

/// A fitness of one case.
case_fitness_function one_case(fitness_function f);

/// One generation's figures (fitness values include the size penalty).
struct generation_record {
    int generation = 0;  ///< index of the evaluated population (0 = the first one)
    double best = 0, mean = 0;
    int best_nodes = 0, best_edges = 0;
    double seconds = 0;            ///< wall time of the generation
    std::int64_t evaluations = 0;  ///< fitness calls made (carried-over fitness not counted)
};

/// The state of an evolution: enough to resume it bit for bit.
///
/// Between generations `population` is the next population to evaluate. `fitness[i]` is the
/// known (penalised) fitness of population[i]: carried over for elites and for unchanged
/// copies, NaN (JSON null) where it is still to be evaluated.
struct evolution_state {
    eons_config config;
    network_template shape;
    std::uint64_t seed = 1;
    int generation = 0;                           ///< generations done
    std::vector<hw::tennlab_network> population;  ///< the current generation
    std::vector<double> fitness;                  ///< its known fitness, by index (NaN: unknown)
    /// The case scores behind each known fitness (empty where it is unknown): what lexicase
    /// selection reads.
    std::vector<std::vector<double>> cases;
    std::vector<generation_record> history;
    hw::tennlab_network best;  ///< best network seen so far (none at generation 0)
    double best_fitness = 0;   ///< its fitness (0 at generation 0)

    /// The population checkpoint; doubles are written so that they read back bit for bit.
    nlohmann::json to_json() const;
    /// Reads to_json()'s form and checks it (config, networks against the shape, sizes).
    /// Throws file_format_error, invalid_parameter or tennlab_error naming `source`.
    static evolution_state from_json(const nlohmann::json& j, const std::string& source);
};

/// How the evaluations of a generation are shared between processes, e.g. MPI ranks
/// (docs/eons.md, "On several processes"). The networks to evaluate, in index order, are split
/// into `ranks` contiguous blocks as equal as can be; this process evaluates block `rank` and
/// `gather` (a collective call: every process makes it, with its own block's values) returns
/// every block's values in block order. The values do not depend on who computed them, so the
/// evolution is the same for any number of processes. Every process must call evolve with the
/// same state and options.
struct evaluation_share {
    int rank = 0;   ///< this process, in [0, ranks)
    int ranks = 1;  ///< processes; 1: no sharing (gather is not called)
    std::function<std::vector<double>(std::span<const double> mine)> gather;
};

struct evolve_options {
    int generations = 50;
    int threads = 1;  ///< OpenMP threads evaluating networks (in each process)
    evaluation_share share{};  ///< processes sharing the evaluations (default: this one alone)
    /// Stop once the best fitness reaches this (never by default).
    double stop_at = std::numeric_limits<double>::infinity();
    /// Called after each generation; return false to stop (the state stays resumable).
    std::function<bool(const generation_record&)> progress;
    /// Called after each generation with the state, e.g. to write a checkpoint; may be empty.
    std::function<void(const evolution_state&)> checkpoint;
};

/// A fresh population of `config.population` random networks (generation 0, not evaluated).
/// `seeds` are networks placed first (e.g. hand-built ones), checked against `shape`.
evolution_state start_evolution(const eons_config& config, const network_template& shape,
                                std::uint64_t seed,
                                const std::vector<hw::tennlab_network>& seeds = {});

/// Runs `options.generations` more generations of `state`. A generation evaluates the
/// population (networks of unknown fitness only, in parallel), records it, updates the best
/// network, breeds the next population and increments `state.generation`; then `checkpoint`
/// and `progress` are called. Throws invalid_parameter for bad options, a state that does not
/// fit its config, or a non-finite fitness; an exception thrown by `fitness` is rethrown (the
/// one of the lowest network index) and leaves the generation undone.
void evolve(evolution_state& state, const fitness_function& fitness, const evolve_options& options);
/// The same with a fitness made of cases (needed by lexicase selection).
void evolve(evolution_state& state, const case_fitness_function& fitness, const evolve_options& options);

}  // namespace volley::eons
