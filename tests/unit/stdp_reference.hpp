#pragma once
// Independent implementations of the STDP rules for the tests, written from the papers' sums
// over spike pairs (not from traces), and a rig that makes chosen pre and post spikes happen.
//
// Conventions checked (docs/plasticity.md): Δt = t_post - t_pre of the somatic spike times;
// a pre and a post spike at the same time count as pre before post (potentiation); each
// spike's own contribution is excluded from the traces it reads (Pfister's t - ε).

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace stdp_test {

namespace vs = volley::snn;

/// Sum over earlier spikes of exp(-(t - t_k)/tau): all of them, or only the latest one.
inline double kernel_sum(const std::vector<double>& spikes, double t, double tau, bool inclusive, bool nearest) {
    double sum = 0, latest = -1;
    for (double tk : spikes) {
        if (tk > t || (!inclusive && tk == t)) continue;
        sum += std::exp(-(t - tk) / tau);
        latest = std::max(latest, tk);
    }
    if (nearest) return latest < 0 ? 0.0 : std::exp(-(t - latest) / tau);
    return sum;
}

/// Events in time order, pre before post at equal times.
template <class OnPre, class OnPost>
void for_each_event(const std::vector<double>& pre, const std::vector<double>& post, OnPre on_pre, OnPost on_post) {
    std::size_t i = 0, j = 0;
    std::vector<double> a = pre, b = post;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    while (i < a.size() || j < b.size()) {
        if (j == b.size() || (i < a.size() && a[i] <= b[j])) on_pre(a[i++]);
        else on_post(b[j++]);
    }
}

/// The pair rule (Song et al. 2000; van Rossum et al. 2000; Rubin et al. 2001 for soft bounds)
/// applied to one synapse; the post spikes count at t_post + r.dendritic_delay_ms.
inline double reference_pair(const vs::stdp_pair& r, const std::vector<double>& pre,
                             const std::vector<double>& somatic_post, double w) {
    const bool nearest = r.pairing == vs::stdp_pairing::nearest;
    std::vector<double> post = somatic_post;
    for (double& t : post) t += r.dendritic_delay_ms;
    const double span = r.w_max - r.w_min;
    for_each_event(
        pre, post,
        [&](double t) {
            double dep = r.a_minus * kernel_sum(post, t, r.tau_minus_ms, false, nearest);
            if (r.dependence == vs::stdp_weight_dependence::multiplicative ||
                r.dependence == vs::stdp_weight_dependence::soft_bounds)
                dep *= (w - r.w_min) / span;
            if (r.dependence == vs::stdp_weight_dependence::power_law) dep *= w;  // Morrison et al. 2007
            w = std::max(r.w_min, w - dep);
        },
        [&](double t) {
            double pot = r.a_plus * kernel_sum(pre, t, r.tau_plus_ms, true, nearest);
            if (r.dependence == vs::stdp_weight_dependence::power_law) pot *= std::pow(w, r.mu);
            if (r.dependence == vs::stdp_weight_dependence::soft_bounds) pot *= (r.w_max - w) / span;
            w = std::min(r.w_max, w + pot);
        });
    return w;
}

/// The triplet rule (Pfister & Gerstner 2006, eqs. 3-4) applied to one synapse.
inline double reference_triplet(const vs::stdp_triplet& r, const std::vector<double>& pre,
                                const std::vector<double>& post, double w) {
    const bool nearest = r.pairing == vs::stdp_pairing::nearest;
    for_each_event(
        pre, post,
        [&](double t) {
            const double o1 = kernel_sum(post, t, r.tau_minus_ms, false, nearest);
            const double r2 = kernel_sum(pre, t, r.tau_x_ms, false, nearest);
            w = std::max(r.w_min, w - o1 * (r.a2_minus + r.a3_minus * r2));
        },
        [&](double t) {
            const double r1 = kernel_sum(pre, t, r.tau_plus_ms, true, nearest);
            const double o2 = kernel_sum(post, t, r.tau_y_ms, false, nearest);
            w = std::min(r.w_max, w + r1 * (r.a2_plus + r.a3_plus * o2));
        });
    return w;
}

/// The outcome of a rig run: per synapse, the pre and post spike times [ms] and final weight.
struct rig_result {
    std::vector<std::vector<double>> pre_ms, post_ms;
    std::vector<double> weights;
    std::vector<std::uint32_t> targets;
};

/// n synapses, one per (pre source i -> post neuron i). Pre source i fires at pre_ms[i]; post
/// neuron i (lif_delta) fires about 0.1 ms after each time in drive_ms[i] (a 100 mV input with
/// a 0.1 ms delay). The plastic weight starts at w0 and is far too small to make spikes.
inline rig_result run_rig(const std::vector<std::vector<double>>& pre_ms,
                          const std::vector<std::vector<double>>& drive_ms, const vs::plasticity_rule& rule,
                          double w0, double duration_ms, int threads = 1) {
    const auto n = static_cast<std::uint32_t>(pre_ms.size());
    vs::network net;
    const auto pre = net.add_population("pre", n, vs::spike_source{pre_ms});
    const auto drive = net.add_population("drive", n, vs::spike_source{drive_ms});
    const auto post = net.add_population("post", n, vs::lif_delta{{.t_ref_ms = 1}});
    net.connect(drive, post, vs::one_to_one{}, {.weight = 100.0, .delay_ms = 0.1});
    const auto q = net.connect(pre, post, vs::one_to_one{}, {.weight = w0, .delay_ms = 0.1, .plasticity = rule});
    vs::simulation sim(net, vs::context{.threads = threads}, {.dt_ms = 0.1, .seed = 7});
    auto rpre = sim.record_spikes(pre);
    auto rpost = sim.record_spikes(post);
    sim.run(duration_ms);
    rig_result out;
    out.pre_ms.resize(n);
    out.post_ms.resize(n);
    const auto tp = rpre.times_ms(), tq = rpost.times_ms();
    for (std::size_t k = 0; k < rpre.size(); ++k) out.pre_ms[rpre.node_ids()[k]].push_back(tp[k]);
    for (std::size_t k = 0; k < rpost.size(); ++k) out.post_ms[rpost.node_ids()[k]].push_back(tq[k]);
    auto w = sim.weights(q);
    out.weights = std::move(w.weights);
    out.targets = std::move(w.targets);
    return out;
}

}  // namespace stdp_test
