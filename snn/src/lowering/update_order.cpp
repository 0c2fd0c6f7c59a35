// The update order and compound units (see update_order.hpp).

#include "lowering/update_order.hpp"

#include <volley/error.hpp>

#include <numeric>
#include <string>

namespace volley::snn::detail {

update_order order_populations(const network& net) {
    const auto& projs = net.projections();
    const auto n_pops = static_cast<std::uint32_t>(net.populations().size());
    std::vector<std::uint32_t> pending(n_pops, 0);  // zero-delay inputs from populations not yet placed
    update_order out;
    out.sends_now.assign(n_pops, 0);
    for (const auto& q : projs)
        if (is_zero_delay(q.synapse)) {
            ++pending[q.target.value];
            out.sends_now[q.source.value] = 1;
        }
    std::vector<std::uint8_t> placed(n_pops, 0);
    while (out.order.size() < n_pops) {
        std::uint32_t p = 0;
        while (p < n_pops && (placed[p] || pending[p] > 0)) ++p;
        if (p == n_pops) {
            std::string names;
            for (std::uint32_t k = 0; k < n_pops; ++k)
                if (!placed[k] && pending[k] > 0) names += (names.empty() ? "'" : ", '") + net.populations()[k].name + "'";
            for (std::size_t q = 0; q < projs.size(); ++q)
                if (is_zero_delay(projs[q].synapse) && !placed[projs[q].source.value])
                    throw invalid_parameter("projection " + std::to_string(q) + " ('" + net.at(projs[q].source).name +
                                                "' -> '" + net.at(projs[q].target).name + "')",
                                            "delay_ms", "0",
                                            "zero-delay projections form a cycle among populations " + names +
                                                "; give one projection of the cycle a delay of at least one step");
        }
        placed[p] = 1;
        out.order.push_back(p);
        for (const auto& q : projs)
            if (is_zero_delay(q.synapse) && q.source.value == p) --pending[q.target.value];
    }
    return out;
}

std::vector<std::uint32_t> compound_units(const network& net) {
    std::vector<std::uint32_t> unit(net.populations().size());
    std::iota(unit.begin(), unit.end(), 0u);
    auto root = [&](std::uint32_t p) {
        while (unit[p] != p) p = unit[p] = unit[unit[p]];
        return p;
    };
    for (const auto& q : net.projections())
        if (is_zero_delay(q.synapse)) {
            const std::uint32_t a = root(q.source.value), b = root(q.target.value);
            if (a != b) unit[std::max(a, b)] = std::min(a, b);
        }
    for (std::uint32_t p = 0; p < unit.size(); ++p) unit[p] = root(p);
    return unit;
}

}  // namespace volley::snn::detail
