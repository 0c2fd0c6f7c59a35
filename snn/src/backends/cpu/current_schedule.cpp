// Current stimuli as step schedules (see current_schedule.hpp).

#include "backends/cpu/current_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace volley::snn::detail {

namespace {

std::int64_t to_step(double t_ms, double dt_ms) {
    return std::isinf(t_ms) ? INT64_MAX : static_cast<std::int64_t>(std::llround(t_ms / dt_ms));
}

}  // namespace

double current_schedule::stimulus::at(std::int64_t s) const {
    auto it = std::upper_bound(steps.begin(), steps.end(), s);
    return it == steps.begin() ? 0.0 : amplitudes[static_cast<std::size_t>(it - steps.begin()) - 1];
}

current_schedule::current_schedule(const network& net, population_index pop, double dt_ms) {
    for (const auto& stim : net.stimuli()) {
        if (stim.target != pop) continue;
        stimulus cs;
        cs.neurons = stim.neurons;
        if (const auto* dc = std::get_if<dc_current>(&stim.waveform)) {
            cs.steps = {to_step(dc->start_ms, dt_ms), to_step(dc->stop_ms, dt_ms)};
            cs.amplitudes = {dc->amplitude_mv, 0.0};
        } else {
            const auto& st = std::get<step_current>(stim.waveform);
            for (std::size_t i = 0; i < st.times_ms.size(); ++i) {
                cs.steps.push_back(to_step(st.times_ms[i], dt_ms));
                cs.amplitudes.push_back(st.amplitudes_mv[i]);
            }
        }
        change_steps_.insert(change_steps_.end(), cs.steps.begin(), cs.steps.end());
        stimuli_.push_back(std::move(cs));
    }
    std::sort(change_steps_.begin(), change_steps_.end());
    change_steps_.erase(std::unique(change_steps_.begin(), change_steps_.end()),
                        change_steps_.end());
}

bool current_schedule::changes_at(std::int64_t s) const {
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
        const double a = cs.at(s);
        if (cs.neurons.empty()) {
            for (std::uint32_t i = begin; i < end; ++i) out[i] += a;
        } else {
            for (std::uint32_t i : cs.neurons)
                if (i >= begin && i < end) out[i] += a;
        }
    }
}

}  // namespace volley::snn::detail
