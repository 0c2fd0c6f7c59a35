// The Potjans-Diesmann cortical microcircuit (standard_networks.hpp). The numbers are the
// model's (Potjans & Diesmann 2014, Cereb. Cortex 24:785), in the form of NEST's example
// pynest/examples/Potjans_2014 (network_params.py, network.py, helpers.py), which the scaling
// rules follow.

#include <volley/error.hpp>
#include <volley/snn/standard_networks.hpp>

#include <cmath>
#include <string>

#include "model/format_number.hpp"

namespace volley::snn {

namespace {

constexpr int pops = 8;
constexpr std::array<const char*, pops> names = {"L23E", "L23I", "L4E", "L4I", "L5E", "L5I", "L6E", "L6I"};
constexpr std::array<double, pops> full_neurons = {20683, 5834, 21915, 5479, 4850, 1065, 14395, 2948};
constexpr std::array<double, pops> full_rates_hz = {0.943, 3.026, 4.368, 5.882, 7.733, 8.664, 1.096, 7.851};
/// Connection probabilities [target][source].
constexpr double conn_probs[pops][pops] = {
    {0.1009, 0.1689, 0.0437, 0.0818, 0.0323, 0., 0.0076, 0.},
    {0.1346, 0.1371, 0.0316, 0.0515, 0.0755, 0., 0.0042, 0.},
    {0.0077, 0.0059, 0.0497, 0.135, 0.0067, 0.0003, 0.0453, 0.},
    {0.0691, 0.0029, 0.0794, 0.1597, 0.0033, 0., 0.1057, 0.},
    {0.1004, 0.0622, 0.0505, 0.0057, 0.0831, 0.3726, 0.0204, 0.},
    {0.0548, 0.0269, 0.0257, 0.0022, 0.06, 0.3158, 0.0086, 0.},
    {0.0156, 0.0066, 0.0211, 0.0166, 0.0572, 0.0197, 0.0396, 0.2252},
    {0.0364, 0.001, 0.0034, 0.0005, 0.0277, 0.008, 0.0658, 0.1443}};
constexpr std::array<double, pops> k_ext = {1600, 1500, 2100, 1900, 2000, 1900, 2900, 2100};
constexpr std::array<double, pops> v0_mean_mv = {-68.28, -63.16, -63.33, -63.45, -63.11, -61.66, -66.72, -61.43};
constexpr std::array<double, pops> v0_sd_mv = {5.36, 4.57, 4.74, 4.94, 4.94, 4.55, 5.46, 4.48};
constexpr double c_m_pf = 250, tau_m_ms = 10, tau_syn_ms = 0.5, psp_exc_mv = 0.15, g = -4, bg_rate_hz = 8;
constexpr double weight_rel_sd = 0.1, delay_exc_ms = 1.5, delay_inh_ms = 0.75, delay_rel_sd = 0.5, delay_drive_ms = 1.5;

/// The peak current [pA] of an exponential PSC whose PSP on the neuron at rest peaks at 1 mV.
double psc_per_psp() {
    const double sub = 1 / (tau_syn_ms - tau_m_ms), pre = tau_m_ms * tau_syn_ms / c_m_pf * sub;
    const double frac = std::pow(tau_m_ms / tau_syn_ms, sub);
    return 1 / (pre * (std::pow(frac, tau_m_ms) - std::pow(frac, tau_syn_ms)));
}

/// Synapses between full-scale populations for a connection probability p (the expected number
/// of distinct pairs is p·N_pre·N_post when drawn with replacement).
double full_synapses(int target, int source) {
    const double prod = full_neurons[target] * full_neurons[source];
    return std::log(1 - conn_probs[target][source]) / std::log((prod - 1) / prod);
}

/// Rounds to the nearest integer, halves to even, as NumPy's np.round in NEST's example (its
/// neuron counts at scale 0.1 have halves: 1,065 × 0.1 gives 106 neurons in L5I).
double round_half_even(double x) { return std::nearbyint(x); }

}  // namespace

std::array<const char*, 8> microcircuit_populations() { return names; }

std::array<double, 8> microcircuit_full_scale_rates_hz() { return full_rates_hz; }

network microcircuit_network(const microcircuit_options& o) {
    for (auto [value, name] : {std::pair{o.scale, "scale"}, std::pair{o.in_degree_scale, "in_degree_scale"}})
        if (!(value > 0 && value <= 1))
            throw invalid_parameter("microcircuit network", name, detail::format_number(value), "must lie in (0, 1]");
    if (!(o.dt_ms > 0 && o.dt_ms <= 0.75))  // the inhibitory delays' mean is 0.75 ms
        throw invalid_parameter("microcircuit network", "dt_ms", detail::format_number(o.dt_ms), "must lie in (0, 0.75]");
    const double r_gohm = tau_m_ms / c_m_pf;  // mV per pA: Volley's weights and currents are R·I
    const double w_pa = psp_exc_mv * psc_per_psp(), k = o.in_degree_scale, sqrt_k = std::sqrt(k);

    // The mean background current [pA] (DC drive), and with in_degree_scale < 1 the part of the
    // recurrent and external mean input that the weaker, sparser synapses no longer carry
    // (NEST's adjust_weights_and_input_to_synapse_scaling, with the full-scale rates).
    std::array<double, pops> dc_pa{};
    for (int i = 0; i < pops; ++i) {
        if (!o.poisson_drive) dc_pa[i] = bg_rate_hz * k_ext[i] * w_pa * tau_syn_ms * 0.001;
        if (k == 1) continue;
        double input_rec = 0;
        for (int j = 0; j < pops; ++j) {
            const double w_ij = w_pa * (j % 2 == 0 ? 1 : g) * (i == 0 && j == 2 ? 2 : 1);
            input_rec += w_ij * full_synapses(i, j) / full_neurons[i] * full_rates_hz[j];
        }
        dc_pa[i] += 0.001 * tau_syn_ms * (1 - sqrt_k) * input_rec;
        if (o.poisson_drive) dc_pa[i] += 0.001 * tau_syn_ms * (1 - sqrt_k) * w_pa * k_ext[i] * bg_rate_hz;
    }

    network net;
    std::array<population_index, pops> pop{};
    for (int i = 0; i < pops; ++i) {
        const auto n = static_cast<std::uint32_t>(round_half_even(full_neurons[i] * o.scale));
        if (n == 0)
            throw invalid_parameter("microcircuit network", "scale", detail::format_number(o.scale),
                                    std::string("leaves population ") + names[i] + " empty");
        const lif_exp model{{.tau_m_ms = tau_m_ms, .tau_syn_e_ms = tau_syn_ms, .tau_syn_i_ms = tau_syn_ms,
                             .v_rest_mv = -65, .v_reset_mv = -65, .v_thresh_mv = -50, .t_ref_ms = 2,
                             .i_e_mv = dc_pa[i] * r_gohm}};
        pop[i] = net.add_population(names[i], n, model);
        net.initialise(pop[i], "v_mv", normal{v0_mean_mv[i], v0_sd_mv[i]});
    }
    const double w_scaled_mv = w_pa * r_gohm / sqrt_k;
    for (int i = 0; i < pops; ++i)
        for (int j = 0; j < pops; ++j) {
            const auto count = static_cast<std::uint64_t>(round_half_even(full_synapses(i, j) * o.scale * k));
            if (count == 0) continue;
            const bool exc = j % 2 == 0;
            const double w = w_scaled_mv * (exc ? 1 : g) * (i == 0 && j == 2 ? 2 : 1);
            const double d = exc ? delay_exc_ms : delay_inh_ms;
            normal weight{w, std::abs(w) * weight_rel_sd};
            (exc ? weight.low : weight.high) = 0;
            net.connect(pop[j], pop[i], fixed_total_number{count, true},
                        {.weight = weight,
                         .delay_ms = normal{d, d * delay_rel_sd, 0.5 * o.dt_ms},
                         .receptor = exc ? excitatory : inhibitory});
        }
    if (o.poisson_drive)
        for (int i = 0; i < pops; ++i) {
            const double rate = bg_rate_hz * round_half_even(k_ext[i] * k);
            const auto drive = net.add_population(std::string("drive_") + names[i], net.at(pop[i]).size,
                                                  poisson_source{{.rate_hz = rate}});
            net.connect(drive, pop[i], one_to_one{},
                        {.weight = w_scaled_mv, .delay_ms = delay_drive_ms, .receptor = excitatory});
        }
    return net;
}

}  // namespace volley::snn
