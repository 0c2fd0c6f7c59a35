// Standard benchmark networks.

#include <volley/error.hpp>
#include <volley/snn/standard_networks.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "model/format_number.hpp"

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

namespace {

// hpc_benchmark.py's constants: the neuron (iaf_psc_alpha) and the wiring.
constexpr double hpc_c_m_pf = 250, hpc_tau_m_ms = 10, hpc_tau_syn_ms = 0.32582722403722841;
constexpr double hpc_je_mv = 0.14, hpc_g = -5, hpc_eta = 1.685, hpc_delay_ms = 1.5;

/// The PSP [mV] at time t [ms] of a unit-peak (1 pA) alpha current on the hpc neuron at rest
/// (the closed form hpc_benchmark.py maximises).
double unit_alpha_psp(double t) {
    const double b = 1 / hpc_tau_syn_ms - 1 / hpc_tau_m_ms;
    return std::numbers::e / (hpc_tau_syn_ms * hpc_c_m_pf * b) *
           ((std::exp(-t / hpc_tau_m_ms) - std::exp(-t / hpc_tau_syn_ms)) / b - t * std::exp(-t / hpc_tau_syn_ms));
}

}  // namespace

double hpc_benchmark_je_pa() {
    // The PSP is unimodal: a golden-section search for its peak (hpc_benchmark.py uses the
    // closed form of the peak time through Lambert's W; both give t_rise = 1.7008 ms).
    double a = 0, b = 10 * hpc_tau_m_ms;
    const double r = (std::sqrt(5.0) - 1) / 2;
    for (int k = 0; k < 200; ++k) {
        const double x1 = b - r * (b - a), x2 = a + r * (b - a);
        if (unit_alpha_psp(x1) < unit_alpha_psp(x2)) a = x1;
        else b = x2;
    }
    return hpc_je_mv / unit_alpha_psp((a + b) / 2);
}

network hpc_benchmark_network(const hpc_benchmark_options& o) {
    if (!(o.scale > 0) || !std::isfinite(o.scale) || o.scale * 11250 > 4e9)
        throw invalid_parameter("hpc_benchmark network", "scale", detail::format_number(o.scale), "must be > 0 and at most 355,000");
    if (!(o.in_degree_scale > 0 && o.in_degree_scale <= 1))
        throw invalid_parameter("hpc_benchmark network", "in_degree_scale", detail::format_number(o.in_degree_scale),
                                "must lie in (0, 1]");
    // As hpc_benchmark.py computes them (int() truncates).
    const auto n_e = static_cast<std::uint32_t>(9000 * o.scale), n_i = static_cast<std::uint32_t>(2250 * o.scale);
    if (n_e < 2 || n_i < 2)
        throw invalid_parameter("hpc_benchmark network", "scale", detail::format_number(o.scale), "gives fewer than 2 neurons per population");
    const auto c_e = static_cast<std::uint32_t>(static_cast<std::uint32_t>(n_e / o.scale) * o.in_degree_scale);
    const auto c_i = static_cast<std::uint32_t>(static_cast<std::uint32_t>(n_i / o.scale) * o.in_degree_scale);
    const lif_alpha model{{.tau_m_ms = hpc_tau_m_ms, .tau_syn_e_ms = hpc_tau_syn_ms, .tau_syn_i_ms = hpc_tau_syn_ms,
                           .v_rest_mv = 0, .v_reset_mv = 0, .v_thresh_mv = 20, .t_ref_ms = 0.5, .i_e_mv = 0}};
    const double r_gohm = hpc_tau_m_ms / hpc_c_m_pf;  // mV per pA: weights are R·I
    const double je_pa = hpc_benchmark_je_pa(), j_e = je_pa * r_gohm, j_i = hpc_g * j_e;
    // The threshold rate of hpc_benchmark.py [1/ms per input], for the full in-degree C_E.
    const double c_e_full = static_cast<std::uint32_t>(n_e / o.scale);
    const double nu_thresh = 20 / (c_e_full * r_gohm * je_pa * std::numbers::e * hpc_tau_syn_ms);
    const double drive_hz = hpc_eta * nu_thresh * c_e_full * 1000;

    network net;
    const auto e = net.add_population("E", n_e, model);
    const auto i = net.add_population("I", n_i, model);
    for (auto pop : {e, i}) net.initialise(pop, "v_mv", normal{5.7, 7.2});
    const auto drive_e = net.add_population("drive_E", n_e, poisson_source{{.rate_hz = drive_hz}});
    const auto drive_i = net.add_population("drive_I", n_i, poisson_source{{.rate_hz = drive_hz}});
    net.connect(drive_e, e, one_to_one{}, {.weight = j_e, .delay_ms = hpc_delay_ms, .receptor = excitatory});
    net.connect(drive_i, i, one_to_one{}, {.weight = j_e, .delay_ms = hpc_delay_ms, .receptor = excitatory});
    // NEST's stdp_pl_synapse_hom in pA: dw+ = lambda·w^mu·K+, dw- = -lambda·alpha·w·K-. With
    // weights in mV (w_mV = R·w_pA), dw+_mV = lambda·R^(1 - mu)·w_mV^mu·K+.
    const double lambda = 0.1, alpha = 0.0513, mu = 0.4;
    plasticity_rule stdp{};
    if (o.plastic)
        stdp = stdp_pair{.tau_plus_ms = 15, .tau_minus_ms = 30, .a_plus = lambda * std::pow(r_gohm, 1 - mu),
                         .a_minus = lambda * alpha, .w_min = 0, .w_max = 100 * j_e,
                         .dependence = stdp_weight_dependence::power_law, .pairing = stdp_pairing::all_to_all,
                         .mu = mu, .dendritic_delay_ms = hpc_delay_ms};  // NEST: the whole delay is dendritic
    const fixed_in_degree from_e{c_e, false, true}, from_i{c_i, false, true};
    net.connect(e, e, from_e, {.weight = j_e, .delay_ms = hpc_delay_ms, .receptor = excitatory, .plasticity = stdp});
    net.connect(i, e, from_i, {.weight = j_i, .delay_ms = hpc_delay_ms, .receptor = inhibitory});
    net.connect(e, i, from_e, {.weight = j_e, .delay_ms = hpc_delay_ms, .receptor = excitatory});
    net.connect(i, i, from_i, {.weight = j_i, .delay_ms = hpc_delay_ms, .receptor = inhibitory});
    return net;
}

}  // namespace volley::snn
