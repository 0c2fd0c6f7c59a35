#pragma once
// Connectors: value types that say which source neuron connects to which target neuron.
// Random connectors draw from counter-based streams keyed by (seed, projection, target), so a
// network builds the same synapses on any number of threads or ranks.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace volley::snn {

/// Every source to every target. With a list-valued weight or delay, element
/// [source * n_target + target] belongs to that synapse (a row-major weight matrix).
struct all_to_all {
    bool allow_autapses = true;  ///< when source == target population, connect i -> i too
    friend bool operator==(const all_to_all&, const all_to_all&) = default;
};

/// Source i to target i; both populations must have the same size.
struct one_to_one {
    friend bool operator==(const one_to_one&, const one_to_one&) = default;
};

/// Each (source, target) pair independently with probability p.
struct fixed_probability {
    double p = 0.1;  ///< connection probability, in [0, 1]
    bool allow_autapses = true;
    friend bool operator==(const fixed_probability&, const fixed_probability&) = default;
};

/// Each target gets exactly k distinct sources, drawn uniformly without replacement.
struct fixed_in_degree {
    std::uint32_t k = 1;  ///< in-degree, <= number of eligible sources
    bool allow_autapses = true;
    friend bool operator==(const fixed_in_degree&, const fixed_in_degree&) = default;
};

/// An explicit list of (source, target) local indices. With a list-valued weight or delay,
/// element i belongs to pair i.
struct from_list {
    std::vector<std::uint32_t> sources;
    std::vector<std::uint32_t> targets;
    friend bool operator==(const from_list&, const from_list&) = default;
};

/// Every connector the engine knows.
using connector = std::variant<all_to_all, one_to_one, fixed_probability, fixed_in_degree, from_list>;

/// The connector's name in files: "all_to_all", "one_to_one", "fixed_probability", ...
std::string connector_name(const connector& c);

}  // namespace volley::snn
