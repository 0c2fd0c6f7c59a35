// The device engine's propagation strategies (backends/device/propagation_strategy.hpp) add
// the same integers: forcing every projection onto the postsynaptic strategy gives the CPU
// engine's raster, as the presynaptic one does (test_backend_rasters.cpp); and the registry
// picks the postsynaptic one where spikes are dense. Built only with the portable backend,
// whose core it drives directly (tests/backend/backend.cmake).

#include "backend_scenarios.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "backends/device/device_core.hpp"
#include "backends/device/device_network_build.hpp"
#include "backends/device/propagation_strategy.hpp"

namespace volley::snn::backend_test {
namespace {

using detail::device_propagation;

/// The raster of `net` on the portable core with every projection delivered postsynaptically.
std::vector<raster_event> postsynaptic_raster(const network& net, std::int64_t steps) {
    auto d = detail::describe_for_device(net, {.dt_ms = 0.1, .seed = 42}, "portable");
    for (auto& q : d.projections)
        if (q.connector == detail::device_connector::table) detail::use_postsynaptic(q, d.populations[q.target].n);
    auto core = detail::make_portable_core(d);
    detail::device_spike_log log;
    core->run(0, steps / 2, log);
    core->run(steps / 2, steps - steps / 2, log);
    std::vector<raster_event> out;
    std::uint32_t first = 0;
    for (std::size_t p = 0; p < d.populations.size(); ++p) {
        for (std::size_t k = 0; k < log.ids[p].size(); ++k) out.push_back({log.steps[p][k], first + log.ids[p][k]});
        first += d.populations[p].n;
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(backend_propagation_strategies, postsynaptic_gives_the_cpu_engines_raster) {
    for (const auto& sc : scenarios()) {
        if (sc.prepare) continue;  // input through set_input needs a simulation; gated_pool carries its table
        const network net = sc.build();
        const auto reference = run_raster(net, context{.threads = 1, .backend = backend_kind::cpu}, sc.duration_ms);
        ASSERT_GE(reference.size(), sc.min_spikes) << sc.name;
        EXPECT_TRUE(postsynaptic_raster(net, std::llround(sc.duration_ms / 0.1)) == reference) << sc.name;
    }
}

TEST(backend_propagation_strategies, dense_spikes_go_postsynaptic_and_sparse_ones_presynaptic) {
    const detail::propagation_case dense{.synapses = 100000, .sources = 1000, .targets = 1000, .spike_probability = 0.5};
    const detail::propagation_case sparse{.synapses = 100000, .sources = 1000, .targets = 1000, .spike_probability = 0.001};
    EXPECT_EQ(detail::choose_propagation(dense).kind, device_propagation::postsynaptic);
    EXPECT_EQ(detail::choose_propagation(sparse).kind, device_propagation::presynaptic);
}

}  // namespace
}  // namespace volley::snn::backend_test
