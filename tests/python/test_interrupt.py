"""Ctrl-C during run(): a child process runs a long simulation and gets SIGINT; run() raises
KeyboardInterrupt after the current step, the recordings so far are valid (every spike before
the time reached), and the simulation runs on afterwards. The C++ code runs without the GIL, so
another Python thread keeps running meanwhile, and its calls on the running simulation are
refused with RuntimeError."""

import os
import signal
import subprocess
import sys
import time

from volley_test_support import check, volley_module

if len(sys.argv) > 1 and sys.argv[1] == "child":
    volley = volley_module()
    import threading
    import numpy as np
    net = volley.cuba_network(20000)
    sim = volley.Simulation(net, dt_ms=0.1, seed=42, threads=1)
    spikes = sim.record_spikes("exc")
    ticks, refused = [], []

    def other_thread():
        for _ in range(50):
            ticks.append(time.sleep(0.01))
        try:
            sim.run(1.0)  # the simulation is running in the main thread
        except RuntimeError as e:
            refused.append(str(e))

    worker = threading.Thread(target=other_thread, daemon=True)
    worker.start()
    print("running", flush=True)
    try:
        sim.run(1e6)  # far longer than the test waits
        print("completed", flush=True)
    except KeyboardInterrupt:
        t = sim.time_ms
        times = spikes.times_ms
        ok = 0 < t < 1e6 and len(times) > 0 and times.max() <= t and np.all(np.diff(spikes.steps) >= 0)
        worker.join()
        print(f"interrupted at {t} ms with {len(times)} spikes, valid {ok}; other thread ticked {len(ticks)} times, "
              f"its run() refused: {refused}", flush=True)
        sim.run(10.0)
        print(f"ran on to {sim.time_ms} ms", flush=True)
        sys.exit(0 if ok and len(ticks) == 50 and refused and abs(sim.time_ms - t - 10.0) < 1e-6 else 1)
    sys.exit(1)

volley_module()  # skips without NumPy
child = subprocess.Popen([sys.executable, __file__, "child"], stdout=subprocess.PIPE, text=True)
check(child.stdout.readline().strip() == "running", "the child did not start")
time.sleep(1.5)
child.send_signal(signal.SIGINT)
out, _ = child.communicate(timeout=120)
print(out.strip())
check(child.returncode == 0, f"child exit status {child.returncode}")
check("interrupted at" in out and "ran on to" in out, "no KeyboardInterrupt from run()")
