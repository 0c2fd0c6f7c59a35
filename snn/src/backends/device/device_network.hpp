#pragma once
// What a device backend (backends/device: the CUDA engine and its portable twin on Thrust's
// OpenMP system) is given of a network: plain columns and CSR tables, built on the host by the
// same code the CPU engine builds from (the lowering's fixed point and delays, the LIF
// populations' propagators and initial state), so that the device steps the same numbers.
// This header includes nothing heavy: the device sources, compiled by nvcc, include only it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace volley::snn::detail {

/// The model kind of a device population.
enum class device_model : std::uint8_t { lif_delta, lif_exp, lif_alpha, poisson, spike_array, discrete, analog };

/// A host-side handle to a population's current stimuli (device_network.cpp).
struct device_currents;
/// True when a current stimulus changes at step s.
bool currents_change_at(const device_currents& c, std::int64_t s);
/// Fills i_ext with the bias plus the amplitudes of step s (the CPU's apply_currents).
void currents_fill(const device_currents& c, std::int64_t s, std::vector<double>& i_ext);

/// One population: its state as built, its parameters (columns of size 1 or n) and its stimuli.
struct device_population {
    std::string name;
    device_model model = device_model::lif_exp;
    std::uint32_t n = 0;
    // LIF (the CPU's lif_population::built_state).
    bool scaled = false;
    std::int64_t rescale_period = 1;
    std::vector<double> decay_power[2], input_power[2];
    std::vector<double> v, ie, ii, xe, xi;
    std::vector<double> v_rest, v_reset, v_thresh, p22, p20, p11e, p11i, p21e, p21i, p31e, p31i, jump_e, jump_i,
        i_ext;
    std::vector<std::int32_t> ref_steps;
    std::shared_ptr<const device_currents> currents;  ///< null when the population has none
    // Discrete neurons (discrete_population::built_state): v, v_reset and v_thresh above, i_ext
    // holds i_bias, and
    std::uint8_t reset_mode = 0;  ///< discrete_neuron::reset_mode
    std::vector<double> i_syn, v_leak, w_in, r, syn_keep, mem_keep, in_gain, cross;
    std::vector<std::uint8_t> has_syn, drive_from_i;
    // Analog sources: the value of neuron i at step s is analog_values[s * n + i] (0 past the
    // table).
    std::vector<double> analog_values;
    // Poisson sources: the streams of (seed, poisson, index, neuron), as the CPU's, and the
    // rate [1/ms], start and stop [ms], each one value for the population or one per neuron
    // (build/poisson_parameters.hpp).
    std::vector<double> rate_per_ms, start_ms, stop_ms;
    std::uint64_t seed = 0;
    std::uint32_t index = 0;  ///< the population's index in the network
    // Spike arrays: spike steps per neuron (stamped steps, ascending), CSR.
    std::vector<std::uint32_t> spike_begin;
    std::vector<std::int64_t> spike_steps;
    double scale_e = 0, scale_i = 0;  ///< fixed point -> mV per receptor (the lowering's)
};

/// How a projection's spikes reach its targets (propagation_strategy.hpp).
enum class device_propagation : std::uint8_t {
    presynaptic,   ///< one thread per spike walks its row (CSR by source), integer atomics
    postsynaptic,  ///< one thread per target reads its column (CSC by target) and the sources' counts, no atomics
};

/// What carries a projection's spikes: a synapse table, or a structured connector's own
/// kernel (connectors.hpp).
enum class device_connector : std::uint8_t { table, convolution, max_pool_gate };

/// A convolution or gated max-pool on the device: the connector's geometry, and for a
/// convolution its kernel as the CPU delivers it (conv_fixed_kernel), for a gate its weight.
struct device_structured {
    std::uint32_t in_c = 1, in_h = 1, in_w = 1, out_c = 1, out_h = 1, out_w = 1;
    std::uint32_t k_h = 1, k_w = 1, stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;
    std::uint32_t dil_h = 1, dil_w = 1, groups = 1;
    std::vector<std::int64_t> kernel;  ///< OIHW, fixed point (convolution)
    std::int64_t weight = 0;           ///< fixed point (gate)
};

/// One static projection: a synapse table as CSR by source neuron (and, for the postsynaptic
/// strategy, CSC by target neuron) in fixed point, or a structured connector.
struct device_projection {
    std::uint32_t source = 0, target = 0;
    std::uint32_t receptor = 0;  ///< 0 excitatory, 1 inhibitory
    device_connector connector = device_connector::table;
    device_structured structured;  ///< convolution and gate
    std::uint32_t delay = 1;       ///< convolution and gate: the one delay [steps]
    /// Zero delay: delivered within the step, right after its source's update (the lowering's
    /// update order puts the source first).
    bool zero_delay = false;
    /// The lowering lets it go direct (one weight and a delay of one step onto lif_exp or
    /// lif_alpha: lowering/direct_inputs.hpp): its events are counted per target and added as
    /// doubles after the target's update, as the CPU engine adds them.
    bool direct = false;
    std::int32_t direct_weight = 0;        ///< the fixed-point weight of a direct projection
    std::vector<std::uint32_t> row_begin;  ///< [source + 1]
    std::vector<std::uint32_t> targets;
    std::vector<std::int32_t> weights;  ///< fixed point
    std::vector<std::uint16_t> delays;  ///< [steps] >= 1, or 0 for a zero-delay projection
    device_propagation strategy = device_propagation::presynaptic;
    /// Postsynaptic only: the same synapses by target.
    std::vector<std::uint32_t> col_begin;  ///< [target + 1]
    std::vector<std::uint32_t> col_sources;
    std::vector<std::int32_t> col_weights;
    std::vector<std::uint16_t> col_delays;
};

struct device_network {
    double dt_ms = 0;
    std::vector<device_population> populations;  ///< in network order
    std::vector<device_projection> projections;
    std::vector<std::uint32_t> order;  ///< the lowering's update order (zero-delay sources first)
    std::uint32_t max_delay = 1;  ///< the event queues and input rings hold max_delay + 1 slots
    std::uint64_t synapses = 0;
    std::uint64_t table_bytes = 0;  ///< rows, targets, weights and delays in device memory
};

}  // namespace volley::snn::detail
