#pragma once
// The CPU backend's structured projections: connectors that keep no synapse table but an
// object of their own (a convolution keeps its kernel, a max-pool gate its window counts), one
// per engine thread over the targets it owns. They register here, in their own folder, behind
// one interface and one factory (as the population kernels do, population_factory.hpp): the
// engine delivers every structured projection through the same two calls and knows none of
// them by name. Adding a structured connector is its class with this interface, its
// alternative in structured_state and a row in structured_factory.cpp.
//
// Per step and source: take() for each thread's list of the source's spikes (with the analog
// values of an analog source), then deliver() into the ring cells of the arrival slot.

#include <volley/snn/network.hpp>

#include <concepts>
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/structured/conv_projection.hpp"
#include "backends/cpu/structured/gate_projection.hpp"
#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

/// A structured projection: the name of its kind (checkpoint records), its ends, receptor and
/// delay [steps]; take() adds one spike list of its source (values: one per spike, or null) and
/// returns the synaptic events; deliver() moves the step's input into ring cells (`cells`: the
/// cell of target neuron 0 for its receptor, stride 2; `touched`, unless null, gets each target
/// with input as its local index plus `offset`) and returns the events; its dynamic state.
template <class S>
concept structured_projection_model =
    requires(S& p, const S& cp, std::span<const std::uint32_t> spikes, const double* values, std::int64_t* cells,
             std::vector<std::uint32_t>* touched, state_archive& a) {
        { S::kind } -> std::convertible_to<const char*>;
        { cp.source() } -> std::convertible_to<std::uint32_t>;
        { cp.target() } -> std::convertible_to<std::uint32_t>;
        { cp.receptor() } -> std::convertible_to<std::uint8_t>;
        { cp.delay() } -> std::convertible_to<std::uint32_t>;
        { cp.bytes() } -> std::convertible_to<std::uint64_t>;
        { cp.synapses() } -> std::convertible_to<std::uint64_t>;
        { p.take(spikes, values) } -> std::convertible_to<std::uint64_t>;
        { p.deliver(cells, std::int64_t{0}, touched) } -> std::convertible_to<std::uint64_t>;
        p.visit_state(a);
    };

/// Every structured projection the CPU engine runs.
using structured_state = std::variant<conv_projection, gate_projection>;

template <class V>
inline constexpr bool all_structured = false;
template <class... S>
inline constexpr bool all_structured<std::variant<S...>> = (structured_projection_model<S> && ...);
static_assert(all_structured<structured_state>, "every alternative offers the structured interface");

/// What a structured projection is built with: projection `index` of `net`, restricted to its
/// target's local neurons [begin, end), weights into fixed point with `to_fixed` (the lowering's
/// scale of its target receptor), its delay from the lowering's plan.
struct structured_build {
    const network& net;
    std::size_t index;
    std::uint32_t delay;
    double to_fixed;
    std::uint32_t begin, end;
    bool source_spikes_once;  ///< the source lists each neuron at most once a step, as a spike
    cpu_isa isa;
};

/// One kind: its name, the connectors it runs and how it is built.
struct structured_row {
    const char* name;
    bool (*runs)(const connector&);
    structured_state (*make)(const structured_build&);
};

/// Every row, registered once (structured_factory.cpp).
std::span<const structured_row> structured_rows();

/// The structured projection of build.index, or internal_error when no row runs its connector
/// (the lowering sends only structured connectors here, is_structured()).
structured_state make_structured(const structured_build& build);

}  // namespace volley::snn::detail
