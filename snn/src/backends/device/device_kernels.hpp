#pragma once
// The per-element work of the device backends as __host__ __device__ functors (VOLLEY_HD),
// one source for nvcc and for the host compiler. Each performs the CPU engine's operations in
// the CPU engine's order (lif_dense_kernel.inc, lif_population::add_input,
// cpu_engine_direct.cpp, source_population.cpp), so each neuron's state takes the same values,
// bit for bit; the builds keep FMA contraction off (-fmad=false, -ffp-contract=off).

#include <cmath>
#include <cstdint>

#include "backends/device/device_atomics.hpp"
#include "backends/device/philox_stream.hpp"
#include "backends/host_device.hpp"

namespace volley::snn::detail::device_kernels {

/// The LIF step, Kernel 0 lif_delta, 1 lif_exp, 2 lif_alpha, 3 lif_exp with scaled currents
/// (lif_population.hpp: one set of parameters; v relative to v_rest, currents stored divided
/// by p11^k). Per neuron: the ring input of the step, the dense update, the refractory count,
/// the direct input of the step's arrivals, and the spike flag.
template <int Kernel>
struct lif_step {
    double *v, *ie, *ii, *xe, *xi;
    const double *v_rest, *v_reset, *v_thresh, *p22, *p20, *i_ext, *p11e, *p11i, *p21e, *p21i, *p31e, *p31i, *jump_e,
        *jump_i;
    std::int32_t* refractory;  ///< steps left to hold v
    const std::int32_t* ref_steps;
    std::int64_t* cells;        ///< ring slot of this step: [neuron][receptor]
    std::uint32_t* touched;     ///< ring slot of this step: [neuron], 1 where input arrived
    std::uint32_t* direct;      ///< [neuron][receptor]: direct events that arrive now (or null)
    std::uint32_t* fired;       ///< [neuron]: 1 when it fires
    double scale_e, scale_i;    ///< fixed point -> mV
    double gain_e, gain_i;      ///< lif_population::input_gain of this step
    double direct_w_e, direct_w_i;  ///< a direct event's value (already times the gain)
    double p21e_k, p21i_k;      ///< scaled: the gains at this step's scale
    double rescale_e, rescale_i;  ///< scaled: factors back to scale 1, applied when `rescale`
    bool rescale;
    double h;

    VOLLEY_HD void operator()(std::uint32_t i) const {
        if (Kernel == 3 && rescale) {
            ie[i] *= rescale_e;
            ii[i] *= rescale_i;
        }
        const bool hit = touched[i] != 0;
        double ine = 0, ini = 0;
        if (hit) {
            ine = static_cast<double>(cells[2 * i]) * scale_e;
            ini = static_cast<double>(cells[2 * i + 1]) * scale_i;
            cells[2 * i] = 0;
            cells[2 * i + 1] = 0;
            touched[i] = 0;
        }
        const double v_old = v[i];
        const bool active = refractory[i] == 0;
        double vp;
        if constexpr (Kernel == 0) {
            const double vr = v_rest[i];
            vp = vr + (v_old - vr) * p22[i] + i_ext[i] * p20[i] + ine + ini;
        } else if constexpr (Kernel == 1) {
            const double vr = v_rest[i], e = ie[i], n = ii[i];
            vp = vr + (v_old - vr) * p22[i] + e * p21e[i] + n * p21i[i] + i_ext[i] * p20[i];
            ie[i] = e * p11e[i];
            ii[i] = n * p11i[i];
        } else if constexpr (Kernel == 3) {
            vp = v_old * p22[i] + ie[i] * p21e_k + ii[i] * p21i_k + i_ext[i] * p20[i];
        } else {
            const double vr = v_rest[i], ee = p11e[i], ei = p11i[i];
            const double e = ie[i], n = ii[i], x = xe[i], y = xi[i];
            vp = vr + (v_old - vr) * p22[i] + e * p21e[i] + n * p21i[i] + x * p31e[i] + y * p31i[i] + i_ext[i] * p20[i];
            ie[i] = ee * (e + h * x);
            ii[i] = ei * (n + h * y);
            xe[i] = ee * x;
            xi[i] = ei * y;
        }
        const double vn = active ? vp : v_old;
        const bool spike = active && vn >= v_thresh[i];
        v[i] = spike ? v_reset[i] : vn;
        if (spike) refractory[i] = ref_steps[i];
        else if (!active) refractory[i] -= 1;
        fired[i] = spike ? 1u : 0u;
        if (hit) {
            if constexpr (Kernel == 1 || Kernel == 3) {
                ie[i] += ine * gain_e;
                ii[i] += ini * gain_i;
            } else if constexpr (Kernel == 2) {
                xe[i] += ine * jump_e[i];
                xi[i] += ini * jump_i[i];
            }
        }
        if (Kernel != 0 && direct) {  // the same value once per event: any order gives these bits
            for (std::uint32_t k = direct[2 * i]; k > 0; --k) {
                if constexpr (Kernel == 2) xe[i] += direct_w_e * jump_e[i];
                else ie[i] += direct_w_e;
            }
            for (std::uint32_t k = direct[2 * i + 1]; k > 0; --k) {
                if constexpr (Kernel == 2) xi[i] += direct_w_i * jump_i[i];
                else ii[i] += direct_w_i;
            }
            direct[2 * i] = 0;
            direct[2 * i + 1] = 0;
        }
    }
};

/// Discrete neurons (discrete_population.cpp, update_general), reset rule R (the index of
/// discrete_neuron::reset_mode: 0 to_v_reset, 1 subtract, 2 subtract_delayed, 3
/// subtract_no_delay, 4 to_v_reset_delayed, 5 none). The general formula, term for term; the
/// CPU's plain IF step computes the same numbers (discrete_if_kernel.cpp).
template <int R>
struct discrete_step {
    double *v, *i_syn;
    const double *v_leak, *v_thresh, *v_reset, *w_in, *i_bias, *r, *syn_keep, *mem_keep, *in_gain, *cross;
    const std::uint8_t *has_syn, *drive_from_i;
    std::int64_t* cells;     ///< ring slot of this step: [neuron][receptor]
    std::uint32_t* touched;  ///< ring slot of this step: [neuron]
    std::uint32_t* fired;
    double scale_e, scale_i;

    VOLLEY_HD void operator()(std::uint32_t i) const {
        const double x = static_cast<double>(cells[2 * i]) * scale_e + static_cast<double>(cells[2 * i + 1]) * scale_i;
        cells[2 * i] = 0;
        cells[2 * i + 1] = 0;
        touched[i] = 0;
        const double u = w_in[i] * (x + i_bias[i]);
        double drive = u, decaying = 0;
        if (has_syn[i]) {
            const double i_old = i_syn[i];
            const double i_new = u + (i_old - u) * syn_keep[i];
            i_syn[i] = i_new;
            if (drive_from_i[i]) drive = i_new;
            decaying = i_old - u;
        }
        const double v_old = v[i], leak = v_leak[i], theta = v_thresh[i];
        double vn = leak + (v_old - leak) * mem_keep[i] + in_gain[i] * drive + cross[i] * r[i] * decaying;
        double test = vn;
        if constexpr (R == 2) {
            if (v_old > theta) test = vn = vn - theta;
        } else if constexpr (R == 4) {
            if (v_old > theta) test = vn = v_reset[i];
        } else if constexpr (R == 3) {
            if (v_old > theta) test = vn - theta;
        }
        const bool spike = test > theta;
        if (spike) {
            if constexpr (R == 0) vn = v_reset[i];
            else if constexpr (R == 1 || R == 3) vn -= theta;
        }
        v[i] = vn;
        fired[i] = spike ? 1u : 0u;
    }
};

/// Analog sources: a neuron "fires" in step s when its value is not 0 (analog_population.cpp);
/// the deliveries read the value. Input to a source is dropped.
struct analog_step {
    const double* values;  ///< the step's row, or null past the table
    std::uint32_t* fired;
    std::uint32_t* touched;
    std::int64_t* cells;

    VOLLEY_HD void operator()(std::uint32_t i) const {
        touched[i] = 0;
        cells[2 * i] = cells[2 * i + 1] = 0;
        fired[i] = values && values[i] != 0 ? 1u : 0u;
    }
};

/// Poisson sources: every spike whose time falls in step s (source_population.cpp).
struct poisson_step {
    double* next_ms;
    philox_stream* rng;
    std::uint32_t* fired;  ///< [neuron]: spikes in the step (may exceed 1)
    std::uint32_t* touched;  ///< ring slot of this step: input to a source is dropped
    std::int64_t* cells;
    const double* stop_ms;      ///< [neuron · stride] [ms]
    const double* rate_per_ms;  ///< [neuron · stride] [1/ms]
    std::uint32_t stride;       ///< 0: one value for the population; 1: one per neuron
    double t_end, infinity;

    VOLLEY_HD void operator()(std::uint32_t i) const {
        touched[i] = 0;
        cells[2 * i] = cells[2 * i + 1] = 0;
        const std::size_t k = std::size_t{i} * stride;
        std::uint32_t count = 0;
        double next = next_ms[i];
        while (next <= t_end) {
            if (next > stop_ms[k]) {
                next = infinity;
                break;
            }
            ++count;
            next += rng[i].exponential(rate_per_ms[k]);
        }
        next_ms[i] = next;
        fired[i] = count;
    }
};

/// Spike arrays: the spikes stamped s + 1 (source_population.cpp).
struct spike_array_step {
    const std::uint32_t* begin;  ///< [neuron + 1]
    const std::int64_t* steps;
    std::uint32_t* cursor;
    std::uint32_t* fired;
    std::uint32_t* touched;
    std::int64_t* cells;
    std::int64_t stamp;  ///< s + 1

    VOLLEY_HD void operator()(std::uint32_t i) const {
        touched[i] = 0;
        cells[2 * i] = cells[2 * i + 1] = 0;
        std::uint32_t c = cursor[i], count = 0;
        const std::uint32_t end = begin[i + 1];
        while (c < end && steps[c] <= stamp) {
            if (steps[c] == stamp) ++count;
            ++c;
        }
        cursor[i] = c;
        fired[i] = count;
    }
};

/// Writes neuron i's spikes into the event queue slot at its offset (inclusive scan of fired):
/// ids come out ascending, as the CPU lists them.
struct list_spikes {
    const std::uint32_t* fired;
    const std::uint32_t* end_offset;
    std::uint32_t* ids;

    VOLLEY_HD void operator()(std::uint32_t i) const {
        const std::uint32_t count = fired[i];
        const std::uint32_t first = end_offset[i] - count;
        for (std::uint32_t k = 0; k < count; ++k) ids[first + k] = i;
    }
};

/// The presynaptic strategy: one thread per spike walks its row and adds each fixed-point
/// weight into the target's ring cell of the arrival step with an integer atomic (or, for a
/// direct projection, counts the event). Order-independent, so bit-identical to the CPU.
struct deliver_presynaptic {
    const std::uint32_t* spikes;
    const std::uint32_t* row_begin;
    const std::uint32_t* targets;
    const std::int32_t* weights;
    const std::uint16_t* delays;
    std::int64_t* cells;       ///< the target's ring: [slot][neuron][receptor]
    std::uint32_t* touched;    ///< the target's ring: [slot][neuron]
    std::uint32_t* direct;     ///< direct projections: [neuron][receptor] counts, else null
    unsigned long long* events;
    const double* values;  ///< an analog source's values of the step (each weight w becomes round(w·x)), or null
    std::int64_t s;
    std::uint32_t slots, n_target, receptor;

    VOLLEY_HD void operator()(std::uint32_t k) const {
        const std::uint32_t src = spikes[k];
        const std::uint32_t b = row_begin[src], e = row_begin[src + 1];
        atomic_add<unsigned long long>(events, static_cast<unsigned long long>(e - b));
        if (direct) {
            for (std::uint32_t j = b; j < e; ++j) atomic_add<std::uint32_t>(direct + 2 * targets[j] + receptor, 1u);
            return;
        }
        for (std::uint32_t j = b; j < e; ++j) {
            const std::uint32_t t = targets[j];
            const auto slot = static_cast<std::uint64_t>((s + delays[j]) % slots);
            const std::uint64_t at = slot * n_target + t;
            const std::int64_t w = values ? ::llround(static_cast<double>(weights[j]) * values[src]) : weights[j];
            atomic_add<unsigned long long>(reinterpret_cast<unsigned long long*>(cells + 2 * at + receptor),
                                           static_cast<unsigned long long>(w));
            atomic_flag_set(touched + at);
        }
    }
};

/// The postsynaptic strategy: one thread per target reads its column and the step's spike
/// counts of the sources, and adds count · weight into its own ring cells (or direct counts):
/// each cell has one writer, so no atomics; the sums are the presynaptic strategy's integers.
struct deliver_postsynaptic {
    const std::uint32_t* source_fired;  ///< [source neuron]: spikes in step s
    const std::uint32_t* col_begin;
    const std::uint32_t* sources;
    const std::int32_t* weights;
    const std::uint16_t* delays;
    std::int64_t* cells;
    std::uint32_t* touched;
    std::uint32_t* direct;
    unsigned long long* events;
    const double* values;  ///< as deliver_presynaptic's
    std::int64_t s;
    std::uint32_t slots, n_target, receptor;

    VOLLEY_HD void operator()(std::uint32_t t) const {
        unsigned long long hits = 0;
        for (std::uint32_t j = col_begin[t]; j < col_begin[t + 1]; ++j) {
            const std::uint32_t c = source_fired[sources[j]];
            if (c == 0) continue;
            hits += c;
            if (direct) {
                direct[2 * t + receptor] += c;
                continue;
            }
            const auto slot = static_cast<std::uint64_t>((s + delays[j]) % slots);
            const std::uint64_t at = slot * n_target + t;
            cells[2 * at + receptor] += values ? ::llround(static_cast<double>(weights[j]) * values[sources[j]])
                                               : static_cast<std::int64_t>(weights[j]) * c;
            touched[at] = 1;
        }
        if (hits > 0) atomic_add<unsigned long long>(events, hits);
    }
};

}  // namespace volley::snn::detail::device_kernels
