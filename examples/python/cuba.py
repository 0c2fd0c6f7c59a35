"""The CUBA network (Vogels & Abbott 2005) built with the volley Python module, run for one
second: the README's C++ example (examples/cuba.cpp) in Python. Run it with the module on the
path (docs/python.md):  PYTHONPATH=build/release/python python3 examples/python/cuba.py
"""

import sys

import volley


def build_cuba(n_exc=3200, n_inh=800, p=0.02):
    """The CUBA network: lif_exp neurons, w_e = 1.62 mV, w_i = -9 mV, delay one step."""
    net = volley.Network()
    model = volley.NeuronModel("lif_exp", tau_m_ms=20, tau_syn_e_ms=5, tau_syn_i_ms=10, v_rest_mv=-49,
                               v_reset_mv=-60, v_thresh_mv=-50, t_ref_ms=5)
    exc = net.add_population("exc", n_exc, model)
    inh = net.add_population("inh", n_inh, model)
    net.initialise(exc, "v_mv", volley.Uniform(-60, -50))
    net.initialise(inh, "v_mv", volley.Uniform(-60, -50))
    for target in (exc, inh):
        net.connect(exc, target, volley.FixedProbability(p), weight=1.62, delay_ms=0.1, receptor="excitatory")
        net.connect(inh, target, volley.FixedProbability(p), weight=-9.0, delay_ms=0.1, receptor="inhibitory")
    return net


def main():
    net = build_cuba()
    sim = volley.Simulation(net, dt_ms=0.1, seed=42, threads=2)
    spikes = sim.record_spikes("exc")
    sim.run(1000.0)  # ms

    times, ids = spikes.spikes()  # NumPy arrays: spike times [ms] and neuron ids
    print(f"{len(times)} spikes, {spikes.mean_rate_hz:.2f} Hz")
    volley.save_json(net, "cuba.json")  # `volley run cuba.json` runs the same network
    return 0 if spikes.mean_rate_hz > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
