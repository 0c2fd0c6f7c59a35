#pragma once
// What every scheme of an ODE population shares (see ode_population.hpp): the kernel
// interface, the per-neuron parameters, the state as one column per variable, the stimulus
// currents, and the input that arrives at the end of a step. The schemes derive from
// ode_columns<Dyn>: adaptive_kernel.hpp and fixed_step_kernel.hpp.

#include <volley/error.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "backends/cpu/current_schedule.hpp"
#include "backends/cpu/ode_population.hpp"
#include "build/neuron_model_of.hpp"

namespace volley::snn::detail {

class ode_population::kernel {
  public:
    virtual ~kernel() = default;
    virtual void update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                        const step_input& in, std::vector<std::uint32_t>& spikes) = 0;
    virtual void apply_currents(std::int64_t s, std::uint32_t begin, std::uint32_t end) = 0;
    virtual bool currents_change_at(std::int64_t s) const = 0;
    virtual void refresh_currents(const network& net, population_index pop, std::uint64_t seed, std::int64_t s) = 0;
    /// The population's parameters changed in `net` (simulation::set_parameter): they hold from
    /// the next step on; the state is kept.
    virtual void refresh_parameters(const network& net, population_index pop, std::uint64_t seed) = 0;
    virtual const std::vector<double>& state(const std::string& variable) const = 0;
    virtual double last_spike_time_ms(std::uint32_t i) const = 0;
    virtual std::uint32_t size() const = 0;
    virtual void visit_state(state_archive& a) = 0;
    /// The instruction set of the kernels that have a compiled variant per set (cpu_isa.hpp).
    virtual void set_isa(cpu_isa) {}
    /// How update() takes the step's input: the touched list, or every ring cell.
    virtual kernel_input input() const { return kernel_input::touched_list; }
    virtual bool input_moves_v() const = 0;
    virtual void add_uniform_input(std::uint32_t receptor, std::span<const std::uint32_t> offsets,
                                   std::int64_t shift, double w) = 0;
};

/// Throws invalid_parameter when a projection onto conductance-based population `pop` can
/// carry a negative weight (a conductance jump must be >= 0 nS).
void check_conductance_weights(const network& net, population_index pop);

template <class Dyn>
class ode_columns : public ode_population::kernel {
  public:
    using params = typename Dyn::params;
    using state_t = typename Dyn::state;
    static constexpr std::size_t dim = Dyn::dim;

    ode_columns(const network& net, population_index pop, double dt_ms, std::uint64_t seed)
        : currents_(net, pop, dt_ms, seed) {
        const auto& p = net.at(pop);
        n_ = p.size;
        name_ = p.name;
        h_ = dt_ms;
        integrator_ = std::get<typename Dyn::model>(p.model).integrator;
        if constexpr (Dyn::conductance_input) check_conductance_weights(net, pop);
        params_ = load_params(net, pop, seed);
        names_ = model_state_variables(p.model);
        x_.assign(dim, std::vector<double>(n_));
        for (std::uint32_t i = 0; i < n_; ++i) store(i, Dyn::initial(param(i)));
        for (const auto& [var, spec] : p.initial_values) {
            const auto k =
                static_cast<std::size_t>(std::find_if(names_.begin(), names_.end(),
                                                      [&var = var](const char* v) { return var == v; }) -
                                         names_.begin());
            for (std::uint32_t i = 0; i < n_; ++i)
                x_[k][i] =
                    draw_neuron_value(spec, seed, pop.value, static_cast<std::uint32_t>(64 + k), i);
        }
        i_ext_.assign(n_, 0.0);
        last_spike_.assign(n_, -std::numeric_limits<double>::infinity());
        if (!currents_.empty()) currents_.amplitudes_at(0, 0, n_, i_ext_);
    }

    void apply_currents(std::int64_t s, std::uint32_t begin, std::uint32_t end) override {
        currents_.amplitudes_at(s, begin, end, i_ext_);
    }
    bool currents_change_at(std::int64_t s) const override { return currents_.changes_at(s); }
    void refresh_parameters(const network& net, population_index pop, std::uint64_t seed) override {
        params_ = load_params(net, pop, seed);
    }
    void refresh_currents(const network& net, population_index pop, std::uint64_t seed, std::int64_t s) override {
        currents_ = current_schedule(net, pop, h_, seed);
        currents_.amplitudes_at(s, 0, n_, i_ext_);
    }

    const std::vector<double>& state(const std::string& variable) const override {
        for (std::size_t k = 0; k < names_.size(); ++k)
            if (variable == names_[k]) return x_[k];
        throw unknown_name("state variable", variable, "population '" + name_ + "'");
    }
    double last_spike_time_ms(std::uint32_t i) const override { return last_spike_[i]; }
    bool input_moves_v() const override { return Dyn::input_moves_v; }

    void add_uniform_input(std::uint32_t receptor, std::span<const std::uint32_t> offsets, std::int64_t shift,
                           double w) override {
        // One event's jump, from a zero state: x + jump[k] has the bits of Dyn::add_input on x.
        const auto jump = [&](const params& p) {
            state_t d{};
            Dyn::add_input(p, d, receptor == 0 ? w : 0.0, receptor == 0 ? 0.0 : w);
            return d;
        };
        if (!uniform_params()) {
            for (const std::uint32_t off : offsets) {
                const auto i = static_cast<std::size_t>(off + shift);
                const state_t d = jump(params_[i]);
                for (std::size_t k = 0; k < dim; ++k)
                    if (d[k] != 0) x_[k][i] += d[k];
            }
            return;
        }
        const state_t d = jump(params_[0]);
        for (std::size_t k = 0; k < dim; ++k) {
            if (d[k] == 0) continue;
            double* column = x_[k].data() + shift;
            const double dk = d[k];
            for (const std::uint32_t off : offsets) column[off] += dk;
        }
    }
    std::uint32_t size() const override { return n_; }

  protected:
    const params& param(std::uint32_t i) const {
        return params_.size() == 1 ? params_[0] : params_[i];
    }
    bool uniform_params() const { return params_.size() == 1; }
    /// Whether a current source drives the population (else its i_ext stays 0).
    bool has_currents() const { return !currents_.empty(); }
    /// "population 'p' neuron i", for errors.
    std::string object(std::size_t i) const {
        return "population '" + name_ + "' neuron " + std::to_string(i);
    }

    state_t load(std::uint32_t i) const {
        state_t x;
        for (std::size_t k = 0; k < dim; ++k) x[k] = x_[k][i];
        return x;
    }
    void store(std::uint32_t i, const state_t& x) {
        for (std::size_t k = 0; k < dim; ++k) x_[k][i] = x[k];
    }

    /// Adds the input that arrives at the end of step s and clears its ring cells. Where the
    /// input moves v to or past the spike level (Dyn::input_moves_v) and `may_fire(i)`, the
    /// neuron fires at the step's end: `fire(i, x)` resets it and the spike is appended.
    template <class MayFire, class Fire>
    void add_input(std::int64_t s, const ode_population::step_input& in,
                   std::vector<std::uint32_t>& spikes, MayFire&& may_fire, Fire&& fire) {
        const std::size_t first = spikes.size();
        bool unsorted = false;
        for (const std::uint32_t k : in.touched) {
            const auto i = static_cast<std::uint32_t>(k + in.shift);
            std::int64_t* cell = in.cells + 2 * std::size_t{i};
            const double w_e = static_cast<double>(cell[0]) * in.scale_e;
            const double w_i = static_cast<double>(cell[1]) * in.scale_i;
            cell[0] = 0;
            cell[1] = 0;
            if (w_e == 0 && w_i == 0) continue;
            state_t x = load(i);
            Dyn::add_input(param(i), x, w_e, w_i);
            if constexpr (Dyn::input_moves_v) {
                if (may_fire(i) && x[0] >= Dyn::spike_level(param(i))) {
                    fire(i, x);
                    last_spike_[i] = static_cast<double>(s + 1) * h_;
                    spikes.push_back(i);
                    unsorted = true;
                }
            }
            store(i, x);
        }
        if (unsorted) std::sort(spikes.begin() + static_cast<std::ptrdiff_t>(first), spikes.end());
    }

    /// The model's parameters: one set, or one per neuron (the population's values, drawn from
    /// the neuron-value streams as every model draws them).
    static std::vector<params> load_params(const network& net, population_index pop, std::uint64_t seed) {
        const auto& p = net.at(pop);
        std::vector<params> out;
        if (p.parameters.empty()) {
            out.push_back(std::get<typename Dyn::model>(p.model).p);
            return out;
        }
        const std::string object = "population '" + p.name + "'";
        out.reserve(p.size);
        for (std::uint32_t i = 0; i < p.size; ++i)
            out.push_back(std::get<typename Dyn::model>(neuron_model_of(p, pop, seed, i, object)).p);
        return out;
    }

    std::uint32_t n_ = 0;
    std::string name_;
    double h_ = 0;
    ode_integrator integrator_;
    current_schedule currents_;
    std::vector<params> params_;          ///< one, or one per neuron
    std::span<const char* const> names_;  ///< state variable names, in Dyn's state order
    std::vector<std::vector<double>> x_;  ///< [variable][neuron]
    std::vector<double> i_ext_;           ///< stimulus current of each neuron (model units)
    std::vector<double> last_spike_;      ///< [ms]
};

}  // namespace volley::snn::detail
