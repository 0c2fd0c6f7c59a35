"""volley.analysis against independent NumPy implementations of each measure's definition, on
spike trains recorded from a Python-built network (Poisson sources, whose ISIs have CV 1)."""

import math

from volley_test_support import check, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

an = volley.analysis
net = volley.Network()
src = net.add_population("poisson", 20, "poisson_source", rate_hz=50.0)
sim = volley.Simulation(net, dt_ms=0.1, seed=3, threads=1)
rec = sim.record_spikes(src)
sim.run(20000.0)
trains = volley.spike_trains(rec)
check(len(trains) == 20 and all(np.all(np.diff(t) >= 0) for t in trains), "spike_trains splits by neuron, sorted")
times, ids = rec.spikes()
for i in (0, 7):
    check(np.array_equal(trains[i], np.sort(times[ids == i])), f"train {i}")

t = trains[0]
isi = np.diff(t)
check(np.allclose(an.isis(t), isi), "isis")
check(math.isclose(an.cv(t), isi.std() / isi.mean(), rel_tol=1e-9), f"cv {an.cv(t)}")
check(abs(an.cv(t) - 1) < 0.1, f"Poisson CV {an.cv(t)} far from 1")
cv2 = np.mean(2 * np.abs(isi[1:] - isi[:-1]) / (isi[1:] + isi[:-1]))
check(math.isclose(an.cv2(t), cv2, rel_tol=1e-9), "cv2")
lv = 3 * np.mean(((isi[:-1] - isi[1:]) / (isi[:-1] + isi[1:])) ** 2)
check(math.isclose(an.lv(t), lv, rel_tol=1e-9), "lv")
rate = an.mean_rate_hz(t, 0.0, 20000.0)
check(math.isclose(rate, len(t) / 20.0, rel_tol=1e-12) and abs(rate - 50) < 5, f"rate {rate}")

# Van Rossum (Elephant's definition): D^2 = sum_aa + sum_bb - 2 sum_ab of exp(-|dt|/tau).
a, b, tau = trains[1][:40], trains[2][:40], 8.0
k = lambda x, y: np.exp(-np.abs(x[:, None] - y[None, :]) / tau).sum()  # noqa: E731
d = math.sqrt(k(a, a) + k(b, b) - 2 * k(a, b))
check(math.isclose(an.van_rossum_distance(a, b, tau), d, rel_tol=1e-9), f"van Rossum {an.van_rossum_distance(a, b, tau)} vs {d}")


def victor_purpura(x, y, q):  # the textbook dynamic programme
    g = np.zeros((len(x) + 1, len(y) + 1))
    g[:, 0], g[0, :] = np.arange(len(x) + 1), np.arange(len(y) + 1)
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            g[i, j] = min(g[i - 1, j] + 1, g[i, j - 1] + 1, g[i - 1, j - 1] + q * abs(x[i - 1] - y[j - 1]))
    return g[-1, -1]


check(math.isclose(an.victor_purpura_distance(a, b, 0.05), victor_purpura(a, b, 0.05), rel_tol=1e-9), "Victor-Purpura")

bins = np.arange(0, 20000.0 + 1e-9, 100.0)
counts, rate_hz = an.psth(trains, 0.0, 20000.0, 100.0)
expected = sum(np.histogram(tr, bins)[0] for tr in trains)
check(np.array_equal(counts, expected) and np.allclose(rate_hz, expected / (20 * 0.1)), "psth")
c = an.correlation_matrix(trains[:5], 0.0, 20000.0, 100.0)
binned = np.array([np.histogram(tr, bins)[0] for tr in trains[:5]], dtype=float)
check(np.allclose(c, np.corrcoef(binned), atol=1e-12), "correlation matrix")
m = an.distance_matrix(trains[:6], "van_rossum", tau_ms=5.0)
check(m.shape == (6, 6) and np.allclose(m, m.T) and np.all(np.diag(m) == 0), "distance matrix shape and symmetry")
check(math.isclose(m[1, 4], an.van_rossum_distance(trains[1], trains[4], 5.0), rel_tol=1e-12), "matrix entry")
print(f"analysis: CV {an.cv(t):.3f}, rate {rate:.1f} Hz; isis, cv, cv2, lv, van Rossum, Victor-Purpura, psth, "
      "correlation equal their NumPy definitions")
