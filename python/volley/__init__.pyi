from ._volley import *  # noqa: F401,F403
from ._volley import __version__ as __version__
