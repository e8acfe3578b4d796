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


def mbconv():
    """An EfficientNet-B0 block (MBConv with squeeze-excite, swish as Keras writes it:
    x * sigmoid(x)), for the XNNPACK delegate's int8 steps shown in docs/xnnpack.md."""
    tf.keras.utils.set_random_seed(13)
    inp = tf.keras.Input(shape=(16, 16, 16), batch_size=1, name="features")
    x = tf.keras.layers.Conv2D(64, 1, padding="same", activation="swish")(inp)
    x = tf.keras.layers.DepthwiseConv2D(3, padding="same", activation="swish")(x)
    s = tf.keras.layers.GlobalAveragePooling2D(keepdims=True)(x)
    s = tf.keras.layers.Conv2D(8, 1, activation="swish")(s)
    s = tf.keras.layers.Conv2D(64, 1, activation="sigmoid")(s)
    x = tf.keras.layers.Multiply()([x, s])
    x = tf.keras.layers.Conv2D(16, 1, padding="same")(x)
    out = tf.keras.layers.Add(name="block_out")([inp, x])
    return tf.keras.Model(inp, out)


def convert(model, quantize):
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    if quantize:
        rng = np.random.default_rng(3)
        shape = tuple(model.inputs[0].shape)

        def data():
            for _ in range(32):
                yield [rng.standard_normal(shape).astype(np.float32)]

        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.representative_dataset = data
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        conv.inference_input_type = tf.int8
        conv.inference_output_type = tf.int8
    return conv.convert()


class TwoSignatures(tf.Module):
    """Two signatures on two subgraphs: "encode" (dense + tanh, 4 -> 3) and "decode"
    (two inputs, 3 + 2 -> 5), so that a tool must pick one (--signature_to_run_for)."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(11)
        self.w_enc = tf.constant(rng.standard_normal((4, 3)).astype(np.float32))
        self.w_dec = tf.constant(rng.standard_normal((5, 5)).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([1, 4], tf.float32, name="x")])
    def encode(self, x):
        return {"code": tf.tanh(tf.matmul(x, self.w_enc))}

    @tf.function(input_signature=[tf.TensorSpec([1, 3], tf.float32, name="code"),
                                  tf.TensorSpec([1, 2], tf.float32, name="extra")])
    def decode(self, code, extra):
        z = tf.matmul(tf.concat([code, extra], axis=1), self.w_dec)
        return {"out": z * 2.0 + 1.0, "norm": tf.reduce_sum(z * z, axis=1)}


def two_signatures():
    m = TwoSignatures()
    fns = [m.encode.get_concrete_function(), m.decode.get_concrete_function()]
    conv = tf.lite.TFLiteConverter.from_concrete_functions(fns, m)
    return conv.convert()


class StatefulCache(tf.Module):
    """Resource variables shared by two signatures, as streaming / KV-cache models keep
    state: "append" writes a row into a [1, 6, 4] cache at a position (XLA's
    DynamicUpdateSlice: TFLite's DYNAMIC_UPDATE_SLICE, positions past the end clamped) and
    counts its calls; "read" scales the cache. The converter gives VAR_HANDLE,
    READ_VARIABLE, ASSIGN_VARIABLE and a CALL_ONCE of the initializer subgraph in each
    signature's subgraph."""

    def __init__(self):
        super().__init__()
        self.cache = tf.Variable(tf.fill([1, 6, 4], 0.5))
        self.count = tf.Variable(0, dtype=tf.int32)

    @tf.function(input_signature=[tf.TensorSpec([1, 1, 4], tf.float32, name="row"),
                                  tf.TensorSpec([], tf.int32, name="pos")])
    def append(self, row, pos):
        from tensorflow.compiler.tf2xla.python import xla
        self.cache.assign(xla.dynamic_update_slice(self.cache, row, [0, pos, 0]))
        self.count.assign_add(1)
        return {"sums": tf.reduce_sum(self.cache, axis=1), "count": self.count.read_value()}

    @tf.function(input_signature=[tf.TensorSpec([1], tf.float32, name="scale")])
    def read(self, scale):
        return {"scaled": self.cache * scale}


def stateful_cache():
    m = StatefulCache()
    fns = [m.append.get_concrete_function(), m.read.get_concrete_function()]
    conv = tf.lite.TFLiteConverter.from_concrete_functions(fns, m)
    return conv.convert()


class DynamicTail(tf.Module):
    """A convolutional backbone with fixed shapes, then a head whose shapes depend on an
    input's value, as detection and ranking heads do: the feature map reshaped into
    `groups` rows (a RESHAPE whose shape is computed from the input: a dynamic tensor)
    and each row's energy. The pooled features stay fixed-shape."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(3)
        self.w1 = tf.constant(rng.normal(0, 0.3, (3, 3, 3, 8)), tf.float32)
        self.b1 = tf.constant(rng.normal(0, 0.1, (8,)), tf.float32)
        self.w2 = tf.constant(rng.normal(0, 0.3, (3, 3, 8, 8)), tf.float32)
        self.b2 = tf.constant(rng.normal(0, 0.1, (8,)), tf.float32)

    @tf.function(input_signature=[tf.TensorSpec([1, 16, 16, 3], tf.float32, name="image"),
                                  tf.TensorSpec([], tf.int32, name="groups")])
    def __call__(self, image, groups):
        h = tf.nn.relu(tf.nn.conv2d(image, self.w1, 1, "SAME") + self.b1)
        h = tf.nn.relu6(tf.nn.conv2d(h, self.w2, 2, "SAME") + self.b2)
        rows = tf.reshape(h * 0.5 + 0.25, [groups, -1])
        return {"pooled": tf.reduce_mean(h, axis=[1, 2]),
                "energy": tf.reduce_sum(rows * rows, axis=1)}


def dynamic_tail():
    m = DynamicTail()
    conv = tf.lite.TFLiteConverter.from_concrete_functions([m.__call__.get_concrete_function()], m)
    return conv.convert()


def dynamic_goldens(model_name):
    """Calls with different `groups` (the head's shapes change between calls), each on a
    fresh TFLite interpreter (ai-edge-litert, builtin kernels): testdata/goldens/<model>.json
    in stateful_goldens' form. (One interpreter for all would not do: ai-edge-litert 2.3.0
    keeps the first call's shapes after this RESHAPE on later calls, "energy" staying at 2
    elements with groups = 8.)"""
    import json
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    rng = np.random.default_rng(23)
    goldens = []
    for groups in (2, 8, 1, 4):
        it = Interpreter(model_path=os.path.join(OUT, model_name),
                         experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        runner = it.get_signature_runner("serving_default")
        inputs = {"image": rng.uniform(-1, 1, (1, 16, 16, 3)).astype(np.float32),
                  "groups": np.array(groups, dtype=np.int32)}
        outputs = runner(**inputs)
        goldens.append({"signature": "serving_default",
                        "inputs": {k: np.asarray(v).flatten().tolist() for k, v in inputs.items()},
                        "outputs": {k: np.asarray(v).flatten().tolist()
                                    for k, v in outputs.items()}})
    path = os.path.join(OUT, "..", "goldens", model_name.replace(".tflite", ".json"))
    with open(path, "w") as f:
        json.dump(goldens, f, indent=1)
    print(f"wrote {os.path.relpath(path)}")


def stateful_goldens(model_name):
    """A sequence of signature calls on one TFLite interpreter (ai-edge-litert, builtin
    kernels), each seeing the state the calls before it left: testdata/goldens/<model>.json,
    [{signature, inputs, outputs}, ...]."""
    import json
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_path=os.path.join(OUT, model_name),
                     experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    rng = np.random.default_rng(17)
    calls = [("append", 2), ("append", 5), ("read", None), ("append", 9), ("append", -4),
             ("read", None)]
    goldens = []
    for key, pos in calls:
        runner = it.get_signature_runner(key)
        if key == "append":
            inputs = {"row": rng.uniform(-2, 2, (1, 1, 4)).astype(np.float32),
                      "pos": np.array(pos, dtype=np.int32)}
        else:
            inputs = {"scale": rng.uniform(-2, 2, (1,)).astype(np.float32)}
        outputs = runner(**inputs)
        goldens.append({"signature": key,
                        "inputs": {k: np.asarray(v).flatten().tolist() for k, v in inputs.items()},
                        "outputs": {k: np.asarray(v).flatten().tolist()
                                    for k, v in outputs.items()}})
    path = os.path.join(OUT, "..", "goldens", model_name.replace(".tflite", ".json"))
    with open(path, "w") as f:
        json.dump(goldens, f, indent=1)
    print(f"wrote {os.path.relpath(path)}")


def signature_goldens(model_name):
    """Every signature of the model run by TFLite (ai-edge-litert, builtin kernels) on fixed
    inputs: testdata/goldens/<model>.json, {signature: {inputs: {name: [...]}, outputs: ...}}."""
    import json
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_path=os.path.join(OUT, model_name),
                     experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    rng = np.random.default_rng(5)
    goldens = {}
    for key in it.get_signature_list():
        runner = it.get_signature_runner(key)
        inputs = {name: rng.uniform(-2, 2, d["shape"]).astype(np.float32)
                  for name, d in runner.get_input_details().items()}
        outputs = runner(**inputs)
        goldens[key] = {"inputs": {k: v.flatten().tolist() for k, v in inputs.items()},
                        "outputs": {k: np.asarray(v).flatten().tolist() for k, v in outputs.items()}}
    path = os.path.join(OUT, "..", "goldens", model_name.replace(".tflite", ".json"))
    with open(path, "w") as f:
        json.dump(goldens, f, indent=1)
    print(f"wrote {os.path.relpath(path)}")


def write(name, data):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(data)
    print(f"wrote {os.path.relpath(path)} ({os.path.getsize(path)} bytes), "
          f"tensorflow {tf.__version__}")


def main():
    """Every model, or only those named (e.g. two_signatures.tflite)."""
    os.makedirs(OUT, exist_ok=True)
    wanted = set(sys.argv[1:])
    makers = {
        "tiny_cnn_float.tflite": lambda: convert(tiny_cnn(), False),
        "tiny_cnn_int8.tflite": lambda: convert(tiny_cnn(), True),
        "two_signatures.tflite": two_signatures,
        "mbconv_int8.tflite": lambda: convert(mbconv(), True),
        "stateful_cache.tflite": stateful_cache,
        "dynamic_tail.tflite": dynamic_tail,
    }
    for name, make in makers.items():
        if not wanted or name in wanted:
            write(name, make())
            if name == "two_signatures.tflite":
                signature_goldens(name)
            if name == "stateful_cache.tflite":
                stateful_goldens(name)
            if name == "dynamic_tail.tflite":
                dynamic_goldens(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
