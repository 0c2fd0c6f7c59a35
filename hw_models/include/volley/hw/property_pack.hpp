#pragma once
// TENNLab property packs: the typed slots of a node's, an edge's and a network's `values`
// array (RISP.md e.1, a.4).

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace volley::hw {

/// The value type of a property, with the TENNLab character codes.
enum class property_type : int {
    integer = 73,  ///< 'I'
    real = 68,     ///< 'D'
    boolean = 66,  ///< 'B'
};

/// One named property: `size` consecutive slots starting at `index` of a values array.
struct property {
    std::string name;                          ///< e.g. "Threshold"
    property_type type = property_type::real;  ///< value type
    int index = 0;                             ///< first slot in the values array
    int size = 1;                              ///< number of slots (>= 1)
    double min_value = 0;                      ///< lower bound of each slot
    double max_value = 0;                      ///< upper bound of each slot

    friend bool operator==(const property&, const property&) = default;
};

/// The three property lists of a network, each sorted by index and contiguous from slot 0.
struct property_pack {
    std::vector<property> node;     ///< node properties
    std::vector<property> edge;     ///< edge properties
    std::vector<property> network;  ///< network properties

    /// Number of slots in a node's values array.
    int node_slots() const;
    /// Number of slots in an edge's values array.
    int edge_slots() const;
    /// Number of slots in Network_Values.
    int network_slots() const;

    /// The node property called `name`, or nullptr.
    const property* find_node(const std::string& name) const;
    /// The edge property called `name`, or nullptr.
    const property* find_edge(const std::string& name) const;

    /// True when both packs have the same names, types, indices and sizes, and numerically
    /// equal bounds (the processor/network match of RISP.md e.2 step 9).
    bool matches(const property_pack& other) const;

    /// Parses a `Properties` object; throws tennlab_error with the reference's messages.
    /// @param where names the file, used in the error's Volley message
    static property_pack from_json(const nlohmann::json& j, const std::string& where);

    /// The `Properties` object, as the TENNLab framework writes it.
    nlohmann::json to_json() const;

    /// The "pretty" text of the pack that `NP` and `EMPTYNET` print (RISP.md Appendix C).
    std::string pretty_text() const;
};

/// A property as a JSON object (name, type, index, size, min_value, max_value).
nlohmann::json property_to_json(const property& p);

}  // namespace volley::hw
