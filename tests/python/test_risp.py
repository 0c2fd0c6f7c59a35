"""volley.Processor (RISP) against the reference processor_tool's output kept in
tests/data/risp-vectors/01_chain_delays (commands.txt, expected.txt): the same spikes in, the
same output spike times and counts out, through the TENNLab-like Python API."""

import json
import os

from volley_test_support import check, data_dir, volley_module

volley = volley_module()

case = os.path.join(data_dir(), "risp-vectors", "01_chain_delays")
net = volley.TennlabNetwork.load(os.path.join(case, "network.json"))
proc = volley.Processor("risp", net.associated_data["proc_params"])
proc.load_network(net)
check(net.outputs == [31, 100], f"outputs {net.outputs}")

# commands.txt: AS 2 0 1 / RUN 15; expected.txt: node 31 fires at 10, node 100 at 4.
proc.apply_spikes([volley.Spike(2, 0, 1)])
proc.run(15)
check(proc.output_vectors() == [[10.0], [4.0]], f"output vectors {proc.output_vectors()}")
check(proc.output_counts() == [1, 1] and proc.output_last_fires() == [10.0, 4.0], "counts and last fires")
check(proc.total_steps() == 15, f"time {proc.total_steps()}")

# AS 2 0 1 2 2 1 / RUN 8: node 100 fires at 4 and 6, node 31 not yet.
proc.apply_spikes([(2, 0, 1), (2, 2, 1)])
proc.run(8)
check(proc.output_vectors() == [[], [4.0, 6.0]], f"second run {proc.output_vectors()}")
proc.run(6)  # RUN 6: node 31 fires at 2 and 4
check(proc.output_vectors() == [[2.0, 4.0], []] and proc.total_steps() == 29, f"third run {proc.output_vectors()}")
costs = proc.costs()
check(isinstance(costs, dict) and costs, "costs() as a dict")

with open(os.path.join(case, "expected.txt")) as f:
    expected = f.read()
check("node 31(sink) spike times: 2.0 4.0" in expected, "the reference output this test transcribes")

for model in ("danna2", "danna"):
    p = volley.Processor(model, None, proc_name="risp")
    check(p.name != "", f"{model} processor made")
print("risp: output spike times of three runs equal the reference processor_tool's")
