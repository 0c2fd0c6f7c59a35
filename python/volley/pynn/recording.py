"""Recording for the Volley backend: spikes and state variables go to volley recorders when the
network is built (or when record() is called afterwards); PyNN turns what they hold into Neo."""

import numpy as np
from pyNN import recording

from . import simulator
from .errors_ import unsupported


class Recorder(recording.Recorder):
    _simulator = simulator

    def __init__(self, population, file=None):
        super().__init__(population, file)
        self._volley = {}  # variable name -> (volley recorder, local indices recorded)
        self._time_offset = 0.0
        self._spikes_cleared = 0  # spikes that get_data(clear=True) has handed out

    def _record(self, variable, new_ids, sampling_interval=None):
        if sampling_interval is not None:
            self.sampling_interval = self._checked_interval(sampling_interval)
        if simulator.state.simulation is not None:
            try:
                self._attach()
            except Exception:
                self.recorded[variable] -= set(new_ids)  # as if record() had not been called
                raise

    def _checked_interval(self, interval):
        """`interval` [ms] if it is a whole number (>= 1) of time steps: the volley recorders
        sample every so many steps, and Neo stamps sample k at k * interval."""
        dt = simulator.state.dt
        steps = round(float(interval) / dt)
        if not (steps >= 1 and abs(steps * dt - float(interval)) <= 1e-9 * max(1.0, float(interval))):
            raise unsupported(f"population {self.population.label}", "sampling_interval", interval,
                              f"must be a whole number of time steps (dt = {dt} ms)")
        return float(interval)

    def _attach(self):
        """Creates the volley recorders of every recorded variable (the network is built)."""
        sim = simulator.state.simulation
        pop = self.population
        for variable, ids in self.recorded.items():
            name = variable.name
            indices = sorted(int(i) for i in pop.id_to_index(np.array(sorted(ids), dtype=int)))
            if name in self._volley and set(indices) <= set(self._volley[name][1]):
                continue
            # A first recorder, or other cells than the current one records (record(None), then
            # record() of other cells): a new recorder of exactly these cells replaces it, at the
            # start of a segment (after reset()); within one it would miss the samples so far.
            if name in self._volley and simulator.state.t > 0:
                raise unsupported(f"population {pop.label}", f"record('{name}')", f"{len(indices)} cells",
                                  f"other cells than those recorded so far in this run (t = {simulator.state.t:g} "
                                  "ms); record them before the first run(), or after reset()")
            if name == "spikes":
                self._volley[name] = (sim.record_spikes(pop._volley_index, indices), indices)
                self._spikes_cleared = 0
                continue
            state = pop._translation.state
            if name not in state:
                raise unsupported(f"population {pop.label}", "record", name,
                                  f"Volley's {pop._translation.model} records {', '.join(state) or 'no state'}")
            rec = sim.record_state(pop._volley_index, state[name][0], self.sampling_interval, indices)
            self._volley[name] = (rec, indices)

    def _ids_of(self, indices):
        return self.population.all_cells[np.asarray(indices, dtype=int)]

    def _get_spiketimes(self, ids, clear=False):
        if "spikes" not in self._volley:
            return np.array([], dtype=int), np.array([])
        rec, _ = self._volley["spikes"]
        times, local = rec.spikes()
        times, local = times[self._spikes_cleared:], local[self._spikes_cleared:]
        gids = np.asarray(self.population.all_cells, dtype=int)[local.astype(int)]
        wanted = np.isin(gids, np.asarray(ids, dtype=int))
        return gids[wanted], times[wanted].astype(float)

    def _get_all_signals(self, variable, ids, clear=False):
        rec, indices = self._volley[variable.name]
        factor = np.broadcast_to(self.population._translation.state[variable.name][1], (self.population.size,))
        values = np.asarray(rec.values) / factor[np.asarray(indices, dtype=int)]
        columns = {int(g): j for j, g in enumerate(self._ids_of(indices))}
        return values[:, [columns[int(i)] for i in ids]], None

    def _local_count(self, variable, filter_ids=None):
        counts = {int(i): 0 for i in self.filter_recorded(variable, filter_ids)}
        if variable.name != "spikes" or "spikes" not in self._volley:
            return counts
        ids, _ = self._get_spiketimes(list(counts))
        for i in ids:
            counts[int(i)] += 1
        return counts

    def _clear_simulator(self):
        if "spikes" in self._volley:  # the recorder keeps growing; what was handed out is skipped
            self._spikes_cleared = len(self._volley["spikes"][0].spikes()[0])

    def _reset(self):
        self._spikes_cleared = 0  # reset() empties the recorders
