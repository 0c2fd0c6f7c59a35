// The max_pool_gate connector (see max_pool_gate.hpp).

#include "model/max_pool_gate.hpp"

#include <volley/error.hpp>

#include "model/format_number.hpp"

namespace volley::snn::detail {

void check_max_pool_gate(const max_pool_gate& g, const population& source, const population& target,
                         const synapse_spec& synapse, const std::string& object) {
    const std::pair<const char*, std::uint32_t> positive[] = {{"channels", g.channels}, {"in_height", g.in_height},
                                                              {"in_width", g.in_width}, {"pool_h", g.pool_h},
                                                              {"pool_w", g.pool_w},     {"stride_h", g.stride_h},
                                                              {"stride_w", g.stride_w}};
    for (const auto& [name, v] : positive)
        if (v == 0) throw invalid_parameter(object, std::string("max_pool_gate ") + name, "0", "must be >= 1");
    const std::pair<const char*, std::uint32_t> pads[] = {{"pad_top", g.pad_top}, {"pad_bottom", g.pad_bottom},
                                                          {"pad_left", g.pad_left}, {"pad_right", g.pad_right}};
    for (const auto& [name, v] : pads) {
        const std::uint32_t pool = name[4] == 't' || name[4] == 'b' ? g.pool_h : g.pool_w;
        if (v >= pool)
            throw invalid_parameter(object, std::string("max_pool_gate ") + name, std::to_string(v),
                                    "must be below the pool size (" + std::to_string(pool) +
                                        ") so that every window holds a source neuron");
    }
    if (g.out_height() == 0 || g.out_width() == 0)
        throw invalid_parameter(object, "max_pool_gate pool", std::to_string(g.pool_h) + "x" + std::to_string(g.pool_w),
                                "does not fit the padded " + std::to_string(g.in_height) + "x" +
                                    std::to_string(g.in_width) + " input");
    const std::uint64_t n_in = std::uint64_t{g.channels} * g.in_height * g.in_width;
    const std::uint64_t n_out = std::uint64_t{g.channels} * g.out_height() * g.out_width();
    if (source.size != n_in)
        throw invalid_parameter(object, "source size", std::to_string(source.size),
                                "the max_pool_gate's input map " + std::to_string(g.channels) + "x" +
                                    std::to_string(g.in_height) + "x" + std::to_string(g.in_width) + " has " +
                                    std::to_string(n_in) + " neurons");
    if (target.size != n_out)
        throw invalid_parameter(object, "target size", std::to_string(target.size),
                                "the max_pool_gate's window map " + std::to_string(g.channels) + "x" +
                                    std::to_string(g.out_height()) + "x" + std::to_string(g.out_width()) + " has " +
                                    std::to_string(n_out) + " neurons");
    if (!std::holds_alternative<double>(synapse.weight))
        throw invalid_parameter(object, "weight", describe(synapse.weight), "a max_pool_gate's weight must be a constant");
    if (!std::holds_alternative<double>(synapse.delay_ms))
        throw invalid_parameter(object, "delay_ms", describe(synapse.delay_ms), "a max_pool_gate's delay must be a constant");
}

void sources_max_pool_gate(const max_pool_gate& g, std::uint32_t j, std::vector<std::uint32_t>& sources) {
    const std::uint32_t oh = g.out_height(), ow = g.out_width();
    const std::uint32_t c = j / (oh * ow), y = j / ow % oh, x = j % ow;
    for (std::uint32_t a = 0; a < g.pool_h; ++a) {
        const std::int64_t iy = std::int64_t{y} * g.stride_h + a - g.pad_top;
        if (iy < 0 || iy >= g.in_height) continue;
        for (std::uint32_t b = 0; b < g.pool_w; ++b) {
            const std::int64_t ix = std::int64_t{x} * g.stride_w + b - g.pad_left;
            if (ix < 0 || ix >= g.in_width) continue;
            sources.push_back(static_cast<std::uint32_t>((std::int64_t{c} * g.in_height + iy) * g.in_width + ix));
        }
    }
}

}  // namespace volley::snn::detail
