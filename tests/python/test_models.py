"""Every neuron model builds and runs from Python: each parameter set by keyword reads back, each
model with a current (or its own drive) moves its membrane, and the spiking ones fire. The
adex and izhikevich presets fire as their tables say they do (tonically under their current)."""

from volley_test_support import check, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

drives = {  # a current that makes each model fire, in its own units
    "lif_delta": 20.0, "lif_exp": 20.0, "lif_alpha": 20.0, "lif_cond_exp": 500.0, "lif_cond_alpha": 500.0,
    "izhikevich": 10.0, "adex": 800.0, "hh": 500.0,
}
for name in volley.model_names():
    model = volley.NeuronModel(name)
    for key, value in model.parameters.items():
        if isinstance(value, float) and np.isfinite(value):
            again = volley.NeuronModel(name, **{key: value})
            check(again == model, f"{name}: {key} = {value} does not read back")
    net = volley.Network()
    if name == "spike_source":
        pop = net.add_population("p", 2, name, spike_times_ms=[[1.0, 2.0], [3.0]])
    elif name == "analog_source":
        pop = net.add_population("p", 2, name, values=[[1.0, 0.0]] * 5)
    else:
        pop = net.add_population("p", 2, model)
    if name in drives:
        net.inject(pop, volley.DCCurrent(amplitude_mv=drives[name], start_ms=5.0))
    sim = volley.Simulation(net, dt_ms=0.1, seed=1, threads=1)
    spikes = sim.record_spikes(pop)
    trace = sim.record_state(pop, model.state_variables[0], 1.0) if model.state_variables else None
    sim.run(100.0)
    if name in drives:
        v = trace.values[:, 0]
        check(np.ptp(v) > 1.0 and len(spikes) > 0, f"{name}: v range {np.ptp(v)}, {len(spikes)} spikes under a current")
    if name == "spike_source":
        check(list(spikes.times_ms) == [1.0, 2.0, 3.0], f"spike_source fired at {spikes.times_ms}")
    if name == "poisson_source":
        check(len(spikes) > 0, "poisson_source did not fire")
    print(f"{name}: {len(spikes)} spikes in 100 ms")

for model, preset in (("izhikevich", "RS"), ("izhikevich", "FS"), ("adex", "tonic")):
    net = volley.Network()
    pop = net.add_population("p", 1, model, preset=preset)
    if model == "izhikevich":
        net.inject(pop, volley.DCCurrent(amplitude_mv=10.0))
    sim = volley.Simulation(net, dt_ms=0.1)
    spikes = sim.record_spikes(pop)
    sim.run(500.0)
    isi = np.diff(spikes.times_ms)
    check(len(isi) > 3, f"{model} {preset}: {len(spikes)} spikes")
    print(f"{model} {preset}: {len(spikes)} spikes, last interval {isi[-1]:.1f} ms")
