"""volley.CartpoleTask and volley.evolve (docs/control.md): a small RISP-1+ network of our own,
run through episodes by the library, acts as the same policy written here in Python with the
cart-pole equations written out independently (and, where Gymnasium is installed, stepped by
Gymnasium's own CartPole-v1); its fitness is the mean share of the training episodes survived;
EONS gives the same result on 1 and 2 threads."""

import math

from volley_test_support import check, volley_module

volley = volley_module()

PROC = volley.risp_preset("risp-1+")
check(PROC["max_delay"] == 15 and PROC["min_weight"] == 1, f"risp-1+ {PROC}")
check(volley.cartpole_settings() == ["easy", "medium", "hard", "hardest"], f"{volley.cartpole_settings()}")

# theta+ (5) and theta_dot+ (7) to "right" (9), theta- (4) and theta_dot- (6) to "left" (8).
NET = {
    "Properties": {
        "node_properties": [{"name": "Threshold", "type": 73, "index": 0, "size": 1, "min_value": 1, "max_value": 1}],
        "edge_properties": [{"name": "Weight", "type": 73, "index": 0, "size": 1, "min_value": 1, "max_value": 1},
                            {"name": "Delay", "type": 73, "index": 1, "size": 1, "min_value": 1, "max_value": 15}],
        "network_properties": []},
    "Nodes": [{"id": i, "values": [1]} for i in range(10)],
    "Edges": [{"from": 5, "to": 9, "values": [1, 1]}, {"from": 7, "to": 9, "values": [1, 2]},
              {"from": 4, "to": 8, "values": [1, 1]}, {"from": 6, "to": 8, "values": [1, 2]}],
    "Inputs": list(range(8)), "Outputs": [8, 9], "Network_Values": [], "Associated_Data": {"proc_params": PROC}}

RANGES = [2.4, 2.0, 0.209, 2.0]


def step(s, force):
    """Gymnasium CartPole-v1's equations, explicit Euler, float64."""
    x, xd, th, thd = s
    total, pml = 1.1, 0.05
    c, si = math.cos(th), math.sin(th)
    temp = (force + pml * thd * thd * si) / total
    thacc = (9.8 * si - c * temp) / (0.5 * (4.0 / 3.0 - 0.1 * c * c / total))
    xacc = temp - pml * thacc * c / total
    return (x + 0.02 * xd, xd + 0.02 * xacc, th + 0.02 * thd, thd + 0.02 * thacc)


def policy(s):
    """The flip-flop counts of theta and theta_dot, compared: 1 (right) or 0 (left)."""
    n = [min(8, math.ceil(8 * abs(v) / r)) for v, r in zip(s, RANGES)]
    plus = (n[2] if s[2] > 0 else 0) + (n[3] if s[3] > 0 else 0)
    minus = (n[2] if s[2] <= 0 else 0) + (n[3] if s[3] <= 0 else 0)
    return 1 if plus > minus else 0


def failed(s):
    return abs(s[0]) > 2.4 or abs(s[2]) > 12 * 2 * math.pi / 360


task = volley.CartpoleTask("easy", training_episodes=4, training_steps=1000, seed=3)
total = 0
for start in task.training_starts():
    e = task.episode(NET, start, 1000)
    s, steps = tuple(start), 0
    for k in range(1000):
        a = policy(s)
        check(e["actions"][k] == a, f"start {start} step {k}: action {e['actions'][k]}, policy {a}")
        s = step(s, 10.0 if a == 1 else -10.0)
        if failed(s):
            break
        steps += 1
    check(e["steps"] == steps, f"start {start}: {e['steps']} steps, policy {steps}")
    total += steps
check(abs(task.fitness(NET) - total / 4000) < 1e-12, f"fitness {task.fitness(NET)} vs {total / 4000}")

try:  # Gymnasium itself, an optional peer: the same states step by step
    import gymnasium
    env = gymnasium.make("CartPole-v1").unwrapped
    env.reset(seed=0)
    start = task.test_starts()[0]
    e = task.episode(NET, start, 200)
    env.state = list(start)
    for k in range(len(e["actions"]) - 1):
        obs, *_ = env.step(e["actions"][k])
        ref = e["states"][k + 1]
        check(all(abs(a - b) < 1e-5 for a, b in zip(obs, ref)), f"step {k}: Gymnasium {obs}, Volley {ref}")
    print("Gymnasium CartPole-v1: the same states")
except ImportError:
    print("Gymnasium not installed: the Python equations alone")

small = volley.CartpoleTask("easy", training_episodes=2, training_steps=200, seed=1)
one = volley.evolve(small, generations=4, seed=9, threads=1, population=16)
two = volley.evolve(small, generations=4, seed=9, threads=2, population=16)
check(one["history"] == two["history"], "the same history on 1 and 2 threads")
check(one["best"].to_dict() == two["best"].to_dict(), "the same best network")
check(abs(small.fitness(one["best"]) - one["best_fitness"]) < 1e-12, "the best network's fitness")
print("volley.CartpoleTask and volley.evolve: OK")
