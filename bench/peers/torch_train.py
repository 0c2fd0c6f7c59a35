#!/usr/bin/env python3
"""Throughput peer for `volley train`: the same reference CNN, batch and thread count in PyTorch.

Runs when python3-torch (Debian, 1.13) is installed and exits 0 with a "skipped" line otherwise.
Only training throughput is measured (images/s over --steps optimiser steps after a warm-up), on
random data of Fashion-MNIST's shape, so no dataset reader is needed.

  python3 bench/peers/torch_train.py --batch 128 --threads 2 --steps 60 [--json]
"""
import argparse
import json
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    try:
        import torch
        from torch import nn
    except ImportError:
        print("torch peer: skipped (python3-torch is not installed; scripts/setup --peers)")
        return 0
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    # volley's "reference": conv(32,3x3)-BN-ReLU-maxpool2, conv(64,3x3)-BN-ReLU-maxpool2,
    # dense(128)-ReLU, Dropout(0.25), dense(10); Keras BN defaults (eps 1e-3, momentum 0.99).
    model = nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.BatchNorm2d(32, eps=1e-3, momentum=0.01), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3), nn.BatchNorm2d(64, eps=1e-3, momentum=0.01), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 5 * 5, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.CrossEntropyLoss()
    x = torch.rand(args.batch, 1, 28, 28)
    y = torch.randint(0, 10, (args.batch,))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    for _ in range(5):
        step()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        step()
    dt = time.perf_counter() - t0
    ips = args.steps * args.batch / dt
    result = {"peer": "torch", "version": torch.__version__, "batch": args.batch,
              "threads": args.threads, "steps": args.steps, "images_per_s": ips}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"torch peer: torch {torch.__version__}, batch {args.batch}, {args.threads} threads: "
              f"{ips:.0f} training images/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
