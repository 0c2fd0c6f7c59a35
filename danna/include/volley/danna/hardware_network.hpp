#pragma once
// A hardware network: integer neurons and synapses, the common input of both DANNA models
// and of place and route (DANNA.md, "Place and route"). It converts to and from TENNLab
// network JSON; danna2_net_format.hpp reads and writes the danna2.net text form.

#include <volley/hw/tennlab_network.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace volley::danna {

using hw::node_id;

/// A grid coordinate [cells]: x is the column, y the row.
struct cell {
    int x = 0;  ///< column
    int y = 0;  ///< row
    friend bool operator==(const cell&, const cell&) = default;
};

/// A neuron of a hardware network.
struct hw_neuron {
    node_id id = 0;                ///< unique id
    int threshold = 0;             ///< fires when charge >= threshold (or > with strict tests)
    int refractory = 1;            ///< [network cycles] inputs dropped after a fire
    std::string name;              ///< optional name ("" when absent)
    std::optional<cell> position;  ///< grid coordinates (danna2.net), if known
};

/// A synapse of a hardware network.
struct hw_synapse {
    node_id from = 0;       ///< pre-neuron id
    node_id to = 0;         ///< post-neuron id
    int weight = 0;         ///< value added to the post-neuron's charge on delivery
    int delay = 1;          ///< [network cycles] from the pre-neuron's fire to delivery, >= 1
    bool learning = false;  ///< LTP/LTD enabled for this synapse
};

/// Value limits a hardware network is checked against.
struct network_limits {
    int min_threshold = 0;     ///< smallest threshold
    int max_threshold = 1023;  ///< largest threshold
    int min_weight = -1023;    ///< smallest weight
    int max_weight = 1023;     ///< largest weight
    int max_delay = 256;       ///< [network cycles] largest delay (the smallest is 1)
    int max_refractory = 255;  ///< [network cycles] largest refractory period
};

/// An integer-valued network: neurons, synapses, and the ordered input and output lists.
struct hardware_network {
    std::vector<hw_neuron> neurons;    ///< neurons in file order
    std::vector<hw_synapse> synapses;  ///< synapses in file order (the order of weights())
    std::vector<node_id> inputs;       ///< input neuron ids; position = input index
    std::vector<node_id> outputs;      ///< output neuron ids; position = output index

    /// Index of neuron `id` in `neurons`, or nullopt.
    std::optional<std::size_t> find(node_id id) const;

    /// Checks ids, endpoints, duplicates and value ranges; throws invalid_parameter naming
    /// the neuron or synapse and the bad value. `where` names the source for messages.
    void validate(const network_limits& limits, const std::string& where) const;
};

/// Names of the TENNLab properties a DANNA network uses.
struct property_names {
    static constexpr const char* threshold = "Threshold";    ///< node, integer
    static constexpr const char* refractory = "Refractory";  ///< node, integer (optional)
    static constexpr const char* weight = "Weight";          ///< edge, integer
    static constexpr const char* delay = "Delay";            ///< edge, integer
    static constexpr const char* learning = "Learning";      ///< edge, boolean (optional)
};

/// Reads a hardware network from TENNLab JSON by property name. Threshold, Weight and Delay
/// are required; a missing Refractory gives `default_refractory`, a missing Learning gives
/// false. Non-integer values throw invalid_parameter naming the node or edge.
hardware_network from_tennlab(const hw::tennlab_network& net, int default_refractory);

/// Writes a hardware network as TENNLab JSON with the given property pack (which must
/// name Threshold, Refractory, Weight and Delay; Learning is written when the pack has it)
/// and Associated_Data.
hw::tennlab_network to_tennlab(const hardware_network& net, const hw::property_pack& pack,
                               const nlohmann::json& associated_data);

}  // namespace volley::danna
