#!/usr/bin/env python3
"""Writes a PyTorch nn.Sequential CNN in the Volley HDF5 layout (docs/conversion-formats.md),
which `volley convert` reads. Needs torch (to walk the model) and h5py; nothing from Volley.

As a script:
    python3 export_torch.py MODEL.pt OUT.h5 --input-shape 1,28,28 [--reference X.npy]
where MODEL.pt holds a whole pickled model (torch.save(model, ...)) and X.npy optional NCHW
float32 images whose logits are stored as /reference for Volley to check itself against.
As a module:
    from export_torch import export
    export(model, "out.h5", input_shape=(1, 28, 28), reference_x=x)

Supported modules: Conv2d (stride, padding int/tuple/'same'/'valid', dilation, groups, bias),
Linear, AvgPool2d and MaxPool2d (no padding), Flatten, ReLU, BatchNorm1d/2d, Dropout*,
ZeroPad2d, Identity, and a Softmax/LogSoftmax as the last module (removed: Volley works on
logits). Anything else raises ValueError naming the module and the closest supported one.
A ReLU right after a Conv2d or Linear becomes that layer's `activation = "relu"`.
Nested nn.Sequential blocks are flattened in order.
"""
import argparse

import h5py
import numpy as np


def _pair(v):
    return (int(v), int(v)) if isinstance(v, int) else (int(v[0]), int(v[1]))


def _modules(model):
    import torch.nn as nn
    for m in model.children() if isinstance(model, nn.Sequential) else [model]:
        if isinstance(m, nn.Sequential):
            yield from _modules(m)
        else:
            yield m


def _str(group, name, value):
    group.attrs.create(name, value, dtype=h5py.string_dtype())


def export(model, path, input_shape, reference_x=None):
    import torch
    import torch.nn as nn

    modules = list(_modules(model))
    names, kinds = [], []
    with h5py.File(path, "w") as f:
        _str(f, "format", "volley-cnn-v1")
        _str(f, "source", "convert/tools/export_torch.py, torch " + torch.__version__)
        _str(f, "tensor_layout", "NCHW activations; conv weight OIHW; dense weight (out,in); flatten order CHW")
        f.attrs["input_shape_chw"] = np.asarray(input_shape, dtype=np.int32)
        layers = f.create_group("layers")
        for i, m in enumerate(modules):
            is_last = i + 1 == len(modules)
            name = f"{type(m).__name__.lower()}_{i}"
            if isinstance(m, nn.ReLU) and kinds and kinds[-1] in ("conv2d", "dense") \
                    and layers[names[-1]].attrs["activation"] == "linear":
                _str(layers[names[-1]], "activation", "relu")
                continue
            if isinstance(m, (nn.Softmax, nn.LogSoftmax)) and is_last:
                continue
            g = layers.create_group(name)
            w = lambda key, t: g.create_dataset(key, data=t.detach().cpu().numpy().astype(np.float32))
            if isinstance(m, nn.Conv2d):
                kind = "conv2d"
                kh, kw = _pair(m.kernel_size)
                dh, dw = _pair(m.dilation)
                if isinstance(m.padding, str):
                    if m.padding == "valid":
                        pad = (0, 0, 0, 0)
                    else:  # 'same' (stride 1): PyTorch puts the odd pixel at the end
                        th, tw = dh * (kh - 1), dw * (kw - 1)
                        pad = (th // 2, th - th // 2, tw // 2, tw - tw // 2)
                else:
                    ph, pw = _pair(m.padding)
                    pad = (ph, ph, pw, pw)
                if m.padding_mode != "zeros":
                    raise ValueError(f"{name}: Conv2d padding_mode '{m.padding_mode}' is not supported; use 'zeros'")
                _str(g, "activation", "linear")
                g.attrs["in_channels"] = np.int64(m.in_channels)
                g.attrs["out_channels"] = np.int64(m.out_channels)
                g.attrs["kernel_hw"] = np.asarray([kh, kw], np.int32)
                g.attrs["stride"] = np.asarray(_pair(m.stride), np.int32)
                g.attrs["padding"] = np.asarray(pad, np.int32)
                g.attrs["dilation"] = np.asarray((dh, dw), np.int32)
                g.attrs["groups"] = np.int64(m.groups)
                w("weight", m.weight)
                if m.bias is not None:
                    w("bias", m.bias)
            elif isinstance(m, nn.Linear):
                kind = "dense"
                _str(g, "activation", "linear")
                g.attrs["in_features"] = np.int64(m.in_features)
                g.attrs["out_features"] = np.int64(m.out_features)
                w("weight", m.weight)
                if m.bias is not None:
                    w("bias", m.bias)
            elif isinstance(m, (nn.AvgPool2d, nn.MaxPool2d)):
                kind = "avgpool2d" if isinstance(m, nn.AvgPool2d) else "maxpool2d"
                if _pair(m.padding) != (0, 0) or m.ceil_mode:
                    raise ValueError(f"{name}: {type(m).__name__} with padding or ceil_mode is not "
                                     "supported; put an nn.ZeroPad2d before it")
                if isinstance(m, nn.MaxPool2d) and _pair(m.dilation) != (1, 1):
                    raise ValueError(f"{name}: MaxPool2d with dilation is not supported")
                g.attrs["kernel"] = np.asarray(_pair(m.kernel_size), np.int32)
                g.attrs["stride"] = np.asarray(_pair(m.stride or m.kernel_size), np.int32)
            elif isinstance(m, nn.Flatten):
                kind = "flatten"
                _str(g, "order", "CHW")
            elif isinstance(m, nn.ReLU):
                kind = "relu"
            elif isinstance(m, (nn.Dropout, nn.Dropout2d, nn.AlphaDropout)):
                kind = "dropout"
                g.attrs["rate"] = float(m.p)
            elif isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                kind = "batch_norm"
                g.attrs["epsilon"] = float(m.eps)
                c = m.num_features
                w("gamma", m.weight if m.affine else torch.ones(c))
                w("beta", m.bias if m.affine else torch.zeros(c))
                w("running_mean", m.running_mean)
                w("running_var", m.running_var)
            elif isinstance(m, nn.ZeroPad2d):
                kind = "zero_pad"
                left, right, top, bottom = m.padding
                g.attrs["padding"] = np.asarray((top, bottom, left, right), np.int32)
            elif isinstance(m, nn.Identity):
                kind = "identity"
            else:
                hint = "use nn.ReLU" if "LU" in type(m).__name__ or "Tanh" in type(m).__name__ \
                    or "Sigmoid" in type(m).__name__ else "see docs/conversion-formats.md for the supported modules"
                raise ValueError(f"module {i} ({type(m).__name__}) is not supported; {hint}")
            _str(g, "type", kind)
            names.append(name)
            kinds.append(kind)
        f.attrs["layer_order"] = np.asarray([n.encode() for n in names])
        if reference_x is not None:
            model.eval()
            body = modules[:-1] if isinstance(modules[-1], (nn.Softmax, nn.LogSoftmax)) else modules
            with torch.no_grad():
                logits = nn.Sequential(*body)(torch.as_tensor(reference_x, dtype=torch.float32))
            ref = f.create_group("reference")
            ref["x"] = np.asarray(reference_x, np.float32)
            ref["logits"] = logits.numpy().astype(np.float32)


def main():
    import torch
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", help="torch.save(model) file of an nn.Sequential")
    p.add_argument("out", help="the Volley HDF5 file to write")
    p.add_argument("--input-shape", required=True, help="C,H,W of one image, e.g. 1,28,28")
    p.add_argument("--reference", help=".npy of NCHW images to store with their logits")
    a = p.parse_args()
    model = torch.load(a.model, weights_only=False)
    x = np.load(a.reference) if a.reference else None
    export(model, a.out, tuple(int(v) for v in a.input_shape.split(",")), x)


if __name__ == "__main__":
    main()
