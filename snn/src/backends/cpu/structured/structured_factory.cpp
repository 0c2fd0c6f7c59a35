// The CPU backend's structured-projection factory (see structured_projection.hpp).

#include "backends/cpu/structured/structured_projection.hpp"

#include <volley/error.hpp>

#include "lowering/fixed_point.hpp"

namespace volley::snn::detail {

std::span<const structured_row> structured_rows() {
    static const structured_row rows[] = {
        {"convolution", [](const connector& c) { return std::holds_alternative<convolution>(c); },
         [](const structured_build& b) {
             const auto& q = b.net.projections()[b.index];
             structured_state s(std::in_place_type<conv_projection>, std::get<convolution>(q.rule), q.source.value,
                                q.target.value, static_cast<std::uint8_t>(q.synapse.receptor), b.delay, b.to_fixed,
                                b.begin, b.end, b.source_spikes_once);
             std::get<conv_projection>(s).set_isa(b.isa);
             return s;
         }},
        {"gate", [](const connector& c) { return std::holds_alternative<max_pool_gate>(c); },
         [](const structured_build& b) {
             const auto& q = b.net.projections()[b.index];
             return structured_state(std::in_place_type<gate_projection>, std::get<max_pool_gate>(q.rule),
                                     q.source.value, q.target.value, static_cast<std::uint8_t>(q.synapse.receptor),
                                     b.delay, to_fixed_point(std::get<double>(q.synapse.weight), b.to_fixed), b.begin,
                                     b.end);
         }},
    };
    return rows;
}

structured_state make_structured(const structured_build& build) {
    const auto& rule = build.net.projections()[build.index].rule;
    for (const auto& row : structured_rows())
        if (row.runs(rule)) return row.make(build);
    throw internal_error("projection " + std::to_string(build.index) + ": no structured projection runs its connector");
}

}  // namespace volley::snn::detail
