#pragma once
// The plastic synapses of one projection onto the targets one thread owns, with their STDP
// state (docs/plasticity.md).
//
// Why this layout: the engine is event-driven, so a weight changes only at a pre spike of its
// source (depression, then the weight is delivered) or a post spike of its target
// (potentiation). Pre spikes walk a CSR row by source, as static synapses do; post spikes need
// the incoming synapses of a target, so a second CSR index by target points into the rows.
// Traces are kept per neuron, not per synapse: each source has r1 and r2 (this thread's own
// copy, updated from the same spikes on every thread), each target o1 and o2, all with the step
// of their last jump, and decayed analytically (x·exp(-Δt/τ)) to the time they are read, never
// stored on a read. A synapse's weight is a double that only its source's and its target's
// spikes change, in step order, pre before post within a step; the thread that owns the
// target owns the synapse, so the arithmetic is the same for any number of threads.
//
// Per synapse: a 32-bit word (target offset, delay - 1), the double weight, and in the target
// index the synapse's position and its source: 20 bytes. Per source: a row start and three
// trace words (28 bytes); per target: a column start and three trace words (28 bytes). Per
// table: the decay factors exp(-k·dt/τ) of the four traces for lags k < 1024 steps (32 KiB),
// which replace most calls to exp and give the same bits as the call they replace.
//
// Short-term plasticity (tsodyks_markram) uses the same rows: a pre spike advances each
// synapse's (u, x, y) from the source's last spike and delivers weight·u·x; post spikes do
// nothing, and the weights stay as built. Per synapse 24 bytes of state, and 32 of parameters
// when they differ between synapses. Stochastic release (stochastic_release) uses the rows too:
// a pre spike delivers each synapse's weight with its probability, the draw named by (seed,
// projection, target, the synapse's place among the target's synapses, the spike's step).
// Multi-quantal release (quantal_release) likewise: per synapse its release probability and
// available sites (16 bytes), drawn from a stream named the same way.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <volley/snn/network.hpp>
#include <volley/snn/simulation.hpp>
#include "build/connectivity.hpp"
#include "checkpoint/state_archive.hpp"
#include "lowering/fixed_point.hpp"
#include "random/counter_rng.hpp"

namespace volley::snn::detail {

/// A rule's constants as the table applies them; the pair rule is the triplet rule without
/// the r2 and o2 terms.
struct stdp_constants {
    double tau_r1_ms = 1, tau_r2_ms = 1, tau_o1_ms = 1, tau_o2_ms = 1;
    double a2_plus = 0, a3_plus = 0, a2_minus = 0, a3_minus = 0;
    double w_min = 0, w_max = 0;
    bool nearest = false;         ///< traces reset to 1 instead of adding 1
    double dendritic_delay_ms = 0;  ///< post spikes reach the rule this much later
    bool triplet = false;         ///< r2 and o2 are used
    /// additive; multiplicative: depression scaled by (w - w_min) / (w_max - w_min); soft_bounds:
    /// that, and potentiation by (w_max - w) / (w_max - w_min); power_law: potentiation scaled
    /// by w^mu, depression by w
    stdp_weight_dependence dependence = stdp_weight_dependence::additive;
    double mu = 0;  ///< power_law exponent

    static stdp_constants from(const plasticity_rule& rule);
};

class plastic_table {
public:
    plastic_table() = default;

    /// Expands projection `projection` of `net` onto its targets [begin, end) (local indices
    /// in the target population). `ring_base` is the offset of target `begin` from the first
    /// neuron the thread owns (the ring index of delivery). Throws invalid_parameter if a
    /// drawn weight lies outside the rule's bounds.
    plastic_table(const network& net, std::size_t projection, const simulation_options& options,
                  std::uint32_t begin, std::uint32_t end, std::uint32_t ring_base);

    /// Back to the built weights and empty traces (simulation::reset). The fixed-point factor
    /// is kept.
    void rebuild(const network& net, const simulation_options& options);

    /// Sets the fixed-point factor of delivered weights (2^F of the target's receptor).
    void set_fixed_point(double to_fixed) noexcept { to_fixed_ = to_fixed; }

    std::size_t projection() const noexcept { return projection_; }
    std::uint32_t source_population() const noexcept { return source_pop_; }
    std::uint32_t target_population() const noexcept { return target_pop_; }
    std::uint32_t receptor() const noexcept { return receptor_; }
    std::uint32_t max_delay() const noexcept { return max_delay_; }
    /// The shortest delay [steps]; max() without synapses.
    std::uint32_t min_delay() const noexcept { return min_delay_; }

    /// A pre spike of `source` stamped `stamp`: depresses every synapse of its row with the
    /// post traces at that time, calls deliver(ring_offset, delay, fixed_weight) with the new
    /// weight, then advances the source's traces. Returns the number of synapses.
    template <class Deliver>
    std::size_t on_pre_spike(std::uint32_t source, std::int64_t stamp, Deliver&& deliver) {
        if (stp_on_) return stp_row(source, stamp, deliver);
        if (release_on_) return release_row(source, stamp, deliver);
        if (quantal_on_) return quantal_row(source, stamp, deliver);
        // The weight dependence is chosen once per spike; the row loop is compiled for each.
        switch (k_.dependence) {
            case stdp_weight_dependence::multiplicative:
                return depress_row<stdp_weight_dependence::multiplicative>(source, stamp, deliver);
            case stdp_weight_dependence::soft_bounds:  // depresses as multiplicative does
                return depress_row<stdp_weight_dependence::multiplicative>(source, stamp, deliver);
            case stdp_weight_dependence::power_law:
                return depress_row<stdp_weight_dependence::power_law>(source, stamp, deliver);
            case stdp_weight_dependence::additive: break;
        }
        return depress_row<stdp_weight_dependence::additive>(source, stamp, deliver);
    }

    /// A post spike of target `target` (local index in the population) stamped `stamp`:
    /// potentiates its incoming synapses with the pre traces at that time, then advances its
    /// traces. Targets outside the table's range are ignored.
    void on_post_spike(std::uint32_t target, std::int64_t stamp);

    /// A post spike as the engine sees it: with a dendritic delay of k steps it reaches the rule
    /// (on_post_spike) at stamp + k, from flush_posts(); without one at once.
    void post_spike(std::uint32_t target, std::int64_t stamp) {
        if (post_shift_ == 0) return on_post_spike(target, stamp);
        if (target < begin_ || target - begin_ >= post_.size()) return;
        pending_.push_back({stamp + post_shift_, target});
    }
    /// Applies the delayed post spikes that reach the rule at stamps < `stamp` (strict) or
    /// <= `stamp` (not strict), in order. Call with strict before a step's pre spikes and
    /// without after them, so that pre comes before post within a step as without the delay.
    void flush_posts(std::int64_t stamp, bool strict) {
        while (head_ < pending_.size() && (strict ? pending_[head_].stamp < stamp : pending_[head_].stamp <= stamp)) {
            const auto p = pending_[head_++];
            on_post_spike(p.target, p.stamp);
        }
        if (head_ == pending_.size()) pending_.clear(), head_ = 0;
    }

    /// Appends (source, target, weight) of every synapse, by target then in connector order.
    void append_weights(std::vector<std::uint32_t>& sources, std::vector<std::uint32_t>& targets,
                        std::vector<double>& weights) const;

    std::uint64_t synapses() const noexcept { return weights_.size(); }
    std::uint64_t bytes() const noexcept;
    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp).
    void visit_state(state_archive& a) {
        a.field("weights", weights_), a.field("pre", pre_), a.field("post", post_);
        if (stp_on_) a.field("stp", stp_);
        if (quantal_on_) a.field("quantal", quantal_);
        if (post_shift_ > 0) {  // tables without a dendritic delay keep the format they had
            pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
            a.field("pending_post", pending_);
        }
    }

private:
    /// tsodyks_markram: one synapse's state and parameters.
    struct stp_state {
        double u = 0, x = 1, y = 0;
    };
    struct stp_constants {
        double u = 0.5, tau_rec_ms = 100, tau_facil_ms = 0, tau_psc_ms = 0;
    };
    /// A pre spike through short-term plasticity (NEST's tsodyks_synapse::send, in its order).
    template <class Deliver>
    std::size_t stp_row(std::uint32_t source, std::int64_t stamp, Deliver& deliver) {
        const std::uint32_t b = row_begin_[source], e = row_begin_[source + 1];
        auto& pre = pre_[source];
        const double h = static_cast<double>(stamp - pre.last) * dt_ms_;
        pre.last = stamp;
        const bool one = stp_k_.size() == 1;
        for (std::uint32_t k = b; k < e; ++k) {
            const auto& c = stp_k_[one ? 0 : k];
            auto& s = stp_[k];
            const double puu = c.tau_facil_ms == 0 ? 0.0 : std::exp(-h / c.tau_facil_ms);
            const double pyy = c.tau_psc_ms == 0 ? 0.0 : std::exp(-h / c.tau_psc_ms);
            const double pzz = std::exp(-h / c.tau_rec_ms);
            const double pxy = ((pzz - 1) * c.tau_rec_ms - (pyy - 1) * c.tau_psc_ms) / (c.tau_psc_ms - c.tau_rec_ms);
            const double z = 1 - s.x - s.y;
            s.u *= puu;
            s.x += pxy * s.y + (1 - pzz) * z;
            s.y *= pyy;
            s.u += c.u * (1 - s.u);
            const double used = s.u * s.x;
            s.x -= used;
            s.y += used;
            const std::uint32_t word = words_[k], j = word >> delay_bits_;
            deliver(ring_base_ + j, (word & delay_mask_) + 1,
                    static_cast<std::int32_t>(to_fixed_point(weights_[k] * used, to_fixed_)));
        }
        return e - b;
    }

    /// A pre spike through stochastic release: each synapse transmits with its probability.
    template <class Deliver>
    std::size_t release_row(std::uint32_t source, std::int64_t stamp, Deliver& deliver) {
        const std::uint32_t b = row_begin_[source], e = row_begin_[source + 1];
        const bool one = release_p_.size() == 1;
        const std::uint64_t key = release_key_ + static_cast<std::uint64_t>(stamp >> 32) * 0x9E3779B97F4A7C15ull;
        std::size_t sent = 0;
        for (std::uint32_t k = b; k < e; ++k) {
            const std::uint32_t word = words_[k], j = word >> delay_bits_;
            counter_rng rng(key, stream_purpose::synapse_release, begin_ + j, release_rank_[k]);
            rng.seek(static_cast<std::uint32_t>(stamp));
            if (!(rng.uniform01() < release_p_[one ? 0 : k])) continue;
            deliver(ring_base_ + j, (word & delay_mask_) + 1, static_cast<std::int32_t>(to_fixed_point(weights_[k], to_fixed_)));
            ++sent;
        }
        return sent;
    }

    /// quantal_release: one synapse's state and parameters.
    struct quantal_state {
        double u = 0;                 ///< release probability
        std::uint32_t available = 0;  ///< available sites
        std::uint32_t unused = 0;
    };
    struct quantal_constants {
        double u = 0.5, tau_rec_ms = 800, tau_facil_ms = 0;
        std::uint32_t sites = 1;
    };
    /// The `last` of a source that has not spiked yet (quantal_release updates nothing then).
    static constexpr std::int64_t no_spike = std::numeric_limits<std::int64_t>::min();
    /// A pre spike through multi-quantal release (NEST's quantal_stp_synapse::send, in its order:
    /// facilitation, recovery of each depleted site, release of each available site).
    template <class Deliver>
    std::size_t quantal_row(std::uint32_t source, std::int64_t stamp, Deliver& deliver) {
        const std::uint32_t b = row_begin_[source], e = row_begin_[source + 1];
        auto& pre = pre_[source];
        const bool first = pre.last == no_spike;
        const double h = first ? 0.0 : static_cast<double>(stamp - pre.last) * dt_ms_;
        pre.last = stamp;
        const bool one = quantal_k_.size() == 1;
        const std::uint64_t key = release_key_ + static_cast<std::uint64_t>(stamp) * 0xD1B54A32D192ED03ull;
        // The decays since the last spike: computed once per spike when the synapses share their
        // time constants, per synapse otherwise.
        auto facil_of = [h](const quantal_constants& c) { return c.tau_facil_ms == 0 ? 0.0 : std::exp(-h / c.tau_facil_ms); };
        auto recover_of = [h](const quantal_constants& c) { return 1 - std::exp(-h / c.tau_rec_ms); };
        const double shared_facil = one && !first ? facil_of(quantal_k_[0]) : 0.0;
        const double shared_recover = one && !first ? recover_of(quantal_k_[0]) : 0.0;
        std::size_t sent = 0;
        for (std::uint32_t k = b; k < e; ++k) {
            const auto& c = quantal_k_[one ? 0 : k];
            auto& s = quantal_[k];
            const std::uint32_t word = words_[k], j = word >> delay_bits_;
            counter_rng rng(key, stream_purpose::quantal_release, begin_ + j, release_rank_[k]);
            if (!first) {
                s.u = c.u + s.u * (1 - c.u) * (one ? shared_facil : facil_of(c));
                const double recover = one ? shared_recover : recover_of(c);
                for (std::uint32_t d = c.sites - s.available; d > 0; --d) s.available += rng.uniform01() < recover;
            }
            std::uint32_t released = 0;
            for (std::uint32_t i = s.available; i > 0; --i) released += rng.uniform01() < s.u;
            if (released == 0) continue;
            s.available -= released;
            deliver(ring_base_ + j, (word & delay_mask_) + 1,
                    static_cast<std::int32_t>(to_fixed_point(weights_[k] * released, to_fixed_)));
            ++sent;
        }
        return sent;
    }
    /// Builds the quantal_release tables from the expanded list (constructor).
    void build_quantal(const quantal_release& rule, const synapse_list& list, const std::string& object);

    template <stdp_weight_dependence D, class Deliver>
    std::size_t depress_row(std::uint32_t source, std::int64_t stamp, Deliver& deliver) {
        const std::uint32_t b = row_begin_[source], e = row_begin_[source + 1];
        if (b == e) return 0;
        auto& pre = pre_[source];
        const double r2 = k_.triplet ? decayed(pre.x2, pre.last, stamp, trace_r2) : 0.0;
        const double amp = k_.a2_minus + k_.a3_minus * r2;
        const double span = k_.w_max - k_.w_min;
        for (std::uint32_t k = b; k < e; ++k) {
            const std::uint32_t word = words_[k], j = word >> delay_bits_;
            const auto& post = post_[j];
            double dw = decayed(post.x1, post.last, stamp, trace_o1) * amp;
            double& w = weights_[k];
            if constexpr (D == stdp_weight_dependence::multiplicative) dw *= (w - k_.w_min) / span;
            if constexpr (D == stdp_weight_dependence::power_law) dw *= w;
            w = std::max(k_.w_min, w - dw);
            deliver(ring_base_ + j, (word & delay_mask_) + 1, static_cast<std::int32_t>(to_fixed_point(w, to_fixed_)));
        }
        jump(pre.x1, pre.x2, pre.last, stamp, trace_r1, trace_r2);
        return e - b;
    }
    template <stdp_weight_dependence D>
    void potentiate_column(std::uint32_t j, double amp, std::int64_t stamp);

    struct trace {
        double x1 = 0, x2 = 0;    ///< just after the last jump: (r1, r2) of a source, (o1, o2) of a target
        std::int64_t last = 0;    ///< step of the last jump
    };
    struct delayed_post {
        std::int64_t stamp = 0;   ///< when it reaches the rule (spike stamp + post_shift_)
        std::uint32_t target = 0, unused = 0;
    };

    /// value · exp(-(now - last)·dt / tau); the factors of recent lags come from a table
    /// filled with the same expression, so the result does not depend on which path is taken.
    enum trace_kind : std::size_t { trace_o1, trace_r1, trace_r2, trace_o2 };
    double decayed(double value, std::int64_t last, std::int64_t now, trace_kind kind) const {
        if (value == 0) return 0.0;
        const std::int64_t lag = now - last;
        if (lag < decay_steps) return value * decay_[kind * decay_steps + static_cast<std::size_t>(lag)];
        return value * decay_factor(lag, kind);
    }
    double decay_factor(std::int64_t lag, trace_kind kind) const {
        return std::exp(-static_cast<double>(lag) * dt_ms_ / tau_ms_[kind]);
    }
    static constexpr std::int64_t decay_steps = 1024;  ///< lags with a tabulated factor
    void jump(double& a, double& b, std::int64_t& last, std::int64_t now, trace_kind ka, trace_kind kb) const;

    stdp_constants k_;
    std::size_t projection_ = 0;
    std::uint32_t source_pop_ = 0, target_pop_ = 0, receptor_ = 0, max_delay_ = 1;
    std::uint32_t min_delay_ = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t begin_ = 0, ring_base_ = 0, delay_bits_ = 0, delay_mask_ = 0;
    double dt_ms_ = 0.1, to_fixed_ = 0;
    std::int64_t post_shift_ = 0;           ///< [steps] dendritic delay of the post spikes
    std::vector<delayed_post> pending_;     ///< post spikes on their way to the rule, by stamp
    std::size_t head_ = 0;                  ///< the first of pending_ not yet applied
    std::vector<std::uint32_t> row_begin_;  ///< [source + 1]
    std::vector<std::uint32_t> words_;      ///< (target - begin) << delay_bits | (delay - 1)
    std::vector<double> weights_;           ///< [weight units], row order
    std::vector<std::uint32_t> col_begin_;  ///< [target - begin + 1]
    std::vector<std::uint32_t> col_synapse_, col_source_;  ///< by target: row position, source
    std::vector<trace> pre_;                ///< per source (r1, r2)
    std::vector<trace> post_;               ///< per target - begin (o1, o2)
    double tau_ms_[4] = {1, 1, 1, 1};       ///< [trace_kind]
    std::vector<double> decay_;             ///< [trace_kind][lag < decay_steps]
    bool stp_on_ = false;                   ///< tsodyks_markram, not STDP
    std::vector<stp_constants> stp_k_;      ///< tsodyks_markram: one, or per synapse in row order
    std::vector<stp_state> stp_;            ///< tsodyks_markram: per synapse in row order
    bool release_on_ = false;               ///< stochastic_release
    std::uint64_t release_key_ = 0;         ///< the seed, mixed with the projection
    std::vector<double> release_p_;         ///< one, or per synapse in row order
    std::vector<std::uint32_t> release_rank_;  ///< per synapse in row order: its place among its target's
    bool quantal_on_ = false;                  ///< quantal_release (uses release_key_ and release_rank_)
    std::vector<quantal_constants> quantal_k_; ///< quantal_release: one, or per synapse in row order
    std::vector<quantal_state> quantal_;       ///< quantal_release: per synapse in row order
};

}  // namespace volley::snn::detail
