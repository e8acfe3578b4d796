#!/usr/bin/env python3
"""Generates the small models under testdata/models with the real TensorFlow converter.

Run with a Python that has tensorflow-cpu (scripts/setup_python.sh makes one):
    /tmp/tfi-venv/bin/python scripts/gen_testdata.py
The models are committed; tests never need TensorFlow. Seeds are fixed, so a re-run
with the same TensorFlow version gives the same weights.
"""
import os
import sys

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "models")


def tiny_cnn():
    """A MobileNet-like block: conv, depthwise, residual add, pooling, dense, softmax."""
    tf.keras.utils.set_random_seed(7)
    inp = tf.keras.Input(shape=(32, 32, 3), batch_size=1, name="image")
    x = tf.keras.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")(inp)
    y = tf.keras.layers.DepthwiseConv2D(3, padding="same", activation="relu6")(x)
    y = tf.keras.layers.Conv2D(8, 1, padding="same")(y)
    x = tf.keras.layers.Add()([x, y])
    x = tf.keras.layers.MaxPool2D(2)(x)
    x = tf.keras.layers.Conv2D(16, 3, padding="valid", activation="relu")(x)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    x = tf.keras.layers.Dense(10)(x)
    out = tf.keras.layers.Softmax(name="probs")(x)
    return tf.keras.Model(inp, out)


def convert(model, quantize):
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    if quantize:
        rng = np.random.default_rng(3)

        def data():
            for _ in range(32):
                yield [rng.standard_normal((1, 32, 32, 3)).astype(np.float32)]

        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.representative_dataset = data
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        conv.inference_input_type = tf.int8
        conv.inference_output_type = tf.int8
    return conv.convert()


def main():
    os.makedirs(OUT, exist_ok=True)
    model = tiny_cnn()
    for name, quant in (("tiny_cnn_float.tflite", False), ("tiny_cnn_int8.tflite", True)):
        path = os.path.join(OUT, name)
        with open(path, "wb") as f:
            f.write(convert(model, quant))
        print(f"wrote {os.path.relpath(path)} ({os.path.getsize(path)} bytes), "
              f"tensorflow {tf.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
