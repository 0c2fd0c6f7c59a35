"""The README's Python snippet runs as printed and gives a sensible network: the CUBA network's
excitatory population fires at a few hertz (Brette et al. 2007 report about 6 Hz for this
model; an earlier snippet without inhibition ran away at 123 Hz)."""

import contextlib
import io
import pathlib
import re
import sys

from volley_test_support import require

require("numpy", "the volley module needs NumPy")
readme = pathlib.Path(__file__).resolve().parents[2] / "README.md"
blocks = re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)
if len(blocks) != 1:
    print(f"expected one Python block in {readme}, found {len(blocks)}")
    sys.exit(1)
out = io.StringIO()
scope = {}
with contextlib.redirect_stdout(out):
    exec(compile(blocks[0], str(readme), "exec"), scope)
rate = scope["spikes"].mean_rate_hz
print(out.getvalue().strip())
if not 3.0 <= rate <= 10.0:
    print(f"the README's network fires at {rate:.2f} Hz, outside 3-10 Hz")
    sys.exit(1)
if f"{rate:.2f} Hz" not in out.getvalue():
    print("the snippet does not print its rate")
    sys.exit(1)
print(f"README snippet: {rate:.2f} Hz")
