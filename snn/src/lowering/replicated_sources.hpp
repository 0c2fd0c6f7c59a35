#pragma once
// The lowering's replicated sources (docs/engine.md, "Epochs and ranks"): with more than one
// rank, a spike source population (Poisson trains, spike arrays) is not exchanged. Its spikes
// are a pure function of the seed and the neuron (counter-based streams, or the arrays), so
// every rank draws those with synapses onto its neurons itself, as NEST's devices do. Each
// source neuron is recorded and counted by one rank: the lowest that needs it, or, when no
// rank does, the one whose domain holds it. A Poisson drive of one source per neuron then costs
// each rank its own share and no exchange.

#include <volley/snn/network.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "lowering/synapse_plan.hpp"

namespace volley::snn {
class distributed_context;
}

namespace volley::snn::detail {

/// Whether a population of model `m` is replicated on more than one rank (a spike source
/// whose spikes every rank can draw: Poisson trains and spike arrays; an analog source's
/// values are exchanged).
bool is_replicated_model(const neuron_model& m);

/// What a rank draws and records of each replicated population.
struct replicated_sources {
    std::vector<std::uint8_t> replicated;  ///< [population]: its spikes are drawn where needed, not exchanged
    /// [population]: the local neurons [first, second) this rank draws, those it needs and
    /// those it records ({0, 0} when none or not replicated).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> generate;
    /// [population][neuron]: this rank records and counts the neuron's spikes (replicated
    /// populations only; empty otherwise).
    std::vector<std::vector<std::uint8_t>> recorded;
};

/// The replicated populations of rank dist.id(), whose domain is the global ids
/// [domain_lo, domain_hi), from the planned tables of its parts (before an engine takes their
/// row sizes); collective. With one rank nothing is replicated. A source whose projections
/// keep no planned table (convolutions, gates, plastic synapses) is needed whole by every rank.
replicated_sources replicate_sources(const network& net, const distributed_context& dist, std::uint32_t domain_lo,
                                     std::uint32_t domain_hi, const std::vector<std::uint32_t>& first,
                                     const synapse_plan& plan);

}  // namespace volley::snn::detail
