#!/usr/bin/env python3
"""Writes the Keras fixtures of tests/unit/test_cnn_readers.cpp with real Keras.

Run with tensorflow-cpu and tf-keras installed (pip install tensorflow-cpu tf-keras h5py):
    python3 tests/data/keras/make_fixtures.py
The models are written by tf.keras 2.x (the `tf_keras` package, the Keras 2 API that
TensorFlow >= 2.16 ships separately), and one by Keras 3 (its legacy .h5 format). Each file
gets its reference inputs and logits, computed by Keras itself, in `<name>.ref.h5`
(x in NCHW, logits before any softmax), so that the C++ tests need no Python.
The bad-input files are copies of real Keras files altered with h5py (named bad_*.h5).
The old-Keras fixtures (Keras 1.x, the Theano backend) come from make_legacy_fixtures.py.
Weights are random (seeded), with BatchNorm statistics set to non-trivial values.
"""
import json
import os
import shutil

import h5py
import numpy as np
import tf_keras as keras

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261130)


def randomise(model, scale=0.5):
    for layer in model.layers:
        ws = layer.get_weights()
        if not ws:
            continue
        new = []
        for w, v in zip(layer.weights, ws):
            name = (w.path if hasattr(w, "path") else w.name).split("/")[-1].split(":")[0]
            if name == "moving_variance":
                new.append(rng.uniform(0.5, 2.0, v.shape).astype("float32"))
            elif name == "gamma":
                new.append(rng.uniform(0.5, 1.5, v.shape).astype("float32"))
            else:
                new.append((rng.standard_normal(v.shape) * scale).astype("float32"))
        layer.set_weights(new)


def write_reference(name, x_nchw, logits):
    with h5py.File(os.path.join(HERE, name + ".ref.h5"), "w") as f:
        f["x"] = x_nchw.astype("float32")
        f["logits"] = logits.astype("float32")


def channels_first_maxpool_same():
    """channels_first, 'same' conv padding, MaxPooling2D 'valid' and 'same' (odd size)."""
    def build(fmt):
        shape = (2, 13, 13) if fmt == "channels_first" else (13, 13, 2)
        return keras.Sequential([
            keras.layers.InputLayer(input_shape=shape),
            keras.layers.Conv2D(4, 3, padding="same", activation="relu", data_format=fmt, name="conv_a"),
            keras.layers.MaxPooling2D(2, padding="same", data_format=fmt, name="pool_same"),
            keras.layers.Conv2D(6, (3, 2), strides=(2, 1), padding="same", activation="relu",
                                data_format=fmt, name="conv_b"),
            keras.layers.MaxPooling2D(2, data_format=fmt, name="pool_valid"),
            keras.layers.Flatten(data_format=fmt, name="flatten"),
            keras.layers.Dense(5, name="logits"),
        ])
    cf = build("channels_first")
    randomise(cf)
    cf.save(os.path.join(HERE, "cf_maxpool_same.h5"))
    x = rng.uniform(0, 1, (4, 2, 13, 13)).astype("float32")
    try:
        logits = cf.predict(x, verbose=0)
    except Exception:  # TF's CPU kernels lack NCHW max pooling: run the channels_last twin
        cl = build("channels_last")
        cl.set_weights(cf.get_weights())  # kernels are HWIO in both; Flatten is HWC in both
        logits = cl.predict(np.transpose(x, (0, 2, 3, 1)), verbose=0)
    write_reference("cf_maxpool_same", x, logits)


def channels_last_batchnorm():
    """channels_last Sequential with BatchNorm after Conv2D (no bias) and Dense, softmax output."""
    m = keras.Sequential([
        keras.layers.InputLayer(input_shape=(10, 10, 3)),
        keras.layers.Conv2D(5, 3, use_bias=False, name="conv1"),
        keras.layers.BatchNormalization(name="bn1"),
        keras.layers.ReLU(name="relu1"),
        keras.layers.AveragePooling2D(2, name="pool1"),
        keras.layers.Conv2D(6, 2, name="conv2"),
        keras.layers.BatchNormalization(epsilon=1e-2, name="bn2"),
        keras.layers.Activation("relu", name="act2"),
        keras.layers.Flatten(name="flatten"),
        keras.layers.Dense(8, name="fc1"),
        keras.layers.BatchNormalization(name="bn3"),
        keras.layers.Activation("relu", name="act3"),
        keras.layers.Dropout(0.3, name="drop"),
        keras.layers.Dense(4, activation="softmax", name="out"),
    ])
    randomise(m)
    m.save(os.path.join(HERE, "cl_batchnorm.h5"))
    x = rng.uniform(0, 1, (4, 10, 10, 3)).astype("float32")
    features = keras.Model(m.inputs, m.get_layer("drop").output).predict(x, verbose=0)
    w, b = m.get_layer("out").get_weights()
    logits = features.astype("float64") @ w.astype("float64") + b  # the softmax's input
    write_reference("cl_batchnorm", np.transpose(x, (0, 3, 1, 2)), logits)


def functional_residual():
    """Functional model: asymmetric ZeroPadding2D, a residual Add, Concatenate, global pooling."""
    inp = keras.Input((9, 9, 3), name="image")
    p = keras.layers.ZeroPadding2D(((1, 0), (0, 1)), name="pad")(inp)
    c1 = keras.layers.Conv2D(4, 3, strides=2, activation="relu", name="stem")(p)
    c2 = keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="res_a")(c1)
    c3 = keras.layers.Conv2D(4, 3, padding="same", name="res_b")(c2)
    s = keras.layers.Add(name="add")([c1, c3])
    r = keras.layers.ReLU(name="add_relu")(s)
    br = keras.layers.Conv2D(2, 1, activation="relu", dilation_rate=1, name="branch")(c1)
    cat = keras.layers.Concatenate(name="concat")([r, br])
    g = keras.layers.GlobalAveragePooling2D(name="gap")(cat)
    out = keras.layers.Dense(3, name="logits")(g)
    m = keras.Model(inp, out, name="resnet_tiny")
    randomise(m)
    m.save(os.path.join(HERE, "functional_residual.h5"))
    x = rng.uniform(0, 1, (4, 9, 9, 3)).astype("float32")
    write_reference("functional_residual", np.transpose(x, (0, 3, 1, 2)), m.predict(x, verbose=0))


def save_weights_with_json():
    """save_weights HDF5 (weights at the root) plus model.to_json(); dilation and strides."""
    m = keras.Sequential([
        keras.layers.InputLayer(input_shape=(12, 12, 1)),
        keras.layers.Conv2D(3, 3, dilation_rate=2, activation="relu", name="dilated"),
        keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu", name="strided"),
        keras.layers.Flatten(name="flatten"),
        keras.layers.Dense(6, activation="relu", name="hidden"),
        keras.layers.Dense(3, name="out"),
    ])
    randomise(m)
    m.save_weights(os.path.join(HERE, "weights_only.h5"))
    with open(os.path.join(HERE, "weights_only.json"), "w") as f:
        f.write(m.to_json())
    x = rng.uniform(0, 1, (4, 12, 12, 1)).astype("float32")
    write_reference("weights_only", np.transpose(x, (0, 3, 1, 2)), m.predict(x, verbose=0))


def depthwise_separable():
    """DepthwiseConv2D (depth_multiplier 2) and SeparableConv2D, tf.keras 2.x."""
    m = keras.Sequential([
        keras.layers.InputLayer(input_shape=(9, 9, 3)),
        keras.layers.DepthwiseConv2D(3, depth_multiplier=2, padding="same", activation="relu", name="dw"),
        keras.layers.SeparableConv2D(5, 3, strides=2, activation="relu", name="sep"),
        keras.layers.Flatten(name="flatten"),
        keras.layers.Dense(3, name="out"),
    ])
    randomise(m)
    m.save(os.path.join(HERE, "depthwise_separable.h5"))
    x = rng.uniform(0, 1, (4, 9, 9, 3)).astype("float32")
    write_reference("depthwise_separable", np.transpose(x, (0, 3, 1, 2)), m.predict(x, verbose=0))


def keras3_functional():
    """Keras 3 (the `keras` package), its legacy .h5 format: weight names without ':0',
    Keras 3 inbound_nodes, InputLayer batch_shape; BatchNorm after a 1x1 conv inside a residual."""
    import keras as keras3
    keras3.utils.set_random_seed(5)
    inp = keras3.Input((8, 8, 2), name="image")
    c = keras3.layers.Conv2D(3, 3, padding="same", activation="relu", name="c1")(inp)
    b = keras3.layers.BatchNormalization(name="bn")(keras3.layers.Conv2D(3, 1, name="c2")(c))
    a = keras3.layers.Add(name="add")([c, b])
    r = keras3.layers.ReLU(name="relu")(a)
    f = keras3.layers.Flatten(name="flat")(keras3.layers.MaxPooling2D(2, name="pool")(r))
    out = keras3.layers.Dense(4, activation="softmax", name="out")(f)
    m = keras3.Model(inp, out)
    randomise(m)
    m.save(os.path.join(HERE, "keras3_functional.h5"))
    x = rng.uniform(0, 1, (4, 8, 8, 2)).astype("float32")
    features = np.asarray(keras3.Model(inp, f).predict(x, verbose=0), "float64")
    w, bias = m.get_layer("out").get_weights()
    write_reference("keras3_functional", np.transpose(x, (0, 3, 1, 2)), features @ w + bias)


def keras22_style_imitation():
    """NOT written by Keras: Keras 2.2.x itself needs TensorFlow 1.x and Python <= 3.7, which pip
    cannot install here. This h5py file imitates what Keras 2.2.4 writes, using the weights of
    the real tf.keras file weights_only.h5 (so weights_only.ref.h5 holds its Keras logits):
    root `model_config` as a fixed-length byte string with class_name "Model" and 2.2-style
    inbound_nodes [[["name", 0, 0, {}]]], `layer_names` split into `layer_names0`/`layer_names1`
    (as Keras does for attributes over 64 KiB), fixed-length `weight_names` with ':0'."""
    with open(os.path.join(HERE, "weights_only.json")) as f:
        seq = json.load(f)
    layers, previous = [], None
    for layer in seq["config"]["layers"]:
        cfg = dict(layer["config"])
        name = cfg["name"]
        entry = {"name": name, "class_name": layer["class_name"], "config": cfg,
                 "inbound_nodes": [] if previous is None else [[[previous, 0, 0, {}]]]}
        layers.append(entry)
        previous = name
    model = {"class_name": "Model", "config": {"name": "model_1", "layers": layers,
             "input_layers": [[layers[0]["name"], 0, 0]], "output_layers": [[previous, 0, 0]]}}
    src = h5py.File(os.path.join(HERE, "weights_only.h5"), "r")
    with h5py.File(os.path.join(HERE, "keras22_style.h5"), "w") as f:
        f.attrs["keras_version"] = np.bytes_("2.2.4")
        f.attrs["backend"] = np.bytes_("tensorflow")
        f.attrs["model_config"] = np.bytes_(json.dumps(model).encode("utf8"))
        g = f.create_group("model_weights")
        names = [l["name"] for l in layers]
        g.attrs["layer_names0"] = np.array([n.encode() for n in names[:3]])
        g.attrs["layer_names1"] = np.array([n.encode() for n in names[3:]])
        for n in names:
            lg = g.create_group(n)
            if n not in src:
                lg.attrs["weight_names"] = np.array([], dtype="S1")
                continue
            wn = [w.decode() if isinstance(w, bytes) else w for w in src[n].attrs["weight_names"]]
            lg.attrs["weight_names"] = np.array([w.encode() for w in wn])
            for w in wn:
                lg[w] = src[n][w][...]


def unsupported_layer():
    m = keras.Sequential([
        keras.layers.InputLayer(input_shape=(6, 6, 1)),
        keras.layers.Conv2D(2, 3, name="conv"),
        keras.layers.LeakyReLU(name="leaky"),
        keras.layers.Flatten(name="flatten"),
        keras.layers.Dense(2, name="out"),
    ])
    m.save(os.path.join(HERE, "bad_unsupported_layer.h5"))


def altered_copies():
    src = os.path.join(HERE, "weights_only.h5")
    # a NaN weight
    dst = os.path.join(HERE, "bad_nan_weight.h5")
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        k = f["hidden/hidden/kernel:0"]
        v = k[...]
        v[3, 1] = np.nan
        k[...] = v
    # a Dense kernel of the wrong shape
    dst = os.path.join(HERE, "bad_shape_mismatch.h5")
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        del f["out/out/kernel:0"]
        f["out/out/kernel:0"] = np.zeros((5, 3), "float32")
    # a missing bias dataset
    dst = os.path.join(HERE, "bad_missing_weight.h5")
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        del f["strided/strided/bias:0"]


if __name__ == "__main__":
    channels_first_maxpool_same()
    channels_last_batchnorm()
    functional_residual()
    save_weights_with_json()
    keras3_functional()
    keras22_style_imitation()
    unsupported_layer()
    altered_copies()
    depthwise_separable()
    print("keras", keras.__version__)
