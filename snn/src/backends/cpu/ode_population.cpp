// The ODE population: the facade and the choice of the model's dynamics (see ode_population.hpp).

#include "backends/cpu/ode_population.hpp"

#include <type_traits>

#include "backends/cpu/ode/adex_dynamics.hpp"
#include "backends/cpu/ode/hh_dynamics.hpp"
#include "backends/cpu/ode/izhikevich_dynamics.hpp"
#include "backends/cpu/ode/lif_cond_dynamics.hpp"
#include "backends/cpu/ode/adaptive_kernel.hpp"
#include "backends/cpu/ode/fixed_step_kernel.hpp"

namespace volley::snn::detail {

void check_conductance_weights(const network& net, population_index pop) {
    const auto& tgt = net.at(pop);
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        const auto& proj = net.projections()[q];
        if (proj.target != pop) continue;
        const std::string object = "projection " + std::to_string(q) + " ('" +
                                   net.at(proj.source).name + "' -> '" + tgt.name + "')";
        const std::string why =
            "a weight onto a " + model_name(tgt.model) +
            " population is a conductance jump and must be >= 0 nS (the receptor chooses "
            "excitatory or inhibitory)";
        const auto& w = proj.synapse.weight;
        if (const auto* c = std::get_if<double>(&w); c && !(*c >= 0))
            throw invalid_parameter(object, "weight", format_number(*c), why);
        if (const auto* l = std::get_if<std::vector<double>>(&w))
            for (std::size_t k = 0; k < l->size(); ++k)
                if (!((*l)[k] >= 0))
                    throw invalid_parameter(object, "weight[" + std::to_string(k) + "]",
                                            format_number((*l)[k]), why);
        if (const auto* u = std::get_if<uniform>(&w); u && !(u->low >= 0))
            throw invalid_parameter(object, "weight (uniform low bound)", format_number(u->low),
                                    why);
        if (const auto* n = std::get_if<normal>(&w); n && !(n->low >= 0))
            throw invalid_parameter(object, "weight", describe(w),
                                    why + "; a normal distribution can draw negative values: give it low = 0 "
                                          "(redrawn) or use a uniform one");
    }
}

namespace {

template <class Dyn, class Scheme>
concept scheme_for = requires(const step_constants<Dyn>& c, typename Dyn::state& x) {
    Scheme::template step<Dyn>(c, 0.0, false, x, 1.0);
};

/// The kernel of model Dyn with the population's scheme: chosen once, when the engine is built.
template <class Dyn>
std::unique_ptr<ode_population::kernel> make_kernel(const network& net, population_index pop,
                                                    double dt_ms, std::uint64_t seed) {
    const ode_scheme scheme = std::get<typename Dyn::model>(net.at(pop).model).integrator.scheme;
    std::unique_ptr<ode_population::kernel> k;
    auto fixed = [&]<class Scheme>(std::type_identity<Scheme>) {
        if constexpr (scheme_for<Dyn, Scheme>)
            if (Scheme::id == scheme) k = std::make_unique<fixed_step_kernel<Dyn, Scheme>>(net, pop, dt_ms, seed);
    };
    if (scheme == ode_scheme::adaptive) return std::make_unique<adaptive_kernel<Dyn>>(net, pop, dt_ms, seed);
    fixed(std::type_identity<rk4_scheme>{});
    fixed(std::type_identity<rk2_scheme>{});
    fixed(std::type_identity<euler_scheme>{});
    fixed(std::type_identity<exponential_euler_scheme>{});
    fixed(std::type_identity<half_step_euler_scheme>{});
    if (k) return k;
    // validate_model accepted the scheme when the population was added; a declared scheme
    // without a kernel is a gap between model_schemes and the dynamics.
    throw unsupported_model(model_name(net.at(pop).model), "population '" + net.at(pop).name +
                                                               "': the CPU backend has no kernel for integrator '" +
                                                               scheme_name(scheme) + "'");
}

std::unique_ptr<ode_population::kernel> make_kernel(const network& net, population_index pop,
                                                    double dt_ms, std::uint64_t seed) {
    const auto& m = net.at(pop).model;
    if (std::holds_alternative<lif_cond_exp>(m)) return make_kernel<lif_cond_exp_dynamics>(net, pop, dt_ms, seed);
    if (std::holds_alternative<lif_cond_alpha>(m)) return make_kernel<lif_cond_alpha_dynamics>(net, pop, dt_ms, seed);
    if (std::holds_alternative<izhikevich>(m)) return make_kernel<izhikevich_dynamics>(net, pop, dt_ms, seed);
    if (std::holds_alternative<adex>(m)) return make_kernel<adex_dynamics>(net, pop, dt_ms, seed);
    if (std::holds_alternative<adex_alpha>(m)) return make_kernel<adex_alpha_dynamics>(net, pop, dt_ms, seed);
    if (std::holds_alternative<hh>(m)) return make_kernel<hh_dynamics>(net, pop, dt_ms, seed);
    throw unsupported_model(model_name(m),
                            "population '" + net.at(pop).name + "': not an ODE model");
}

}  // namespace

ode_population::ode_population(const network& net, population_index pop, double dt_ms,
                               std::uint64_t seed)
    : k_(make_kernel(net, pop, dt_ms, seed)), input_(k_->input()), after_update_(!k_->input_moves_v()) {}
ode_population::~ode_population() = default;
ode_population::ode_population(ode_population&&) noexcept = default;
ode_population& ode_population::operator=(ode_population&&) noexcept = default;

void ode_population::update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                            const step_input& in, std::vector<std::uint32_t>& spikes) {
    k_->update(s, begin, end, in, spikes);
}
void ode_population::apply_currents(std::int64_t s, std::uint32_t begin, std::uint32_t end) {
    k_->apply_currents(s, begin, end);
}
void ode_population::refresh_currents(const network& net, population_index pop, std::uint64_t seed, std::int64_t s) {
    k_->refresh_currents(net, pop, seed, s);
}

void ode_population::refresh_parameters(const network& net, population_index pop, std::uint64_t seed) {
    k_->refresh_parameters(net, pop, seed);
}

bool ode_population::currents_change_at(std::int64_t s) const {
    return k_->currents_change_at(s);
}
const std::vector<double>& ode_population::state(const std::string& variable) const {
    return k_->state(variable);
}
double ode_population::last_spike_time_ms(std::uint32_t i) const {
    return k_->last_spike_time_ms(i);
}
std::uint32_t ode_population::size() const noexcept {
    return k_->size();
}

void ode_population::visit_state(state_archive& a) { k_->visit_state(a); }
void ode_population::set_isa(cpu_isa isa) { k_->set_isa(isa); }
void ode_population::add_uniform_input(std::uint32_t receptor, std::span<const std::uint32_t> offsets,
                                       std::int64_t shift, double w) {
    k_->add_uniform_input(receptor, offsets, shift, w);
}

}  // namespace volley::snn::detail
