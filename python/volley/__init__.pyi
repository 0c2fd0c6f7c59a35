from ._volley import *  # noqa: F401,F403
from ._volley import __version__ as __version__

import numpy as np
import numpy.typing as npt

def spike_trains(recorder: SpikeRecorder) -> list[npt.NDArray[np.float64]]: ...
