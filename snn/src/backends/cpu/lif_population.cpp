// LIF population state and exact update (see lif_population.hpp and propagators.hpp).
//
// Order within a step, as in NEST's iaf_psc_* models: propagate v over the step with the
// currents present at its start (unless refractory), decay the currents and add the input
// that arrives at the step's end, then test the threshold. A spike found at the end of step
// s is stamped s + 1; its input reaches targets at the end of step s + d.

#include "backends/cpu/lif_population.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <type_traits>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/lif_exp_avx512.hpp"
#include "backends/cpu/propagators.hpp"
#include "build/draw_values.hpp"
#include "model/refractory_steps.hpp"

namespace volley::snn::detail {

namespace {

/// The value of a per-population or per-neuron column.
template <bool Hetero, class T>
inline T col(const std::vector<T>& c, std::uint32_t i) {
    if constexpr (Hetero) return c[i];
    else return c[0];
}

}  // namespace

lif_population::lif_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed)
    : currents_(net, pop, dt_ms, seed) {
    const auto& p = net.at(pop);
    n_ = p.size;
    name_ = p.name;
    h_ = dt_ms;
    kind_ = std::holds_alternative<lif_delta>(p.model) ? kind::delta
            : std::holds_alternative<lif_exp>(p.model) ? kind::exp
                                                        : kind::alpha;
    hetero_ = !p.parameters.empty() || !currents_.empty();

    const std::uint32_t cols = hetero_ ? n_ : 1;
    const auto params = model_parameters(p.model);
    std::vector<std::vector<double>> values(params.size(), std::vector<double>(cols));
    const std::string object = "population '" + p.name + "'";
    for (std::size_t k = 0; k < params.size(); ++k) {
        const double def = get_parameter(p.model, params[k].name);
        const auto over = std::find_if(p.parameters.begin(), p.parameters.end(),
                                       [&](const auto& kv) { return kv.first == params[k].name; });
        for (std::uint32_t i = 0; i < cols; ++i) {
            values[k][i] = over == p.parameters.end()
                               ? def
                               : draw_neuron_value(over->second, seed, pop.value, static_cast<std::uint32_t>(k), i);
            if (over != p.parameters.end())
                check_parameter(p.model, params[k].name, values[k][i], object + " neuron " + std::to_string(i));
        }
    }
    auto column = [&](const char* name) -> const std::vector<double>& {
        for (std::size_t k = 0; k < params.size(); ++k)
            if (std::string_view(params[k].name) == name) return values[k];
        throw internal_error(std::string("missing LIF parameter ") + name);
    };
    const auto &tau_m = column("tau_m_ms"), &t_ref = column("t_ref_ms");
    v_rest_ = column("v_rest_mv");
    v_reset_ = column("v_reset_mv");
    v_thresh_ = column("v_thresh_mv");
    i_bias_ = column("i_e_mv");
    for (std::uint32_t i = 0; i < cols; ++i)
        if (!(v_reset_[i] < v_thresh_[i]))
            throw invalid_parameter(object + " neuron " + std::to_string(i), "v_reset_mv", std::to_string(v_reset_[i]),
                                    "must be below v_thresh_mv (" + std::to_string(v_thresh_[i]) + ")");
    const bool synaptic = kind_ != kind::delta;
    const std::vector<double> unused(cols, 1.0);
    const auto &tau_e = synaptic ? column("tau_syn_e_ms") : unused, &tau_i = synaptic ? column("tau_syn_i_ms") : unused;
    for (auto* c : {&p22_, &p20_, &p11e_, &p11i_, &p21e_, &p21i_, &p31e_, &p31i_, &jump_e_, &jump_i_}) c->resize(cols);
    ref_steps_.resize(cols);
    for (std::uint32_t i = 0; i < cols; ++i) {
        p22_[i] = membrane_decay(h_, tau_m[i]);
        p20_[i] = constant_input_gain(h_, tau_m[i]);
        ref_steps_[i] = refractory_steps(std::round(t_ref[i] / h_), t_ref[i], h_,
                                         hetero_ ? object + " neuron " + std::to_string(i) : object);
        if (!synaptic) continue;
        p11e_[i] = std::exp(-h_ / tau_e[i]);
        p11i_[i] = std::exp(-h_ / tau_i[i]);
        p21e_[i] = exp_current_gain(h_, tau_e[i], tau_m[i]);
        p21i_[i] = exp_current_gain(h_, tau_i[i], tau_m[i]);
        p31e_[i] = alpha_derivative_gain(h_, tau_e[i], tau_m[i]);
        p31i_[i] = alpha_derivative_gain(h_, tau_i[i], tau_m[i]);
        jump_e_[i] = kind_ == kind::alpha ? std::numbers::e / tau_e[i] : 1.0;
        jump_i_[i] = kind_ == kind::alpha ? std::numbers::e / tau_i[i] : 1.0;
    }

    v_.resize(n_);
    for (std::uint32_t i = 0; i < n_; ++i) v_[i] = v_rest_[hetero_ ? i : 0];
    ie_.assign(n_, 0.0);
    ii_.assign(n_, 0.0);
    if (kind_ == kind::alpha) {
        xe_.assign(n_, 0.0);
        xi_.assign(n_, 0.0);
    }
    refractory_.assign(n_, 0);
    if (kind_ == kind::delta) {
        in_e_.assign(n_, 0.0);
        in_i_.assign(n_, 0.0);
    }
    // Stored currents are scaled by 1 / p11^(s mod period); the period keeps that below e^200.
    scaled_ = kind_ == kind::exp && !hetero_;
    if (scaled_) {
        const double fastest = h_ / std::min(tau_e[0], tau_i[0]);  // ln(1 / p11) of the faster current
        rescale_period_ = static_cast<std::int64_t>(std::clamp(std::floor(200.0 / fastest), 1.0, 1024.0));
        // The powers a step needs, so that no step calls pow: p11^k and p11^-(k + 1).
        for (std::int64_t k = 0; k <= rescale_period_; ++k)
            for (int r = 0; r < 2; ++r) {
                const double p11 = r == 0 ? p11e_[0] : p11i_[0];
                decay_power_[r].push_back(std::pow(p11, static_cast<double>(k)));
                input_power_[r].push_back(std::pow(p11, -static_cast<double>(k + 1)));
            }
    }
    const auto vars = model_state_variables(p.model);
    for (const auto& [var, spec] : p.initial_values) {
        auto& target = this->column(var);  // at step 0 the scale is 1
        const auto slot = static_cast<std::uint32_t>(
            64 + (std::find_if(vars.begin(), vars.end(), [&var = var](const char* v) { return var == v; }) - vars.begin()));
        for (std::uint32_t i = 0; i < n_; ++i) target[i] = draw_neuron_value(spec, seed, pop.value, slot, i);
    }
    if (scaled_)  // the scaled kernel keeps v relative to v_rest
        for (double& v : v_) v -= v_rest_[0];
    if (hetero_) {
        i_ext_.assign(n_, 0.0);
        for (std::uint32_t i = 0; i < n_; ++i) i_ext_[i] = i_bias_[i];
        apply_currents(0, 0, n_);
    }
}

lif_population::built_state lif_population::export_built_state() const {
    built_state b;
    b.kind = kind_ == kind::delta ? 0 : kind_ == kind::exp ? 1 : 2;
    b.scaled = scaled_;
    b.rescale_period = rescale_period_;
    for (int r = 0; r < 2; ++r) {
        b.decay_power[r] = decay_power_[r];
        b.input_power[r] = input_power_[r];
    }
    b.v.assign(v_.begin(), v_.end());
    b.ie.assign(ie_.begin(), ie_.end());
    b.ii.assign(ii_.begin(), ii_.end());
    b.xe.assign(xe_.begin(), xe_.end());
    b.xi.assign(xi_.begin(), xi_.end());
    b.v_rest = v_rest_, b.v_reset = v_reset_, b.v_thresh = v_thresh_, b.p22 = p22_, b.p20 = p20_;
    b.p11e = p11e_, b.p11i = p11i_, b.p21e = p21e_, b.p21i = p21i_, b.p31e = p31e_, b.p31i = p31i_;
    b.jump_e = jump_e_, b.jump_i = jump_i_, b.i_bias = i_bias_, b.ref_steps = ref_steps_;
    return b;
}

bool lif_population::currents_change_at(std::int64_t s) const { return currents_.changes_at(s); }

void lif_population::apply_currents(std::int64_t s, std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t i = begin; i < end; ++i) i_ext_[i] = i_bias_[i];
    currents_.add_amplitudes(s, begin, end, i_ext_);
}

aligned_vector<double>& lif_population::column(const std::string& variable) {
    if (variable == "v_mv") return v_;
    if (variable == "i_syn_e_mv" && kind_ != kind::delta) return ie_;
    if (variable == "i_syn_i_mv" && kind_ != kind::delta) return ii_;
    throw unknown_name("state variable", variable, "population '" + name_ + "'");
}

void lif_population::sample_state(const std::string& variable, std::int64_t step, std::span<const std::uint32_t> ids,
                                  std::vector<double>& out) const {
    const auto& stored = const_cast<lif_population*>(this)->column(variable);  // throws unknown_name
    double offset = 0, gain = 1;
    if (scaled_ && &stored == &v_) {
        offset = v_rest_[0];  // stored relative to v_rest
    } else if (scaled_) {
        // After `step` steps the last rescaling was at s0 (the start of step s0), so the
        // stored values are the currents divided by p11^(step - s0).
        const std::int64_t s0 = step == 0 ? 0 : (step - 1) / rescale_period_ * rescale_period_;
        gain = decay_power_[&stored == &ie_ ? 0 : 1][static_cast<std::size_t>(step - s0)];
    }
    const std::size_t base = out.size();
    out.resize(base + ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k) out[base + k] = stored[ids[k]] * gain + offset;
}

double lif_population::input_gain(std::int64_t s, bool inhibitory) const {
    if (!scaled_) return 1.0;
    return input_power_[inhibitory ? 1 : 0][static_cast<std::size_t>(scaled_exponent(s))];
}

void lif_population::set_threads(int threads) {
    // A neuron that fires at step s is refractory over steps s + 1 ... s + ref and is released
    // at the end of step s + ref: ref + 1 buckets cover every pending release.
    buckets_ = static_cast<std::size_t>(*std::max_element(ref_steps_.begin(), ref_steps_.end())) + 1;
    ends_.assign(static_cast<std::size_t>(threads), {});
}

void lif_population::update(int thread, std::int64_t s, std::uint32_t begin, std::uint32_t end,
                            const step_input& in, std::vector<std::uint32_t>& spikes) {
    auto run = [&]<int Kernel>() {
        if constexpr (Kernel == 0) add_input(s, in);
        for (std::uint32_t c0 = begin; c0 < end; c0 += direct_chunk) {
            const std::uint32_t c1 = std::min(end, c0 + direct_chunk);
            if (hetero_) step_chunk<Kernel, true>(thread, s, begin, c0, c1, {}, spikes);
            else step_chunk<Kernel, false>(thread, s, begin, c0, c1, {}, spikes);
        }
        if constexpr (Kernel != 0) add_input(s, in);
    };
    switch (kind_) {
        case kind::delta: run.template operator()<0>(); break;
        case kind::exp:
            if (scaled_) run.template operator()<3>();
            else run.template operator()<1>();
            break;
        case kind::alpha: run.template operator()<2>(); break;
    }
}

void lif_population::update_pair(int thread, std::int64_t s, std::uint32_t begin, std::uint32_t end,
                                 std::span<const direct_route> between, std::vector<std::uint32_t>& spikes,
                                 std::vector<std::uint32_t>& next_spikes) {
    if (!scaled_) throw internal_error("update_pair on a population that does not step in pairs");
    for (std::uint32_t c0 = begin; c0 < end; c0 += direct_chunk) {
        const std::uint32_t c1 = std::min(end, c0 + direct_chunk);
        step_chunk<3, false>(thread, s, begin, c0, c1, between, spikes);
        step_chunk<3, false>(thread, s + 1, begin, c0, c1, {}, next_spikes);
    }
}

void lif_population::hold_refractory(int thread, std::int64_t s, std::uint32_t chunk,
                                     std::span<const std::uint32_t> fired) {
    auto& per_chunk = ends_[static_cast<std::size_t>(thread)];
    if (chunk >= per_chunk.size()) per_chunk.resize(chunk + 1, std::vector<std::vector<std::uint32_t>>(buckets_));
    auto& ends = per_chunk[chunk];
    const auto buckets = static_cast<std::int64_t>(buckets_);
    for (const std::uint32_t i : fired) {
        const std::int32_t ref = ref_steps_[hetero_ ? i : 0];
        if (ref == 0) continue;
        refractory_[i] = 1;
        ends[static_cast<std::size_t>((s + ref) % buckets)].push_back(i);
    }
    auto& due = ends[static_cast<std::size_t>(s % buckets)];
    for (const std::uint32_t i : due) refractory_[i] = 0;
    due.clear();
}

void lif_population::add_uniform_input(std::uint32_t receptor, std::span<const std::uint32_t> offsets,
                                       std::int64_t shift, double w) {
    const bool inh = receptor != 0;
    if (kind_ == kind::exp) {
        double* col = (inh ? ii_ : ie_).data() + shift;
        for (const std::uint32_t off : offsets) col[off] += w;
        return;
    }
    double* col = (inh ? xi_ : xe_).data() + shift;
    const auto& jump = inh ? jump_i_ : jump_e_;
    if (!hetero_) {
        const double wj = w * jump[0];
        for (const std::uint32_t off : offsets) col[off] += wj;
        return;
    }
    const double* jump_col = jump.data() + shift;
    for (const std::uint32_t off : offsets) col[off] += w * jump_col[off];
}

void lif_population::add_routes(std::uint32_t chunk, std::span<const direct_route> routes) {
    for (const auto& r : routes) add_uniform_input(r.receptor, r.lists[chunk], 0, r.w);
}

void lif_population::add_input(std::int64_t s, const step_input& in) {
    const double gain_e = input_gain(s, false), gain_i = input_gain(s, true);
    // A neuron listed twice finds its cells cleared the second time and adds +0.0.
    for (const std::uint32_t k : in.touched) {
        const auto i = static_cast<std::uint32_t>(k + in.shift);
        std::int64_t* cell = in.cells + 2 * std::size_t{i};
        const double ine = static_cast<double>(cell[0]) * in.scale_e;
        const double ini = static_cast<double>(cell[1]) * in.scale_i;
        cell[0] = 0;
        cell[1] = 0;
        switch (kind_) {
            case kind::delta:
                in_e_[i] += ine;
                in_i_[i] += ini;
                break;
            case kind::exp:
                ie_[i] += ine * gain_e;
                ii_[i] += ini * gain_i;
                break;
            case kind::alpha:
                xe_[i] += ine * jump_e_[hetero_ ? i : 0];
                xi_[i] += ini * jump_i_[hetero_ ? i : 0];
                break;
        }
    }
}

namespace {

/// Appends begin + k for every nonzero flag[k], k < n, reading eight flags at a time.
inline void collect_spikes(const std::uint8_t* flag, std::uint32_t n, std::uint32_t begin,
                           std::vector<std::uint32_t>& spikes) {
    std::uint32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        std::uint64_t word;
        std::memcpy(&word, flag + k, 8);
        while (word != 0) {
            spikes.push_back(begin + k + static_cast<std::uint32_t>(std::countr_zero(word)) / 8);
            word &= word - 1;
        }
    }
    for (; k < n; ++k)
        if (flag[k]) spikes.push_back(begin + k);
}

/// All bits set when `c`, else none: a lane mask.
inline std::uint64_t all_ones_if(bool c) { return -static_cast<std::uint64_t>(c); }
inline double at(const double* column, std::uint32_t i) { return column[i]; }
inline double at(double value, std::uint32_t) { return value; }

/// `mask ? a : b` in bit operations. A plain ?: lets GCC sink the computation of `a` into a
/// branch, which it then cannot if-convert (a floating-point operation "could trap"), and the
/// loop does not vectorise.
inline double select(std::uint64_t mask, double a, double b) {
    return std::bit_cast<double>((std::bit_cast<std::uint64_t>(a) & mask) | (std::bit_cast<std::uint64_t>(b) & ~mask));
}

template <bool Hetero>
using param_column = std::conditional_t<Hetero, const double*, double>;

/// The parameters of the dense step: one value each, or a column when heterogeneous.
template <bool Hetero>
struct dense_params {
    param_column<Hetero> v_rest, v_reset, v_thresh, p22, p20, i_ext, p11e, p11i, p21e, p21i, p31e, p31i;
    double h;
};

namespace dense_baseline {
#include "backends/cpu/lif_dense_kernel.inc"
}  // namespace dense_baseline

#pragma GCC push_options
#pragma GCC target("avx2")
namespace dense_avx2 {
#include "backends/cpu/lif_dense_kernel.inc"
}  // namespace dense_avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512dq,avx512bw,prefer-vector-width=512")
namespace dense_avx512 {
#include "backends/cpu/lif_dense_kernel.inc"
}  // namespace dense_avx512
#pragma GCC pop_options

}  // namespace

// One step of neurons [c0, c1), a chunk of at most direct_chunk neurons of the range that
// starts at `begin`: rescale the currents when due, the dense loop (in blocks of 256 neurons so
// that the spike flags stay in L1, with the widest kernel the CPU runs: AVX-512, AVX2 or
// baseline, chosen at run time), the routes' input, and the refractory bookkeeping.
template <int Kernel, bool Hetero>
void lif_population::step_chunk(int thread, std::int64_t s, std::uint32_t begin, std::uint32_t c0, std::uint32_t c1,
                                std::span<const direct_route> routes, std::vector<std::uint32_t>& spikes) {
    constexpr std::uint32_t block = 256;
    static_assert(direct_chunk % block == 0 && direct_chunk % 64 == 0);
    const std::size_t first = spikes.size();
    const std::uint32_t chunk = (c0 - begin) / direct_chunk;
    if (scaled_ && s > 0 && scaled_exponent(s) == 0) {  // back to scale 1
        const auto period = static_cast<std::size_t>(rescale_period_);
        const double fe = decay_power_[0][period], fi = decay_power_[1][period];
        for (std::uint32_t i = c0; i < c1; ++i) {
            ie_[i] *= fe;
            ii_[i] *= fi;
        }
    }
    const cpu_isa isa = isa_;  // the engine's (simulation_options::max_isa)
    auto param = [&](const std::vector<double>& c) {
        if constexpr (Hetero) return static_cast<const double*>(c.data());
        else return c[0];
    };
    dense_params<Hetero> prm{param(v_rest_), param(v_reset_), param(v_thresh_), param(p22_), param(p20_),
                             param(hetero_ ? i_ext_ : i_bias_), param(p11e_), param(p11i_), param(p21e_),
                             param(p21i_), param(p31e_), param(p31i_), h_};
    bool done = false;
    if constexpr (Kernel == 3 && !Hetero) {  // scaled currents: the gains take the scale of step s
        const auto k = static_cast<std::size_t>(scaled_exponent(s));
        prm.p21e = p21e_[0] * decay_power_[0][k];
        prm.p21i = p21i_[0] * decay_power_[1][k];
        prm.v_reset = v_reset_[0] - v_rest_[0];  // v is stored relative to v_rest
        prm.v_thresh = v_thresh_[0] - v_rest_[0];
        if (isa == cpu_isa::avx512) {  // the hand-written AVX-512 loop
            const lif_exp_constants c{prm.v_reset, prm.v_thresh, prm.p22, prm.p21e, prm.p21i, prm.i_ext * prm.p20};
            std::uint64_t fired[direct_chunk / 64];
            const std::uint32_t n = c1 - c0;
            lif_exp_block_avx512(n, v_.data() + c0, ie_.data() + c0, ii_.data() + c0, refractory_.data() + c0, fired,
                                 c);
            for (std::uint32_t w = 0; w < (n + 63) / 64; ++w)
                for (std::uint64_t bits = fired[w]; bits != 0; bits &= bits - 1)
                    spikes.push_back(c0 + 64 * w + static_cast<std::uint32_t>(std::countr_zero(bits)));
            done = true;
        }
    }
    if (!done) {
        alignas(64) std::uint8_t flag[block];
        for (std::uint32_t b0 = c0; b0 < c1; b0 += block) {
            const std::uint32_t b1 = std::min(c1, b0 + block);
            const std::uint64_t fired =
                (isa == cpu_isa::avx512 ? dense_avx512::dense_block<Kernel, Hetero>
                 : isa == cpu_isa::avx2 ? dense_avx2::dense_block<Kernel, Hetero>
                                        : dense_baseline::dense_block<Kernel, Hetero>)(
                    b0, b1, v_.data(), ie_.data(), ii_.data(), xe_.data(), xi_.data(), refractory_.data(),
                    in_e_.data(), in_i_.data(), flag, prm);
            if (fired) collect_spikes(flag, b1 - b0, b0, spikes);
        }
    }
    add_routes(chunk, routes);
    hold_refractory(thread, s, chunk, std::span(spikes).subspan(first));
}

}  // namespace volley::snn::detail
