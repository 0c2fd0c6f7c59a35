#pragma once
// Running NIR graphs on the engine: a nir_graph maps onto an snn::network of discrete_neuron
// populations fed by analog sources, and an snn::network of that kind maps back to a NIR graph.
// The mapping, the discretisations and the step alignment are described in docs/nir.md.

#include <volley/snn/network.hpp>
#include <volley/snn/nir_graph.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace volley::snn {

/// How a NIR graph is discretised. NIR is declarative (it cannot say how a neuron resets);
/// these choices are Volley's, and docs/nir.md says which ones reproduce which framework.
struct nir_import_options {
    double dt_s = 1e-4;  ///< the step [s] (NIR time constants are in seconds), > 0
    discrete_neuron::integration discretisation = discrete_neuron::integration::euler;
    /// The reset of every spiking node: to_v_reset (Volley, Norse), subtract (Sinabs),
    /// subtract_delayed (snnTorch's default), ... (discrete_neuron::reset_mode).
    discrete_neuron::reset_mode reset = discrete_neuron::reset_mode::to_v_reset;
    /// The reset of single nodes (by name, "graph.node" inside nested graphs), where a file mixes
    /// rules: snnTorch's RLeaky and Leaky reset to zero differently. Each must name a spiking node.
    std::map<std::string, discrete_neuron::reset_mode> node_reset{};
    /// A Conv2d that alone joins two population nodes becomes a `convolution` projection (one
    /// shared kernel); false: a from_list matrix like every other linear chain (the same spikes,
    /// more memory).
    bool convolutions = true;
};

/// "dt = 0.0001 s, discretisation euler, reset to-v-reset": the options as the CLI prints them.
std::string describe(const nir_import_options& options);

/// The reset's name on the command line: "to-v-reset", "subtract", "subtract-delayed",
/// "subtract-no-delay", "to-v-reset-delayed" or "none".
std::string nir_reset_name(discrete_neuron::reset_mode mode);
/// Parses a name above (underscores also do) or a framework's name for its rule: "norse" and
/// "zero" (to-v-reset), "sinabs" (subtract), "snntorch" (subtract-delayed), "snntorch-no-delay"
/// (subtract-no-delay), "snntorch-rleaky-zero" (to-v-reset-delayed). Throws invalid_parameter
/// naming `object` (e.g. "--reset") and listing the names otherwise.
discrete_neuron::reset_mode nir_reset_from_name(const std::string& name, const std::string& object = "--reset");

/// Applies one --reset value: "MODE" sets options.reset, "NODE=MODE" options.node_reset[NODE]
/// (MODE as nir_reset_from_name takes it). Throws invalid_parameter naming `object`.
void apply_nir_reset(const std::string& spec, nir_import_options& options, const std::string& object = "--reset");

/// A time constant too short for the step: dt/τ >= 1 in some neuron of a node. Under Euler the
/// decay factor 1 − dt/τ is then <= 0 (v flips sign or is forgotten every step; unstable past
/// 2); under the exact scheme the node forgets its state within one step. Either way the
/// spikes are rarely what the file's writer meant (Norse 1.1's exporter writes dt·τ for τ).
struct nir_step_warning {
    std::string node;          ///< the NIR node ("graph.node" inside nested graphs)
    std::string parameter;     ///< "tau", "tau_mem" or "tau_syn"
    double dt_over_tau = 0;    ///< the largest dt/τ among the node's neurons
    std::size_t neurons = 0;   ///< how many of its neurons have dt/τ >= 1
    std::string message;       ///< one sentence that names the node and the value
};

/// The nodes (LIF, LI: tau; CubaLIF, CubaLI: tau_mem, tau_syn) whose time constants the step
/// options.dt_s makes meaningless, in graph order (nested graphs included).
std::vector<nir_step_warning> check_nir_step(const nir_graph& graph, const nir_import_options& options);

/// One engine population made from a NIR node (a neuron node, a Threshold or an Input).
struct nir_population {
    std::string node;                  ///< the NIR node's name (also the population's name)
    std::string type;                  ///< its NIR type ("LIF", "Input", ...)
    population_index pop;              ///< in nir_network::net
    std::vector<std::size_t> shape;    ///< the node's per-sample output shape
    /// Layers of neurons between the Input and this node (Input 0, the first neurons 1). The
    /// engine works on NIR step t of this node in step t + depth, and stamps its spikes
    /// t + depth + 1.
    std::int64_t depth = 0;
    std::vector<double> bias;          ///< i_bias per neuron (Affine and Conv biases), or empty
    bool spiking = true;               ///< false for I, LI, CubaLI (no threshold), Input and readouts
};

/// One Output node and the population it records.
struct nir_output {
    std::string node;    ///< the Output node's name
    std::string source;  ///< the node that feeds it
    population_index pop;
};

/// A NIR graph mapped onto the engine.
struct nir_network {
    network net;
    nir_import_options options;                 ///< the options used
    std::vector<nir_population> populations;    ///< one per population of net, same order
    std::vector<std::string> inputs;            ///< the Input nodes, in population order
    std::vector<nir_output> outputs;
    std::vector<std::string> notes;             ///< what the mapping assumed, one sentence each
    std::vector<nir_step_warning> warnings;     ///< check_nir_step of the graph and options

    /// The population made from node `name`; throws unknown_name.
    const nir_population& population(const std::string& name) const;
    /// The deepest population's depth: a run of N NIR steps takes N + max_depth engine steps.
    std::int64_t max_depth() const;
};

/// Maps a NIR graph (from read_nir or analyse_nir_graph) onto the engine.
/// - Input nodes become analog_source populations, neuron nodes (LIF, CubaLIF, IF, LI, I,
///   CubaLI) and Threshold nodes discrete_neuron populations.
/// - The linear nodes between them (Affine, Linear, Scale, Conv1d, Conv2d, SumPool2d, AvgPool2d,
///   Flatten, Delay) compose into one from_list projection per (source, target) pair, biases
///   into the target's i_bias. A Conv2d that alone joins two populations becomes a convolution
///   projection instead (options.convolutions). Recurrent edges add one step of delay.
/// - An Output fed by a linear node becomes a readout population (type "Output"): a memoryless
///   discrete_neuron (Euler, tau = dt, no threshold) whose v is the linear node's value.
/// Nested graphs are flattened first (flatten_nir_graph).
/// Throws unsupported_model naming the node for what does not map (a non-spiking node feeding
/// another node, a recurrent edge that skips back over layers), invalid_parameter for bad
/// options or values (a node_reset key that names no spiking node).
nir_network nir_to_network(const nir_graph& graph, const nir_import_options& options = {});

/// The graph with every nested NIRGraph's nodes lifted to the top level as "graph.node"; the
/// nested Input and Output ports become identity nodes (Scale 1) where the outer edges attach.
/// nir_to_network flattens nested graphs this way. Throws unsupported_model when a graph has
/// several ports of one kind and an outer edge names the graph itself, or when a lifted name
/// is taken.
nir_graph flatten_nir_graph(const nir_graph& graph);

/// The inverse: analog_source populations become Input nodes, discrete_neuron populations
/// neuron nodes (CubaLIF/CubaLI with tau_syn_ms > 0, LIF/LI with a leak, IF/I without; no
/// threshold: the non-spiking type), projections Linear nodes (Affine where the target has a
/// bias), convolution projections Conv2d nodes (with a Flatten before a Linear that reads their
/// map), extra delay Delay nodes, and populations in `outputs` (default: those without outgoing
/// projections) get an Output node. nir_to_network of the result gives back `net` when it was
/// made by nir_to_network with the same options. Throws unsupported_model for other models or
/// connectors, invalid_parameter for a delay shorter than the layer alignment needs.
nir_graph network_to_nir(const network& net, const nir_import_options& options = {},
                         const std::vector<std::string>& outputs = {});

/// What a run of a NIR graph gives, in NIR steps (0-based, as the reference frameworks count).
struct nir_run_result {
    std::int64_t steps = 0;
    /// Spikes per population (by node name) over the run.
    std::map<std::string, std::uint64_t> spike_counts;
    /// Each Output node's spikes: steps[k] is the NIR step of neuron neurons[k]'s spike, sorted.
    struct output_spikes {
        std::string node;
        std::vector<std::int64_t> steps;
        std::vector<std::uint32_t> neurons;
    };
    std::vector<output_spikes> outputs;
    /// The spikes of every neuron population (by node name, in population order), likewise.
    std::vector<output_spikes> layers;
    /// Recorded membranes: v[node][t][neuron] after NIR step t. Readout Outputs (fed by a linear
    /// node) are always recorded: v[output node][t] is the linear node's value at step t.
    std::map<std::string, std::vector<std::vector<double>>> v;
};

/// Runs `steps` NIR steps. `inputs[k][t]` is Input k's flattened (C-order) value at step t
/// (rows past its end are zero). Biases switch on at each layer's first step, so the run equals
/// the reference frameworks' step for step. `record_v` names nodes whose membrane is recorded.
nir_run_result run_nir(const nir_network& model, const std::vector<std::vector<std::vector<double>>>& inputs,
                       std::int64_t steps, int threads = 1, const std::vector<std::string>& record_v = {});

}  // namespace volley::snn
