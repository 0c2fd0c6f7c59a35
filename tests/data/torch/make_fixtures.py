#!/usr/bin/env python3
"""Writes tests/data/torch/torch_export.h5 with convert/tools/export_torch.py from a real
PyTorch model (pip install torch h5py; run: python3 tests/data/torch/make_fixtures.py).
The model covers what the exporter maps: Conv2d with padding='same' (even kernel), dilation and
groups, BatchNorm2d/1d with non-trivial running statistics, MaxPool2d, asymmetric ZeroPad2d,
AvgPool2d, Flatten, Linear, Dropout and a final Softmax (removed). /reference/logits are
PyTorch's own (pre-softmax) outputs for /reference/x.
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "convert", "tools"))
from export_torch import export  # noqa: E402

torch.manual_seed(20261130)
model = nn.Sequential(
    nn.Conv2d(2, 4, (2, 3), padding="same"),
    nn.BatchNorm2d(4),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.ZeroPad2d((1, 0, 2, 1)),  # left, right, top, bottom
    nn.Conv2d(4, 6, 3, stride=(1, 2), dilation=(2, 1), groups=2),
    nn.ReLU(),
    nn.AvgPool2d(2, stride=1),
    nn.Sequential(nn.Flatten(), nn.Linear(6 * 4 * 1, 7)),
    nn.BatchNorm1d(7),
    nn.ReLU(),
    nn.Dropout(0.2),
    nn.Linear(7, 3),
    nn.Softmax(dim=1),
)
with torch.no_grad():
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.3, 2.0)
            m.weight.uniform_(0.5, 1.5)
            m.bias.uniform_(-0.5, 0.5)
model.eval()
x = np.random.default_rng(1).uniform(0, 1, (5, 2, 12, 11)).astype(np.float32)
export(model, os.path.join(HERE, "torch_export.h5"), (2, 12, 11), reference_x=x)
print("torch", torch.__version__)
