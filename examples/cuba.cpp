// The CUBA network (Vogels & Abbott 2005) built with Volley's C++ API, run for one second.

#include <volley/snn.hpp>

#include <cstdio>

namespace vs = volley::snn;

int main() {
    vs::network net;
    const vs::lif_exp model{{.tau_m_ms = 20, .tau_syn_e_ms = 5, .tau_syn_i_ms = 10, .v_rest_mv = -49,
                             .v_reset_mv = -60, .v_thresh_mv = -50, .t_ref_ms = 5}};
    auto exc = net.add_population("exc", 3200, model);
    auto inh = net.add_population("inh", 800, model);
    net.initialise(exc, "v_mv", vs::uniform{-60, -50});
    net.initialise(inh, "v_mv", vs::uniform{-60, -50});

    const auto prob = vs::fixed_probability{0.02};
    for (auto target : {exc, inh}) {
        net.connect(exc, target, prob, {.weight = 1.62, .delay_ms = 0.1, .receptor = vs::excitatory});
        net.connect(inh, target, prob, {.weight = -9.0, .delay_ms = 0.1, .receptor = vs::inhibitory});
    }

    vs::simulation sim(net, vs::context{.threads = 2}, {.dt_ms = 0.1, .seed = 42});
    auto spikes = sim.record_spikes(exc);
    sim.run(1000.0 /* ms */);

    std::printf("%zu spikes, %.2f Hz\n", spikes.size(), spikes.mean_rate_hz());
    vs::save_network_json(net, "cuba.json");  // `volley run cuba.json` runs the same network
    return spikes.mean_rate_hz() > 0 ? 0 : 1;
}
