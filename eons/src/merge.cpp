// Merge: the union of two networks (docs/eons.md, "Merge").

#include <volley/eons/operators.hpp>

#include "splice.hpp"

namespace volley::eons {

// Why: EONS's merge puts two parents side by side on shared inputs and outputs, so that two
// networks that each solve part of a task can be combined without losing any edge.
hw::tennlab_network merge(const hw::tennlab_network& a, const hw::tennlab_network& b,
                          const network_template& shape, const eons_config& config) {
    detail::splice_plan plan;
    plan.a_hidden = detail::hidden_nodes(a, shape).size();
    plan.b_from = 0;
    return detail::splice(a, b, plan, shape, config);
}

}  // namespace volley::eons
