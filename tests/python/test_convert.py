"""Conversion from Python: the Keras-layout twin of a small PyTorch model (tests/data/convert)
gives PyTorch's stored logits, and its converted spiking network agrees with the CNN on the
stored images after 256 steps, as `volley convert` reports, in batches and on the portable backend too."""

import os

from volley_test_support import check, data_dir, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

d = os.path.join(data_dir(), "convert")
keras = volley.CnnModel(os.path.join(d, "fmnist_small_keras_layout.h5"))
x, y, logits = volley.CnnModel(os.path.join(d, "fmnist_small_torch.h5")).reference()
check(keras.format == "keras" and keras.input_shape == (1, 28, 28) and x.shape == (16, 1, 28, 28), "model and images")
err = np.abs(keras.forward(x) - logits).max()
check(err < 1e-4, f"Keras-layout logits differ from PyTorch's by {err}")

snn = keras.convert(x, percentile=99.9)
check(snn.classes == 10 and snn.network.neuron_count > 0, "converted network")
r = snn.evaluate(keras, x, y, timesteps=[32, 256])
check(r["cnn_predictions"] == list(np.argmax(logits, axis=1)), "CNN predictions")
final = r["checkpoints"][-1]
check(final["timesteps"] == 256 and final["agreement"] >= 0.9, f"agreement with the CNN at T=256: {final}")
check(len(r["predictions"]) == 2 and len(r["predictions"][1]) == 16, "predictions per checkpoint")
# Batches of 5 images as one network (cpu), and the portable device backend where built: the
# same figures for every image.
batched = snn.evaluate(keras, x, y, timesteps=[32, 256], batch=5)
check(batched["predictions"] == r["predictions"] and batched["checkpoints"] == r["checkpoints"], "batched evaluation")
try:
    portable = snn.evaluate(keras, x, y, timesteps=[32, 256], backend="portable", threads=2)
except volley.Error as e:  # a build without Thrust's headers has no portable backend
    check("no portable backend" in str(e), f"{e}")
else:
    check(portable["predictions"] == r["predictions"] and portable["checkpoints"] == r["checkpoints"],
          "portable evaluation")

try:
    keras.forward(np.zeros((2, 3, 28, 28)))
    raise AssertionError("a (2, 3, 28, 28) batch was accepted")
except volley.InvalidParameter as e:
    check(e.object == "images" and e.parameter == "shape", f"{e}")
print(f"convert: logits within {err:.1e} of PyTorch's; SNN agreement {final['agreement']:.3f}, "
      f"accuracy {final['accuracy']:.3f} at T=256 on {r['images']} images")
