// TENNLab-style crossover (docs/eons.md, "Crossover").

#include <volley/eons/operators.hpp>

#include "network_edit.hpp"
#include "splice.hpp"

#include <algorithm>

namespace volley::eons {

// Why: EONS crossover (Schuman et al. 2020) splits the hidden nodes of the two parents at one
// point and keeps each parent's edges whose two ends survive; the same fraction f applied to
// both parents keeps the child's size between the parents' sizes. Edges between the two halves
// are lost, which is what makes crossover disruptive and merge its complement.
hw::tennlab_network crossover(const hw::tennlab_network& a, const hw::tennlab_network& b,
                              const network_template& shape, const eons_config& config,
                              random_stream& rng) {
    const double f = rng.unit();
    const std::size_t ha = detail::hidden_nodes(a, shape).size();
    const std::size_t hb = detail::hidden_nodes(b, shape).size();
    detail::splice_plan plan;
    plan.a_hidden = std::min(ha, static_cast<std::size_t>(f * static_cast<double>(ha + 1)));
    plan.b_from = std::min(hb, static_cast<std::size_t>(f * static_cast<double>(hb + 1)));
    const hw::node_id io = detail::io_count(shape);
    plan.io_from_b.resize(io);
    for (hw::node_id id = 0; id < io; ++id) plan.io_from_b[id] = rng.chance(0.5);
    return detail::splice(a, b, plan, shape, config);
}

}  // namespace volley::eons
