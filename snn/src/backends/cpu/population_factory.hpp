#pragma once
// The CPU backend's population kernels and their factory (Arbor's cell_group_factory): one row
// per kernel, naming the models it runs and how it is built. A model no row takes is refused
// with unsupported_model naming the model and the backend, never run by a wrong kernel. Adding
// a neuron model is its parameter struct and dynamics (docs/adding-a-model.md) and, for a model
// no kernel runs yet, a kernel class (population_kernel.hpp), its alternative in
// population_state and a row here; the engine reaches kernels through that interface only.

#include <volley/snn/network.hpp>

#include <cstdint>
#include <span>
#include <variant>

#include "backends/cpu/analog_population.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/discrete_population.hpp"
#include "backends/cpu/lif_population.hpp"
#include "backends/cpu/ode_population.hpp"
#include "backends/cpu/source_population.hpp"
#include "lowering/model_family.hpp"

namespace volley::snn::detail {

/// Every kernel the CPU engine runs, one per population.
using population_state =
    std::variant<lif_population, source_population, discrete_population, analog_population, ode_population>;

template <class V>
inline constexpr bool all_kernels = false;
template <class... K>
inline constexpr bool all_kernels<std::variant<K...>> = (population_kernel_model<K> && ...);
static_assert(all_kernels<population_state>, "every alternative offers the kernel interface (population_kernel.hpp)");

/// What a kernel is built with besides its population.
struct population_build {
    double dt_ms = 0.1;
    std::uint64_t seed = 0;
    int threads = 1;
    cpu_isa isa = cpu_isa::baseline;
};

/// One kernel: its name, the model family it runs (lowering/model_family.hpp) and how it is built.
struct kernel_row {
    const char* name;
    model_family family;
    population_state (*make)(const network&, population_index, const population_build&);
};

/// Every row, registered once.
std::span<const kernel_row> kernel_rows();

/// The kernel of population `pop`: the row that runs its model's family. Throws unsupported_model naming the
/// model and the population when none does.
population_state make_population_kernel(const network& net, population_index pop, const population_build& build);

}  // namespace volley::snn::detail
