#pragma once
// Networks that the rank tests (tests/unit/test_distributed.cpp under dry_run, tests/mpi/ under
// mpirun) run on several ranks against one process.

#include <volley/snn.hpp>

namespace volley::snn::testing {

/// Poisson input onto plastic synapses with delays of 0.5-3 ms (epochs of 5 steps), recurrence
/// and inhibition.
inline network plastic_delayed_network() {
    network net;
    const auto in = net.add_population("in", 300, poisson_source{{.rate_hz = 20}});
    const auto exc = net.add_population("exc", 150, lif_exp{});
    net.initialise(exc, "v_mv", uniform{-60, -50});
    stdp_pair pair{.a_plus = 0.02, .a_minus = 0.021, .w_min = 0, .w_max = 2.0};
    net.connect(in, exc, fixed_probability{0.2}, {.weight = uniform{0, 2.0}, .delay_ms = uniform{0.5, 3}, .plasticity = pair});
    net.connect(exc, exc, fixed_probability{0.1, false}, {.weight = 0.5, .delay_ms = 1.5});
    net.connect(exc, exc, fixed_probability{0.05, false}, {.weight = -1.0, .delay_ms = 1.0, .receptor = inhibitory});
    return net;
}

/// Poisson spikes relayed one to one by strong synapses with delays of 3 and 5 steps (epochs of
/// 3 steps), so that a spike delivered a step late changes the raster.
inline network relay_chain() {
    network net;
    const auto in = net.add_population("in", 300, poisson_source{{.rate_hz = 50}});
    const auto relay = net.add_population("relay", 300, lif_exp{});
    const auto out = net.add_population("out", 300, lif_exp{});
    net.connect(in, relay, one_to_one{}, {.weight = 40.0, .delay_ms = 0.5});
    net.connect(relay, out, one_to_one{}, {.weight = 40.0, .delay_ms = 0.3});
    net.connect(in, out, fixed_probability{0.05}, {.weight = uniform{1.0, 5.0}, .delay_ms = uniform{0.3, 2.0}});
    return net;
}

}  // namespace volley::snn::testing
