#pragma once
// The one interface every CPU population kernel offers the engine. The engine holds the kernels
// in a variant (population_factory.hpp) and reaches each through this interface only, so a new
// neuron model that needs a new kernel adds a class that satisfies population_kernel_model and
// a factory row; the engine's step, delivery planning, recording and reset do not change.

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

/// How a kernel reads the integer ring cells its projections fill.
enum class kernel_input {
    none,           ///< spike sources: they take no input, and the engine clears what reaches them
    touched_list,   ///< only the neurons on the step's touched list (repeats allowed)
    every_cell,     ///< every cell of its range, each step (discrete neurons)
};

/// What the engine hands a kernel for one step of one thread's range of neurons.
struct population_step {
    int thread = 0;                          ///< the caller's index in the thread team
    std::int64_t s = 0;                      ///< the step being taken
    std::uint32_t begin = 0, end = 0;        ///< local neurons [begin, end) of this thread
    std::int64_t* cells = nullptr;           ///< ring cells [neuron][receptor] of local neuron 0
    std::span<const std::uint32_t> touched;  ///< neurons with input (touched_list kernels)
    std::int64_t shift = 0;                  ///< local index = touched[k] + shift
    double scale_e = 0, scale_i = 0;         ///< fixed point -> input units, per receptor
    bool inhibitory = true;                  ///< false when no projection reaches receptor 1
    bool fed = true;                         ///< false when no projection reaches the population
    /// When not null, the excitatory input of local neuron i is sums[i] · 2^sums_shift instead of
    /// its cell: a zero-delay convolution read in place (only for a kernel whose reads_sums()).
    const std::int32_t* sums = nullptr;
    std::uint32_t sums_shift = 0;
};

/// A population kernel: its input kind; one step; its dynamic state for checkpoints; and the
/// sampling of its state variables (unknown_name for one it lacks).
template <class K>
concept population_kernel_model =
    requires(K& k, const K& ck, const population_step& st, std::vector<std::uint32_t>& spikes, state_archive& a,
             const std::string& variable, std::span<const std::uint32_t> ids, std::vector<double>& values) {
        { ck.input() } -> std::convertible_to<kernel_input>;
        k.step(st, spikes);
        k.visit_state(a);
        ck.sample_state(variable, st.s, ids, values);
    };

/// Throws unknown_name for `variable` of population `population`, a spike source.
[[noreturn]] void throw_no_state(const std::string& population, const std::string& variable);

/// Appends the values of `column` at `ids` (the sampling of kernels whose state is stored as is).
inline void append_column(const std::vector<double>& column, std::span<const std::uint32_t> ids,
                          std::vector<double>& values) {
    for (const std::uint32_t i : ids) values.push_back(column[i]);
}

}  // namespace volley::snn::detail
