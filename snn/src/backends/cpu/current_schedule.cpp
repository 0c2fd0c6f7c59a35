// Current stimuli as step schedules (see current_schedule.hpp).

#include "backends/cpu/current_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <volley/error.hpp>

#include "model/format_number.hpp"
#include "random/counter_rng.hpp"

namespace volley::snn::detail {

namespace {

std::int64_t to_step(double t_ms, double dt_ms) {
    return std::isinf(t_ms) ? INT64_MAX : static_cast<std::int64_t>(std::llround(t_ms / dt_ms));
}

}  // namespace

double current_schedule::stimulus::at(std::int64_t s, double dt_ms) const {
    if (kind == shape::sine) {
        if (s < first || s >= last) return 0.0;
        return a + b * std::sin(omega * (static_cast<double>(s) * dt_ms - t0) + phase);
    }
    auto it = std::upper_bound(steps.begin(), steps.end(), s);
    return it == steps.begin() ? 0.0 : amplitudes[static_cast<std::size_t>(it - steps.begin()) - 1];
}

double current_schedule::stimulus::noise_at(std::int64_t s, std::uint32_t neuron, std::uint64_t seed) const {
    if (s < first || s >= last) return 0.0;
    counter_rng rng(seed, stream_purpose::current_noise, static_cast<std::uint32_t>(index), neuron);
    rng.seek(static_cast<std::uint32_t>((s - first) / interval));
    return a + b * rng.standard_normal();
}

bool current_schedule::stimulus::drives(std::uint32_t neuron) const {
    return neurons.empty() || std::find(neurons.begin(), neurons.end(), neuron) != neurons.end();
}

current_schedule::current_schedule(const network& net, population_index pop, double dt_ms, std::uint64_t seed)
    : dt_ms_(dt_ms), seed_(seed) {
    const auto& all = net.stimuli();
    for (std::size_t k = 0; k < all.size(); ++k) {
        const auto& stim = all[k];
        if (stim.target != pop) continue;
        stimulus cs;
        cs.index = k;
        cs.neurons = stim.neurons;
        if (const auto* dc = std::get_if<dc_current>(&stim.waveform)) {
            cs.steps = {to_step(dc->start_ms, dt_ms), to_step(dc->stop_ms, dt_ms)};
            cs.amplitudes = {dc->amplitude_mv, 0.0};
        } else if (const auto* st = std::get_if<step_current>(&stim.waveform)) {
            for (std::size_t i = 0; i < st->times_ms.size(); ++i) {
                cs.steps.push_back(to_step(st->times_ms[i], dt_ms));
                cs.amplitudes.push_back(st->amplitudes_mv[i]);
            }
        } else if (const auto* ac = std::get_if<ac_current>(&stim.waveform)) {
            cs.kind = shape::sine;
            cs.first = to_step(ac->start_ms, dt_ms), cs.last = to_step(ac->stop_ms, dt_ms);
            cs.a = ac->offset_mv, cs.b = ac->amplitude_mv;
            cs.omega = 2 * std::numbers::pi * ac->frequency_hz / 1000.0;
            cs.phase = ac->phase_deg * std::numbers::pi / 180.0;
            cs.t0 = ac->start_ms;
        } else {
            const auto& nz = std::get<noise_current>(stim.waveform);
            cs.kind = shape::noise;
            cs.first = to_step(nz.start_ms, dt_ms), cs.last = to_step(nz.stop_ms, dt_ms);
            cs.a = nz.mean_mv, cs.b = nz.stdev_mv;
            const double ratio = nz.interval_ms / dt_ms;
            cs.interval = std::max<std::int64_t>(1, std::llround(ratio));
            if (nz.interval_ms > 0 && std::abs(ratio - std::round(ratio)) > 1e-9 * std::max(1.0, ratio))
                throw invalid_parameter("current stimulus " + std::to_string(k) + " into '" + net.at(pop).name + "'",
                                        "interval_ms", format_number(nz.interval_ms),
                                        "must be a whole number of steps (dt = " + format_number(dt_ms) + " ms)");
        }
        change_steps_.insert(change_steps_.end(), cs.steps.begin(), cs.steps.end());
        dynamic_ = dynamic_ || cs.kind != shape::steps;
        stimuli_.push_back(std::move(cs));
    }
    std::sort(change_steps_.begin(), change_steps_.end());
    change_steps_.erase(std::unique(change_steps_.begin(), change_steps_.end()), change_steps_.end());
}

bool current_schedule::changes_at(std::int64_t s) const {
    if (dynamic_)
        for (const auto& cs : stimuli_) {
            if (cs.kind == shape::sine && s >= cs.first && s <= cs.last) return true;
            if (cs.kind == shape::noise && s >= cs.first && s <= cs.last &&
                (s == cs.last || (s - cs.first) % cs.interval == 0))
                return true;
        }
    return std::binary_search(change_steps_.begin(), change_steps_.end(), s);
}

void current_schedule::amplitudes_at(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                                     std::span<double> out) const {
    std::fill(out.begin() + begin, out.begin() + end, 0.0);
    add_amplitudes(s, begin, end, out);
}

void current_schedule::add_amplitudes(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                                      std::span<double> out) const {
    for (const auto& cs : stimuli_) {
        if (cs.kind == shape::noise) {
            if (s < cs.first || s >= cs.last) continue;
            if (cs.neurons.empty()) {
                for (std::uint32_t i = begin; i < end; ++i) out[i] += cs.noise_at(s, i, seed_);
            } else {
                for (std::uint32_t i : cs.neurons)
                    if (i >= begin && i < end) out[i] += cs.noise_at(s, i, seed_);
            }
            continue;
        }
        const double a = cs.at(s, dt_ms_);
        if (cs.neurons.empty()) {
            for (std::uint32_t i = begin; i < end; ++i) out[i] += a;
        } else {
            for (std::uint32_t i : cs.neurons)
                if (i >= begin && i < end) out[i] += a;
        }
    }
}

double current_schedule::amplitude_of(std::size_t stimulus, std::int64_t s, std::uint32_t neuron) const {
    for (const auto& cs : stimuli_) {
        if (cs.index != stimulus) continue;
        if (!cs.drives(neuron)) return 0.0;
        return cs.kind == shape::noise ? cs.noise_at(s, neuron, seed_) : cs.at(s, dt_ms_);
    }
    return 0.0;
}

}  // namespace volley::snn::detail

namespace volley::snn {

std::vector<double> current_trace(const network& net, std::size_t stimulus, std::uint32_t neuron, double dt_ms,
                                  std::uint64_t seed, std::int64_t steps) {
    const auto& all = net.stimuli();
    if (stimulus >= all.size())
        throw invalid_parameter("current_trace", "stimulus", std::to_string(stimulus),
                                "out of range for " + std::to_string(all.size()) + " stimuli");
    const std::string object = "current stimulus " + std::to_string(stimulus) + " into '" + net.at(all[stimulus].target).name + "'";
    if (!std::isfinite(dt_ms) || dt_ms <= 0) throw invalid_parameter(object, "dt_ms", detail::format_number(dt_ms), "must be finite and > 0");
    if (steps < 0) throw invalid_parameter(object, "steps", std::to_string(steps), "must be >= 0");
    const auto& st = all[stimulus];
    if (neuron >= net.at(st.target).size ||
        (!st.neurons.empty() && std::find(st.neurons.begin(), st.neurons.end(), neuron) == st.neurons.end()))
        throw invalid_parameter(object, "neuron", std::to_string(neuron), "is not a neuron this stimulus drives");
    const detail::current_schedule schedule(net, st.target, dt_ms, seed);
    std::vector<double> out(static_cast<std::size_t>(steps));
    for (std::int64_t s = 0; s < steps; ++s) out[static_cast<std::size_t>(s)] = schedule.amplitude_of(stimulus, s, neuron);
    return out;
}

}  // namespace volley::snn
