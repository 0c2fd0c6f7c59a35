// The choice of direct input (see direct_inputs.hpp).

#include "lowering/direct_inputs.hpp"

#include <cmath>
#include <optional>

namespace volley::snn::detail {

namespace {
/// Whether a spike's input into a population of model m is a jump of a synaptic variable that
/// the engine may add after the population's update: the currents of lif_exp and lif_alpha
/// (not lif_delta, whose input is a jump of v), the conductances of the ODE models (not
/// izhikevich's, a jump of v that can reach v_peak at once).
bool takes_input_after_update(const neuron_model& m) {
    return std::holds_alternative<lif_exp>(m) || std::holds_alternative<lif_alpha>(m) ||
           (is_ode_model(m) && !std::holds_alternative<izhikevich>(m));
}
}  // namespace

std::vector<std::uint8_t> direct_pairs(const network& net, double dt_ms) {
    const std::size_t P = net.populations().size();
    struct pair_state {
        bool any = false, ok = true;
        double weight = 0;
        receptor_type receptor = receptor_type::excitatory;
    };
    std::vector<pair_state> pairs(P * P);
    for (const auto& q : net.projections()) {
        if (is_zero_delay(q.synapse)) continue;
        auto& st = pairs[std::size_t{q.source.value} * P + q.target.value];
        const auto* w = std::get_if<double>(&q.synapse.weight);
        const auto* d = std::get_if<double>(&q.synapse.delay_ms);
        const bool table_rule = !std::holds_alternative<convolution>(q.rule) && !std::holds_alternative<max_pool_gate>(q.rule);
        const bool fits = w && d && table_rule && !is_plastic(q.synapse.plasticity) && std::nearbyint(*d / dt_ms) == 1;
        if (!fits || (st.any && (st.weight != *w || st.receptor != q.synapse.receptor))) st.ok = false;
        if (!st.any && fits) {
            st.weight = *w;
            st.receptor = q.synapse.receptor;
        }
        st.any = true;
    }
    std::vector<std::uint8_t> direct(P * P, 0);
    for (std::size_t sp = 0; sp < P; ++sp)
        for (std::size_t tp = 0; tp < P; ++tp) {
            const auto& st = pairs[sp * P + tp];
            const auto& target = net.populations()[tp].model;
            direct[sp * P + tp] = st.any && st.ok && !std::holds_alternative<analog_source>(net.populations()[sp].model) &&
                                  takes_input_after_update(target);
        }
    // One weight per (target, receptor) among the direct pairs, or none of them goes direct.
    for (std::size_t tp = 0; tp < P; ++tp)
        for (const auto r : {receptor_type::excitatory, receptor_type::inhibitory}) {
            std::optional<double> w;
            bool agree = true;
            for (std::size_t sp = 0; sp < P; ++sp)
                if (direct[sp * P + tp] && pairs[sp * P + tp].receptor == r) {
                    if (w && *w != pairs[sp * P + tp].weight) agree = false;
                    w = pairs[sp * P + tp].weight;
                }
            if (agree) continue;
            for (std::size_t sp = 0; sp < P; ++sp)
                if (pairs[sp * P + tp].receptor == r) direct[sp * P + tp] = 0;
        }
    return direct;
}

}  // namespace volley::snn::detail
