#pragma once
// The EONS operators on single networks (docs/eons.md): random networks and values, the six
// mutations, crossover, merge, tournament selection, and the structural check of a network
// against its template. evolve() composes them; they are public for tests and for tools that
// build or repair networks themselves.
//
// Every operator returns or leaves a network that passes check_network(): ids 0..inputs-1 are
// the inputs and the next `outputs` ids the outputs (never deleted), hidden nodes have fresh
// ids, no (from, to) pair appears twice, self-edges only with config.self_edges, at most
// config.max_nodes nodes, and every value within its property's bounds and of its type.

#include <volley/eons/evolution.hpp>
#include <volley/eons/random_stream.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace volley::eons {

/// A random value of one slot of property `p`: uniform in [min, max] for a real property, a
/// uniform integer in [ceil(min), floor(max)] for an integer one, and a uniform choice among
/// the allowed of {0, 1} for a boolean one.
double random_value(const hw::property& p, random_stream& rng);

/// A values array of `list` (one random_value per slot).
std::vector<double> random_values(const std::vector<hw::property>& list, random_stream& rng);

/// Throws invalid_parameter (naming `source`, the property and its bounds) when a property of
/// the template's pack cannot be drawn from, when the template's sizes do not fit the config
/// (inputs + outputs + starting_nodes > max_nodes), or when network_values does not match
/// the network properties.
void check_template(const network_template& shape, const eons_config& config,
                    const std::string& source);

/// Throws invalid_parameter naming `object`, the node or edge and the bad value when `net`
/// breaks one of the invariants above for `shape` and `config`.
void check_network(const hw::tennlab_network& net, const network_template& shape,
                   const eons_config& config, const std::string& object);

/// A fresh network: the inputs and outputs, config.starting_nodes hidden nodes and
/// config.starting_edges distinct random edges (inputs + outputs when 0; fewer when the
/// network has no more free pairs), every value random.
hw::tennlab_network random_network(const eons_config& config, const network_template& shape,
                                   random_stream& rng);

/// The mutation operators.
enum class mutation_kind {
    add_node,     ///< a hidden node with random values, an edge into it from a random old
                  ///< node and an edge out of it to a random old node
    delete_node,  ///< a random hidden node and every edge touching it
    add_edge,     ///< a random edge between two nodes that have none in that direction
    delete_edge,  ///< a random edge
    node_param,   ///< one random variable slot of one random node (inputs and outputs
                  ///< included) gets another value: a step of at most perturb_span of its
                  ///< span with probability perturb_rate, else a fresh draw
    edge_param,   ///< the same for one random variable slot of one random edge
};

/// The name of a mutation ("add_node", ...), as in the config keys without "_rate".
std::string to_string(mutation_kind kind);

/// True when `kind` can change `net` (e.g. delete_node needs a hidden node).
bool applicable(mutation_kind kind, const hw::tennlab_network& net, const network_template& shape,
                const eons_config& config);

/// Applies `kind` to `net`; returns false (and leaves `net` unchanged) when not applicable.
bool mutate(hw::tennlab_network& net, mutation_kind kind, const network_template& shape,
            const eons_config& config, random_stream& rng);

/// Picks one applicable operator with probability proportional to its config rate and
/// applies it; returns false when no operator with a positive rate is applicable.
bool mutate_random(hw::tennlab_network& net, const network_template& shape,
                   const eons_config& config, random_stream& rng);

/// TENNLab-style crossover: one random fraction f splits the hidden nodes (in node order) of
/// both parents; the child has the first round-down f*(h_a+1) hidden nodes of `a` and the
/// hidden nodes of `b` from position round-down f*(h_b+1) on (renumbered where an id is
/// taken), each input and output node's values from `a` or `b` at random, and every edge of
/// either parent whose two ends are in the child and came from that parent (the first one
/// wins a repeated pair). Hidden nodes of `b` past config.max_nodes are dropped.
hw::tennlab_network crossover(const hw::tennlab_network& a, const hw::tennlab_network& b,
                              const network_template& shape, const eons_config& config,
                              random_stream& rng);

/// The union of two networks: the inputs and outputs (values of `a`) are shared, the hidden
/// nodes and edges of both are kept, `b`'s hidden nodes renumbered where their id is taken;
/// an edge of `b` that repeats one of `a` is dropped, and so are the hidden nodes of `b`
/// (from the last) that do not fit config.max_nodes, with their edges.
hw::tennlab_network merge(const hw::tennlab_network& a, const hw::tennlab_network& b,
                          const network_template& shape, const eons_config& config);

/// Indices sorted by decreasing fitness, ties by lower index.
std::vector<std::size_t> rank_by_fitness(const std::vector<double>& fitness);

/// The winner of a tournament of `size` indices drawn uniformly with replacement: the
/// highest fitness, ties by lower index.
std::size_t tournament(const std::vector<double>& fitness, int size, random_stream& rng);

/// fitness - config.size_penalty * (nodes + edges).
double penalised(double fitness, const hw::tennlab_network& net, const eons_config& config);

/// Each case's epsilon for lexicase selection: the median absolute deviation of its scores over
/// the networks (cases[i] is network i's; all of one length).
std::vector<double> lexicase_epsilons(const std::vector<std::vector<double>>& cases);

/// Epsilon-lexicase selection: the cases in a random order; of the networks left, keep those
/// within epsilon[c] of the best score on case c, until one is left or the cases run out; then
/// a uniform choice among those left.
std::size_t lexicase(const std::vector<std::vector<double>>& cases, const std::vector<double>& epsilon,
                     random_stream& rng);

}  // namespace volley::eons
