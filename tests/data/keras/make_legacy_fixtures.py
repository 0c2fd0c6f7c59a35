#!/usr/bin/env python3
"""Writes the old-Keras fixtures of tests/unit/test_keras_legacy.cpp with h5py and numpy only.

    apt-get install -y python3-h5py python3-numpy
    python3 tests/data/keras/make_legacy_fixtures.py

Keras 1.x and Keras 2.x on Theano cannot be installed here (they need Python <= 3.6 and
Theano), so these files are NOT written by Keras: they are laid out as those versions wrote
them, following keras-team/keras:
- Keras 1.2.2 keras/models.py save_model: root attributes `keras_version` ("1.2.2"),
  `model_config` and `training_config`, no `backend`; `model_weights` with `layer_names` only
  (Keras 1 writes no version or backend there). Sequential `config` is the list of layers;
  Functional `Model` layers have 3-element inbound nodes [name, node, tensor]. Weight names are
  the backend variables' names: '<layer>_W', '<layer>_b' on Theano, '<layer>_W:0' on
  TensorFlow; Convolution2D 'th' kernels are (nb_filter, stack, nb_row, nb_col), 'tf' kernels
  (nb_row, nb_col, stack, nb_filter); BatchNormalization stores gamma, beta, running_mean,
  running_std (a variance since Keras 1.1, as K.batch_normalization uses it).
- Keras 2.0.8 keras/models.py save_model and keras/engine/topology.py
  save_weights_to_hdf5_group on the Theano backend: `keras_version` "2.0.8" and `backend`
  "theano" on the root and on `model_weights`; Theano variable names carry the layer's name
  scope without ':0' ('conv2d_1/kernel'), so the datasets are model_weights/conv2d_1/conv2d_1/
  kernel; kernels are (rows, cols, in, out) for a true convolution.
The optimizer state (`optimizer_weights`) is left out: Volley never reads it.
Reference logits (before the softmax) come from the numpy forward passes below, written from
the backends' definitions and independent of Volley: Theano's conv2d convolves (the kernel is
applied reversed) and pads 'same' as border_mode 'half' (k // 2 zeros on each side, the output
cut to ceil(in / stride)); TensorFlow correlates and pads 'same' with the odd pixel at the end.
Flatten is numpy's reshape of the tensor in the backend's memory order (NCHW for 'th' /
channels_first, NHWC for 'tf'). Each `<name>.ref.h5` holds x (NCHW) and logits.
"""
import json
import os
import shutil

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261201)


def normal(*shape, scale=0.5):
    return (rng.standard_normal(shape) * scale).astype("float32")


# ---- numpy forward passes (float64) ----

def pad_nchw(x, top, bottom, left, right):
    return np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))


def theano_conv2d(x, w_oihw, b, stride, border):
    """T.nnet.conv2d with filter_flip=True (a convolution): out[o, i, j] =
    sum_{c,u,v} x[c, i*s + u, j*s + v] * w[o, c, kh-1-u, kw-1-v], x padded by 'half' for 'same'."""
    o_n, c_n, kh, kw = w_oihw.shape
    n, _, h, wd = x.shape
    if border == "same":
        xp = pad_nchw(x, kh // 2, kh // 2, kw // 2, kw // 2)
    else:
        xp = x
    oh = (xp.shape[2] - kh) // stride[0] + 1
    ow = (xp.shape[3] - kw) // stride[1] + 1
    out = np.zeros((n, o_n, oh, ow))
    for u in range(kh):
        for v in range(kw):
            patch = xp[:, :, u:u + stride[0] * (oh - 1) + 1:stride[0], v:v + stride[1] * (ow - 1) + 1:stride[1]]
            out += np.einsum("nchw,oc->nohw", patch, w_oihw[:, :, kh - 1 - u, kw - 1 - v])
    if border == "same":  # keras theano_backend: keep the first ceil(in / s) outputs
        out = out[:, :, :(h + stride[0] - 1) // stride[0], :(wd + stride[1] - 1) // stride[1]]
    return out + b[None, :, None, None]


def tf_conv2d_nhwc(x, w_hwio, b, stride, padding):
    """tf.nn.conv2d (a correlation) on NHWC; 'same': total = max((ceil(in/s)-1)*s + k - in, 0),
    total // 2 before, the rest after."""
    kh, kw, _, o_n = w_hwio.shape
    n, h, wd, _ = x.shape
    if padding == "same":
        oh, ow = -(-h // stride[0]), -(-wd // stride[1])
        th = max((oh - 1) * stride[0] + kh - h, 0)
        tw = max((ow - 1) * stride[1] + kw - wd, 0)
        x = np.pad(x, ((0, 0), (th // 2, th - th // 2), (tw // 2, tw - tw // 2), (0, 0)))
    oh = (x.shape[1] - kh) // stride[0] + 1
    ow = (x.shape[2] - kw) // stride[1] + 1
    out = np.zeros((n, oh, ow, o_n))
    for u in range(kh):
        for v in range(kw):
            patch = x[:, u:u + stride[0] * (oh - 1) + 1:stride[0], v:v + stride[1] * (ow - 1) + 1:stride[1], :]
            out += np.einsum("nhwc,co->nhwo", patch, w_hwio[u, v])
    return out + b


def pool_nchw(x, k, fn):
    n, c, h, w = x.shape
    oh, ow = h // k, w // k
    return fn(x[:, :, :oh * k, :ow * k].reshape(n, c, oh, k, ow, k), axis=(3, 5))


def pool_nhwc(x, k, fn):
    n, h, w, c = x.shape
    oh, ow = h // k, w // k
    return fn(x[:, :oh * k, :ow * k, :].reshape(n, oh, k, ow, k, c), axis=(2, 4))


def relu(x):
    return np.maximum(x, 0)


# ---- the HDF5 layout ----

def json_bytes(obj):
    return np.bytes_(json.dumps(obj).encode("utf8"))


def write_weights(group, layer_names, weights):
    """model.save_weights_to_hdf5_group: `layer_names`, then per layer `weight_names` and one
    dataset per weight, named after it ('/' makes h5py create the nested groups)."""
    group.attrs["layer_names"] = np.array([n.encode("utf8") for n in layer_names])
    for name in layer_names:
        g = group.create_group(name)
        items = weights.get(name, [])
        g.attrs["weight_names"] = [w.encode("utf8") for w, _ in items]  # [] as Keras writes it
        for w, value in items:
            g.create_dataset(w, data=value)


def write_reference(name, x_nchw, logits):
    with h5py.File(os.path.join(HERE, name + ".ref.h5"), "w") as f:
        f["x"] = x_nchw.astype("float32")
        f["logits"] = logits.astype("float32")


def glorot():
    return {"class_name": "VarianceScaling",
            "config": {"scale": 1.0, "mode": "fan_avg", "distribution": "uniform", "seed": None}}


def keras2_conv(name, filters, k, strides, padding, activation, first_shape=None):
    cfg = {"name": name, "trainable": True}
    if first_shape is not None:
        cfg.update({"batch_input_shape": [None] + list(first_shape), "dtype": "float32"})
    cfg.update({"filters": filters, "kernel_size": list(k), "strides": list(strides),
                "padding": padding, "data_format": "channels_first", "dilation_rate": [1, 1],
                "activation": activation, "use_bias": True, "kernel_initializer": glorot(),
                "bias_initializer": {"class_name": "Zeros", "config": {}},
                "kernel_regularizer": None, "bias_regularizer": None,
                "activity_regularizer": None, "kernel_constraint": None, "bias_constraint": None})
    return {"class_name": "Conv2D", "config": cfg}


def keras2_dense(name, units, activation):
    return {"class_name": "Dense", "config": {
        "name": name, "trainable": True, "units": units, "activation": activation,
        "use_bias": True, "kernel_initializer": glorot(),
        "bias_initializer": {"class_name": "Zeros", "config": {}}, "kernel_regularizer": None,
        "bias_regularizer": None, "activity_regularizer": None, "kernel_constraint": None,
        "bias_constraint": None}}


def keras2_theano_lenet():
    """Keras 2.0.8, Theano backend, channels_first Sequential (a small LeNet): valid, stride-2
    'same' and even-kernel 'same' convolutions (where Theano pads the start, TensorFlow the end),
    MaxPooling2D, Flatten in CHW order, Dropout, softmax output."""
    shape = (1, 16, 16)
    layers = [
        keras2_conv("conv2d_1", 4, (5, 5), (1, 1), "valid", "relu", shape),
        {"class_name": "MaxPooling2D", "config": {"name": "max_pooling2d_1", "trainable": True,
                                                  "pool_size": [2, 2], "padding": "valid",
                                                  "strides": [2, 2], "data_format": "channels_first"}},
        keras2_conv("conv2d_2", 6, (3, 3), (2, 2), "same", "relu"),
        keras2_conv("conv2d_3", 5, (2, 2), (1, 1), "same", "relu"),
        {"class_name": "Flatten", "config": {"name": "flatten_1", "trainable": True}},
        keras2_dense("dense_1", 8, "relu"),
        {"class_name": "Dropout", "config": {"name": "dropout_1", "trainable": True, "rate": 0.5,
                                             "noise_shape": None, "seed": None}},
        keras2_dense("dense_2", 3, "softmax"),
    ]
    k1, b1 = normal(5, 5, 1, 4), normal(4)
    k2, b2 = normal(3, 3, 4, 6), normal(6)
    k3, b3 = normal(2, 2, 6, 5), normal(5)
    d1, e1 = normal(45, 8), normal(8)
    d2, e2 = normal(8, 3), normal(3)
    weights = {"conv2d_1": [("conv2d_1/kernel", k1), ("conv2d_1/bias", b1)],
               "conv2d_2": [("conv2d_2/kernel", k2), ("conv2d_2/bias", b2)],
               "conv2d_3": [("conv2d_3/kernel", k3), ("conv2d_3/bias", b3)],
               "dense_1": [("dense_1/kernel", d1), ("dense_1/bias", e1)],
               "dense_2": [("dense_2/kernel", d2), ("dense_2/bias", e2)]}
    names = [l["config"]["name"] for l in layers]
    path = os.path.join(HERE, "keras2_theano_lenet.h5")
    with h5py.File(path, "w") as f:
        f.attrs["keras_version"] = np.bytes_("2.0.8")
        f.attrs["backend"] = np.bytes_("theano")
        f.attrs["model_config"] = json_bytes({"class_name": "Sequential", "config": layers})
        f.attrs["training_config"] = json_bytes({
            "optimizer_config": {"class_name": "Adadelta",
                                 "config": {"lr": 1.0, "rho": 0.95, "decay": 0.0, "epsilon": 1e-08}},
            "loss": "categorical_crossentropy", "metrics": ["accuracy"],
            "sample_weight_mode": None, "loss_weights": None})
        g = f.create_group("model_weights")
        write_weights(g, names, weights)
        g.attrs["backend"] = np.bytes_("theano")
        g.attrs["keras_version"] = np.bytes_("2.0.8")
    # Keras 2's Theano backend turns the (rows, cols, in, out) kernel into (out, in, rows, cols)
    oihw = lambda k: np.transpose(k, (3, 2, 0, 1)).astype("float64")
    x = rng.uniform(0, 1, (4,) + shape)
    h = relu(theano_conv2d(x, oihw(k1), b1, (1, 1), "valid"))
    h = pool_nchw(h, 2, np.max)
    h = relu(theano_conv2d(h, oihw(k2), b2, (2, 2), "same"))
    h = relu(theano_conv2d(h, oihw(k3), b3, (1, 1), "same"))
    h = h.reshape(len(x), -1)
    h = relu(h @ d1 + e1)
    write_reference("keras2_theano_lenet", x, h @ d2 + e2)
    # The same file as written by a backend this reader does not know.
    bad = os.path.join(HERE, "bad_unknown_backend.h5")
    shutil.copy(path, bad)
    with h5py.File(bad, "r+") as f:
        f.attrs["backend"] = np.bytes_("mxnet")
        f["model_weights"].attrs["backend"] = np.bytes_("mxnet")


def keras1_base(name, first_shape=None):
    cfg = {"name": name, "trainable": True}
    if first_shape is not None:
        cfg.update({"batch_input_shape": [None] + list(first_shape), "input_dtype": "float32"})
    return cfg


def keras1_conv(name, nb_filter, k, subsample, border_mode, activation, ordering, first_shape=None):
    cfg = keras1_base(name, first_shape)
    cfg.update({"nb_filter": nb_filter, "nb_row": k[0], "nb_col": k[1], "init": "glorot_uniform",
                "activation": activation, "border_mode": border_mode, "subsample": list(subsample),
                "dim_ordering": ordering, "W_regularizer": None, "b_regularizer": None,
                "activity_regularizer": None, "W_constraint": None, "b_constraint": None,
                "bias": True})
    return {"class_name": "Convolution2D", "config": cfg}


def keras1_dense(name, output_dim, activation, input_dim):
    cfg = keras1_base(name)
    cfg.update({"output_dim": output_dim, "init": "glorot_uniform", "activation": activation,
                "W_regularizer": None, "b_regularizer": None, "activity_regularizer": None,
                "W_constraint": None, "b_constraint": None, "bias": True, "input_dim": input_dim})
    return {"class_name": "Dense", "config": cfg}


def keras1_pool(cls, name, size, ordering):
    cfg = keras1_base(name)
    cfg.update({"pool_size": [size, size], "border_mode": "valid", "strides": [size, size],
                "dim_ordering": ordering})
    return {"class_name": cls, "config": cfg}


def keras1_training_config():
    return {"optimizer_config": {"class_name": "SGD", "config": {
                "lr": 0.009999999776482582, "momentum": 0.0, "decay": 0.0, "nesterov": False}},
            "loss": "categorical_crossentropy", "metrics": ["accuracy"],
            "sample_weight_mode": None, "loss_weights": None}


def keras1_theano_sequential():
    """Keras 1.2.2 on Theano, dim_ordering 'th': Convolution2D with subsample (2, 2) and
    border_mode 'same', MaxPooling2D, a linear Convolution2D, BatchNormalization (mode 0,
    axis 1), Activation relu, Flatten (CHW order), Dense, Dropout, Dense, Activation softmax."""
    shape = (2, 12, 12)
    layers = [
        keras1_conv("convolution2d_1", 4, (3, 3), (2, 2), "same", "relu", "th", shape),
        keras1_pool("MaxPooling2D", "maxpooling2d_1", 2, "th"),
        keras1_conv("convolution2d_2", 6, (3, 3), (1, 1), "same", "linear", "th"),
        {"class_name": "BatchNormalization", "config": dict(
            keras1_base("batchnormalization_1"), epsilon=0.001, mode=0, axis=1,
            gamma_regularizer=None, beta_regularizer=None, momentum=0.99)},
        {"class_name": "Activation", "config": dict(keras1_base("activation_1"), activation="relu")},
        {"class_name": "Flatten", "config": keras1_base("flatten_1")},
        keras1_dense("dense_1", 8, "relu", 54),
        {"class_name": "Dropout", "config": dict(keras1_base("dropout_1"), p=0.5)},
        keras1_dense("dense_2", 3, "linear", 8),
        {"class_name": "Activation", "config": dict(keras1_base("activation_2"), activation="softmax")},
    ]
    w1, b1 = normal(4, 2, 3, 3), normal(4)  # 'th': (nb_filter, stack, rows, cols)
    w2, b2 = normal(6, 4, 3, 3), normal(6)
    gamma = rng.uniform(0.5, 1.5, 6).astype("float32")
    beta, mean = normal(6), normal(6)
    var = rng.uniform(0.5, 2.0, 6).astype("float32")
    d1, e1 = normal(54, 8), normal(8)
    d2, e2 = normal(8, 3), normal(3)
    weights = {"convolution2d_1": [("convolution2d_1_W", w1), ("convolution2d_1_b", b1)],
               "convolution2d_2": [("convolution2d_2_W", w2), ("convolution2d_2_b", b2)],
               "batchnormalization_1": [("batchnormalization_1_gamma", gamma),
                                        ("batchnormalization_1_beta", beta),
                                        ("batchnormalization_1_running_mean", mean),
                                        ("batchnormalization_1_running_std", var)],
               "dense_1": [("dense_1_W", d1), ("dense_1_b", e1)],
               "dense_2": [("dense_2_W", d2), ("dense_2_b", e2)]}
    names = [l["config"]["name"] for l in layers]
    with h5py.File(os.path.join(HERE, "keras1_theano_sequential.h5"), "w") as f:
        f.attrs["keras_version"] = np.bytes_("1.2.2")
        f.attrs["model_config"] = json_bytes({"class_name": "Sequential", "config": layers})
        f.attrs["training_config"] = json_bytes(keras1_training_config())
        write_weights(f.create_group("model_weights"), names, weights)
    x = rng.uniform(0, 1, (4,) + shape)
    h = relu(theano_conv2d(x, w1.astype("float64"), b1, (2, 2), "same"))
    h = pool_nchw(h, 2, np.max)
    h = theano_conv2d(h, w2.astype("float64"), b2, (1, 1), "same")
    c = lambda v: v[None, :, None, None].astype("float64")
    h = relu((h - c(mean)) / np.sqrt(c(var) + 0.001) * c(gamma) + c(beta))
    h = h.reshape(len(x), -1)
    h = relu(h @ d1 + e1)
    write_reference("keras1_theano_sequential", x, h @ d2 + e2)


def keras1_tf_functional():
    """Keras 1.2.2 on TensorFlow, dim_ordering 'tf', a Functional `Model`: InputLayer, two
    Convolution2D ('same'), a Merge (mode 'sum') residual, Activation relu, AveragePooling2D,
    Flatten (HWC order), Dense. Weight names end in ':0' (TensorFlow variables)."""
    shape = (8, 8, 3)

    def node(cls, cfg, inbound):
        return {"name": cfg["name"], "class_name": cls, "config": cfg,
                "inbound_nodes": [[[n, 0, 0] for n in inbound]] if inbound else []}
    conv1 = keras1_conv("convolution2d_1", 4, (3, 3), (1, 1), "same", "relu", "tf")["config"]
    conv2 = keras1_conv("convolution2d_2", 4, (3, 3), (1, 1), "same", "linear", "tf")["config"]
    merge = dict(keras1_base("merge_1"), mode="sum", concat_axis=-1, dot_axes=-1,
                 output_shape=None, output_shape_type="raw", output_mask=None,
                 output_mask_type="raw", arguments={})
    layers = [
        node("InputLayer", {"batch_input_shape": [None] + list(shape), "input_dtype": "float32",
                            "sparse": False, "name": "input_1"}, []),
        node("Convolution2D", conv1, ["input_1"]),
        node("Convolution2D", conv2, ["convolution2d_1"]),
        node("Merge", merge, ["convolution2d_1", "convolution2d_2"]),
        node("Activation", dict(keras1_base("activation_1"), activation="relu"), ["merge_1"]),
        node("AveragePooling2D", keras1_pool("AveragePooling2D", "averagepooling2d_1", 2, "tf")["config"],
             ["activation_1"]),
        node("Flatten", keras1_base("flatten_1"), ["averagepooling2d_1"]),
        node("Dense", keras1_dense("dense_1", 3, "linear", 64)["config"], ["flatten_1"]),
    ]
    model = {"class_name": "Model", "config": {
        "name": "model_1", "layers": layers,
        "input_layers": [["input_1", 0, 0]], "output_layers": [["dense_1", 0, 0]]}}
    w1, b1 = normal(3, 3, 3, 4), normal(4)  # 'tf': (rows, cols, stack, nb_filter)
    w2, b2 = normal(3, 3, 4, 4), normal(4)
    d1, e1 = normal(64, 3), normal(3)
    weights = {"convolution2d_1": [("convolution2d_1_W:0", w1), ("convolution2d_1_b:0", b1)],
               "convolution2d_2": [("convolution2d_2_W:0", w2), ("convolution2d_2_b:0", b2)],
               "dense_1": [("dense_1_W:0", d1), ("dense_1_b:0", e1)]}
    with h5py.File(os.path.join(HERE, "keras1_tf_functional.h5"), "w") as f:
        f.attrs["keras_version"] = np.bytes_("1.2.2")
        f.attrs["model_config"] = json_bytes(model)
        f.attrs["training_config"] = json_bytes(keras1_training_config())
        write_weights(f.create_group("model_weights"), [l["name"] for l in layers], weights)
    x = rng.uniform(0, 1, (4,) + shape)
    c1 = relu(tf_conv2d_nhwc(x, w1.astype("float64"), b1, (1, 1), "same"))
    c2 = tf_conv2d_nhwc(c1, w2.astype("float64"), b2, (1, 1), "same")
    h = pool_nhwc(relu(c1 + c2), 2, np.mean)
    h = h.reshape(len(x), -1)
    write_reference("keras1_tf_functional", np.transpose(x, (0, 3, 1, 2)), h @ d1 + e1)


def weights_only_images():
    """The images of weights_only.ref.h5 with the class Keras predicts for each as the label,
    for the `volley convert --architecture` test (every CNN prediction right: accuracy 1)."""
    with h5py.File(os.path.join(HERE, "weights_only.ref.h5"), "r") as f:
        x, logits = f["x"][...], f["logits"][...]
    np.savez(os.path.join(HERE, "weights_only_images.npz"), x=x.astype("float32"),
             y=np.argmax(logits, axis=1).astype("int64"))


if __name__ == "__main__":
    keras2_theano_lenet()
    keras1_theano_sequential()
    keras1_tf_functional()
    weights_only_images()
