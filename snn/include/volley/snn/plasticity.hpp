#pragma once
// Spike-timing-dependent plasticity rules for a projection (docs/plasticity.md).
//
// A projection is static unless its synapse_spec carries a rule. Weights are in the
// projection's weight units ([mV], like synapse_spec::weight) and stay within the hard bounds
// [w_min, w_max]. Spike times are the somatic spike times of the source and target neurons
// (the transmission delay does not enter Δt = t_post - t_pre), except that a pair rule may add
// a dendritic delay to the post spikes (stdp_pair::dendritic_delay_ms).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <volley/snn/value.hpp>

namespace volley::snn {

/// Which spikes pair with which.
enum class stdp_pairing : std::uint8_t {
    /// Every pre spike pairs with every post spike (traces add 1 per spike).
    all_to_all,
    /// Each spike pairs only with the nearest earlier spike of the other side (traces are
    /// reset to 1 per spike: the "symmetric nearest-neighbour" scheme of Morrison et al. 2008,
    /// and the nearest-spike model of Pfister & Gerstner 2006).
    nearest,
};

/// How the weight change depends on the weight itself (pair rule).
enum class stdp_weight_dependence : std::uint8_t {
    /// Song, Miller & Abbott 2000: Δw = +a_plus·x at a post spike, -a_minus·y at a pre spike.
    additive,
    /// van Rossum, Bi & Turrigiano 2000: potentiation additive (+a_plus·x), depression
    /// proportional to the weight: -a_minus·y·(w - w_min)/(w_max - w_min), so a_minus is the
    /// depression of a synapse at w_max.
    multiplicative,
    /// Rubin, Lee & Sompolinsky 2001 (soft bounds; NEST's stdp_synapse with mu_plus = mu_minus
    /// = 1, PyNN's MultiplicativeWeightDependence): both sides scale with the distance to
    /// their bound, +a_plus·x·(w_max - w)/(w_max - w_min) and -a_minus·y·(w - w_min)/(w_max - w_min).
    soft_bounds,
    /// Morrison, Aertsen & Diesmann 2007 (NEST's stdp_pl_synapse_hom, the hpc_benchmark rule):
    /// potentiation by a power of the weight, +a_plus·w^mu·x, depression proportional to it,
    /// -a_minus·y·w. a_plus is in [weight units]^(1 - mu) (NEST's lambda in pA^(1 - mu)), a_minus
    /// is dimensionless (NEST's lambda·alpha). Needs w_min >= 0.
    power_law,
};

/// Pair-based STDP. For one pre spike at t_pre and one post spike at t_post, Δt = t_post - t_pre:
///   Δt >= 0:  Δw = +a_plus  · exp(-Δt / tau_plus_ms)
///   Δt <  0:  Δw = -a_minus · exp( Δt / tau_minus_ms)   (additive)
/// With a dendritic delay d, a post spike reaches the rule at t_post + d: Δt = t_post + d - t_pre
/// (NEST's stdp_synapse takes d = the connection's delay; PyNN's dendritic_delay_fraction = 1).
/// Defaults: Song et al. 2000 (τ± = 20 ms, a_minus / a_plus = 1.05) with a_plus = 0.005·w_max.
struct stdp_pair {
    double tau_plus_ms = 20.0;   ///< [ms] decay of the pre trace x, > 0
    double tau_minus_ms = 20.0;  ///< [ms] decay of the post trace y, > 0
    double a_plus = 0.005;       ///< [weight units] potentiation amplitude, >= 0
    double a_minus = 0.00525;    ///< [weight units] depression amplitude, >= 0
    double w_min = 0.0;          ///< [weight units] lower hard bound
    double w_max = 1.0;          ///< [weight units] upper hard bound, >= w_min
    stdp_weight_dependence dependence = stdp_weight_dependence::additive;
    stdp_pairing pairing = stdp_pairing::all_to_all;
    double mu = 0.4;             ///< exponent of the power-law potentiation (power_law only), in [0, 1]
    /// [ms] the post spikes reach the rule this much after they happen (rounded to steps,
    /// >= 0). Potentiation by a post spike is applied at t_post + d, so a run's last d ms of post
    /// spikes count at the next run.
    double dendritic_delay_ms = 0.0;
    friend bool operator==(const stdp_pair&, const stdp_pair&) = default;
};

/// Triplet STDP (Pfister & Gerstner 2006, J. Neurosci. 26:9673), additive with hard bounds.
/// Pre traces r1 (tau_plus_ms) and r2 (tau_x_ms), post traces o1 (tau_minus_ms) and
/// o2 (tau_y_ms); each jumps by 1 at its neuron's spikes (set to 1 for nearest pairing), after
/// the update that spike causes:
///   at a pre spike:  w -= o1 · (a2_minus + a3_minus · r2)
///   at a post spike: w += r1 · (a2_plus  + a3_plus  · o2)
/// The defaults are the published visual-cortex "all-to-all, full" set (Table 2); see
/// visual_cortex(). Amplitudes are in weight units for a unit weight: scale them with scaled().
struct stdp_triplet {
    double tau_plus_ms = 16.8;   ///< [ms] r1, > 0
    double tau_minus_ms = 33.7;  ///< [ms] o1, > 0
    double tau_x_ms = 101.0;     ///< [ms] r2, > 0
    double tau_y_ms = 125.0;     ///< [ms] o2, > 0
    double a2_plus = 5e-10;      ///< [weight units] pair potentiation, >= 0
    double a3_plus = 6.2e-3;     ///< [weight units] triplet potentiation, >= 0
    double a2_minus = 7e-3;      ///< [weight units] pair depression, >= 0
    double a3_minus = 2.3e-4;    ///< [weight units] triplet depression, >= 0
    double w_min = 0.0;          ///< [weight units] lower hard bound
    double w_max = 1.0;          ///< [weight units] upper hard bound, >= w_min
    stdp_pairing pairing = stdp_pairing::all_to_all;

    /// The visual-cortex parameter sets of Pfister & Gerstner 2006, Table 2 (fitted to the
    /// Sjöström et al. 2001 pairing data), τ+ = 16.8 ms and τ- = 33.7 ms throughout:
    ///   all-to-all, full:     A2+ 5e-10,   A3+ 6.2e-3, A2- 7e-3,   A3- 2.3e-4, τx 101 ms, τy 125 ms
    ///   all-to-all, minimal:  A2+ 0,       A3+ 6.5e-3, A2- 7.1e-3, A3- 0,               τy 125 ms
    ///   nearest, full:        A2+ 8.8e-11, A3+ 5.3e-2, A2- 6.6e-3, A3- 3.1e-3, τx 714 ms, τy 40 ms
    ///   nearest, minimal:     A2+ 0,       A3+ 5e-2,   A2- 8e-3,   A3- 0,               τy 40 ms
    /// (the minimal sets have no r2 term; τx is then irrelevant and kept at the full value).
    /// Bounds [0, 1]; the published amplitudes are relative to the initial weight, so a
    /// network with weights w0 [mV] uses visual_cortex(...).scaled(w0).
    static stdp_triplet visual_cortex(stdp_pairing pairing, bool minimal = false);

    /// A copy with amplitudes and bounds multiplied by `factor` (> 0).
    stdp_triplet scaled(double factor) const;

    friend bool operator==(const stdp_triplet&, const stdp_triplet&) = default;
};

/// Short-term plasticity (Tsodyks, Uziel & Markram 2000, J. Neurosci. 20:RC50), as NEST's
/// tsodyks_synapse and PyNN's TsodyksMarkramSynapse. Each synapse holds resources split into
/// recovered x, active y and inactive z = 1 - x - y, and a utilisation u. Between two spikes of
/// its source, h ms apart, y decays into z with tau_psc_ms, z recovers into x with tau_rec_ms
/// and u decays to 0 with tau_facil_ms; at a spike u += U·(1 - u), the synapse delivers
/// weight·u·x, and u·x moves from x to y. At the start u = 0, x = 1, y = 0 and the last spike
/// was at t = 0 (as NEST). With tau_psc_ms = 0 the active share is inactive at once (NEST's
/// tsodyks2_synapse): x recovers as 1 - (1 - x)·exp(-h / tau_rec_ms). The weights themselves do
/// not change. Each parameter is a constant or one value per synapse (in the connector's order,
/// as a weight list); distributions are not taken.
struct tsodyks_markram {
    value_spec u = 0.5;             ///< U, in (0, 1]
    value_spec tau_rec_ms = 100.0;  ///< [ms] > 0
    value_spec tau_facil_ms = 0.0;  ///< [ms] >= 0; 0: u = U at every spike
    value_spec tau_psc_ms = 0.0;    ///< [ms] >= 0 and != tau_rec_ms (NEST: the target's tau_syn)
    friend bool operator==(const tsodyks_markram&, const tsodyks_markram&) = default;
};

/// Stochastic release (NEST's bernoulli_synapse, PyNN's SimpleStochasticSynapse): each spike
/// crosses each synapse with probability p_transmit, independently, and then delivers the
/// synapse's weight. The draw for a synapse and a spike comes from a counter-based stream named
/// by the seed, the projection, the target, the synapse's place among the target's synapses and
/// the spike's step, so it is the same for any thread count. p_transmit is a constant or one
/// value per synapse, in [0, 1].
struct stochastic_release {
    value_spec p_transmit = 1.0;
    friend bool operator==(const stochastic_release&, const stochastic_release&) = default;
};

/// Multi-quantal release with short-term plasticity (Fuhrmann, Segev, Markram & Tsodyks 2002,
/// J. Neurophysiol. 87:140; as NEST's quantal_stp_synapse and PyNN's MultiQuantalSynapse). A
/// synapse has `sites` release sites, a of them available, and a release probability u. At a
/// spike of its source h ms after the previous one: u = U + u·(1 - U)·exp(-h / tau_facil_ms)
/// (u = U when tau_facil_ms is 0), and each of the sites - a depleted sites recovers with
/// probability 1 - exp(-h / tau_rec_ms); then each available site releases with probability u,
/// the synapse delivers weight × (sites released), and those sites are depleted. At the source's
/// first spike u and a are used as they start (initial_u, default U; initial_available, default
/// all sites), as NEST does. The draws for a synapse and a spike come from a counter-based stream
/// named by the seed, the projection, the target, the synapse's place among the target's
/// synapses and the spike's step, so they are the same for any thread count. Each parameter is a
/// constant or one value per synapse; sites and initial_available are whole numbers.
struct quantal_release {
    value_spec u = 0.5;              ///< U, in [0, 1]
    value_spec tau_rec_ms = 800.0;   ///< [ms] > 0
    value_spec tau_facil_ms = 0.0;   ///< [ms] >= 0; 0: u = U at every spike
    value_spec sites = 1.0;          ///< n, a whole number in [1, max_sites]
    std::optional<value_spec> initial_u = std::nullopt;          ///< u before the first spike, in [0, 1] (default U)
    std::optional<value_spec> initial_available = std::nullopt;  ///< a before the first spike, in [0, sites] (default sites)
    static constexpr double max_sites = 65535;
    friend bool operator==(const quantal_release&, const quantal_release&) = default;
};

/// The plasticity of a projection: none (static), pair or triplet STDP, short-term plasticity,
/// stochastic release or multi-quantal release.
using plasticity_rule =
    std::variant<std::monostate, stdp_pair, stdp_triplet, tsodyks_markram, stochastic_release, quantal_release>;

/// True when the rule is not std::monostate: the projection has a table of its own.
inline bool is_plastic(const plasticity_rule& r) noexcept { return r.index() != 0; }

/// True for the STDP rules, whose weights change within [w_min, w_max].
inline bool changes_weights(const plasticity_rule& r) noexcept { return r.index() == 1 || r.index() == 2; }

/// The rule's hard bounds [w_min, w_max] (0, 0 for a static projection and for the short-term
/// and release rules, whose weights do not change).
std::pair<double, double> weight_bounds(const plasticity_rule& r) noexcept;

/// The most one spike can deliver through a synapse of the rule, as a multiple of its weight:
/// the largest number of release sites for quantal_release, 1 for every other rule.
double max_delivery_factor(const plasticity_rule& r) noexcept;

/// "static", "stdp_pair", "stdp_triplet", "tsodyks_markram", "stochastic_release" or
/// "quantal_release".
std::string plasticity_name(const plasticity_rule& r);

/// Throws invalid_parameter naming `object` and the parameter when a rule's parameter is out
/// of range: a time constant not finite or <= 0, a negative or non-finite amplitude, a
/// non-finite bound, or w_min > w_max.
void validate_plasticity(const plasticity_rule& r, const std::string& object);

}  // namespace volley::snn
