// Standard benchmark networks.

#include <volley/error.hpp>
#include <volley/snn/standard_networks.hpp>

#include <algorithm>

namespace volley::snn {

network cuba_network(std::uint32_t neurons, double dt_ms) {
    if (neurons < 10)
        throw invalid_parameter("CUBA network", "neurons", std::to_string(neurons), "must be >= 10");
    const lif_exp model{{.tau_m_ms = 20, .tau_syn_e_ms = 5, .tau_syn_i_ms = 10, .v_rest_mv = -49,
                         .v_reset_mv = -60, .v_thresh_mv = -50, .t_ref_ms = 5, .i_e_mv = 0}};
    const auto n_exc = static_cast<std::uint32_t>(neurons * 4ull / 5);
    network net;
    const auto exc = net.add_population("exc", n_exc, model);
    const auto inh = net.add_population("inh", neurons - n_exc, model);
    for (auto pop : {exc, inh}) net.initialise(pop, "v_mv", uniform{-60, -50});
    const fixed_probability prob{std::min(1.0, 80.0 / neurons), true};
    const double w_e = 60 * 0.27 / 10, w_i = -20 * 4.5 / 10;
    for (auto target : {exc, inh}) {
        net.connect(exc, target, prob, {.weight = w_e, .delay_ms = dt_ms, .receptor = excitatory});
        net.connect(inh, target, prob, {.weight = w_i, .delay_ms = dt_ms, .receptor = inhibitory});
    }
    return net;
}

namespace {

/// The 80/20 wiring of COBA and COBAHH with conductance jumps [nS] and the review's initial state.
network conductance_network(const char* what, std::uint32_t neurons, double dt_ms, const neuron_model& model) {
    if (neurons < 10) throw invalid_parameter(what, "neurons", std::to_string(neurons), "must be >= 10");
    const auto n_exc = static_cast<std::uint32_t>(neurons * 4ull / 5);
    network net;
    const auto exc = net.add_population("exc", n_exc, model);
    const auto inh = net.add_population("inh", neurons - n_exc, model);
    for (auto pop : {exc, inh}) {
        net.initialise(pop, "v_mv", normal{-65, 5});
        net.initialise(pop, "g_e_ns", normal{40, 15});
        net.initialise(pop, "g_i_ns", normal{200, 120});
    }
    const fixed_probability prob{std::min(1.0, 80.0 / neurons), true};
    for (auto target : {exc, inh}) {
        net.connect(exc, target, prob, {.weight = 6.0, .delay_ms = dt_ms, .receptor = excitatory});
        net.connect(inh, target, prob, {.weight = 67.0, .delay_ms = dt_ms, .receptor = inhibitory});
    }
    return net;
}

}  // namespace

network coba_network(std::uint32_t neurons, double dt_ms) {
    lif_cond_exp model;
    model.p = {.c_m_pf = 200, .g_l_ns = 10, .e_l_mv = -60, .v_reset_mv = -60, .v_thresh_mv = -50, .t_ref_ms = 5,
               .e_ex_mv = 0, .e_in_mv = -80, .tau_syn_e_ms = 5, .tau_syn_i_ms = 10, .i_e_pa = 0};
    return conductance_network("COBA network", neurons, dt_ms, model);
}

network cobahh_network(std::uint32_t neurons, double dt_ms) {
    auto net = conductance_network("COBAHH network", neurons, dt_ms, hh{});
    for (const char* pop : {"exc", "inh"})
        for (const char* gate : {"m", "n", "h"}) net.initialise(net.find(pop), gate, 0.0);
    return net;
}

}  // namespace volley::snn
