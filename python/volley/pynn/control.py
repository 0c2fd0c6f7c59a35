"""setup, end, run, reset and the state queries of the Volley backend."""

from pyNN import common
from pyNN.common.control import DEFAULT_MAX_DELAY, DEFAULT_MIN_DELAY, DEFAULT_TIMESTEP
from pyNN.recording import get_io

from . import simulator


def setup(timestep=DEFAULT_TIMESTEP, min_delay=DEFAULT_MIN_DELAY, **extra_params):
    """Starts a new network. Extra parameters: threads (OpenMP threads, default 1) and seed
    (Volley's random streams: Poisson sources, default 42)."""
    common.setup(timestep, min_delay, **extra_params)
    simulator.state.clear()
    simulator.state.dt = timestep
    simulator.state.min_delay = min_delay
    simulator.state.max_delay = extra_params.get("max_delay", DEFAULT_MAX_DELAY)
    simulator.state.threads = int(extra_params.get("threads", 1))
    simulator.state.seed = int(extra_params.get("seed", extra_params.get("rng_seed", 42)))
    return 0


def end(compatible_output=True):
    for population, variables, filename in simulator.state.write_on_end:
        population.write_data(get_io(filename), variables)
    simulator.state.write_on_end = []


run, run_until = common.build_run(simulator)
run_for = run
reset = common.build_reset(simulator)
initialize = common.initialize
get_current_time, get_time_step, _get_min_delay, _get_max_delay, num_processes, rank = \
    common.build_state_queries(simulator)


def get_min_delay():
    """The minimum delay [ms], a number as pyNN.nest gives it: the value given to setup(), or
    with min_delay='auto' the shortest delay of the connections made so far (dt when none)."""
    d = simulator.state.min_delay
    if d != "auto":
        return float(d)
    delays = simulator.state.delays()
    return float(delays.min()) if delays.size else float(simulator.state.dt)


def get_max_delay():
    """The maximum delay [ms]: the value given to setup(max_delay=...), or with 'auto' the
    longest delay of the connections made so far (dt when none)."""
    d = simulator.state.max_delay
    if d != "auto":
        return float(d)
    delays = simulator.state.delays()
    return float(delays.max()) if delays.size else float(simulator.state.dt)
