#pragma once
// Runtime state of one analog_source population: a table of values per step. Each step the
// neurons with a non-zero value are listed like spikes, and the delivery multiplies each
// synapse's fixed-point weight by the value (cpu_engine::deliver), so the input goes through
// the same integer ring buffer as spikes and sums identically on any number of threads.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <volley/snn/network.hpp>
#include "backends/cpu/population_kernel.hpp"
#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

class analog_population {
public:
    analog_population(const network& net, population_index pop);

    static constexpr kernel_input input() { return kernel_input::none; }

    /// One step (population_kernel.hpp): update().
    void step(const population_step& st, std::vector<std::uint32_t>& spikes) const {
        update(st.s, st.begin, st.end, spikes);
    }
    /// Throws unknown_name: an input table has no state variables.
    void sample_state(const std::string& variable, std::int64_t, std::span<const std::uint32_t>,
                      std::vector<double>&) const {
        throw_no_state(name_, variable);
    }

    /// Appends the local indices of neurons [begin, end) whose value at step `s` is non-zero.
    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end, std::vector<std::uint32_t>& spikes) const;

    /// The value of neuron `i` at step `s` (0 after the table ends).
    double value(std::int64_t s, std::uint32_t i) const noexcept {
        return s >= 0 && static_cast<std::size_t>(s) < values_.size() ? values_[static_cast<std::size_t>(s)][i] : 0.0;
    }

    /// Replaces the table (already validated against the population).
    void set_values(std::vector<std::vector<double>> values) { values_ = std::move(values); }

    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp).
    void visit_state(state_archive& a) { a.field("values", values_); }

    std::uint32_t size() const noexcept { return n_; }

private:
    std::uint32_t n_ = 0;
    std::string name_;
    std::vector<std::vector<double>> values_;
};

}  // namespace volley::snn::detail
