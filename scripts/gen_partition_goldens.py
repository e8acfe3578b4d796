#!/usr/bin/env python3
"""Partition goldens from the real TFLite runtime (ai-edge-litert).

For each case (model, ops) it loads the partition recorder plugin
(delegates/external/partition_recorder_plugin.cc) into TFLite's Python Interpreter with
load_delegate(plugin, {'ops': OPS, 'dump': FILE}), calls allocate_tensors(), and writes
what the plugin recorded -- the partitions TFLite's partitioner made (nodes, input and
output tensors, in the order TFLite created them) and the execution plans before and
after -- to testdata/goldens/partitions/<case>.json. The ctest partition_goldens_test
loads the same plugin into our runtime and requires identical JSON.

It also writes the small graphs of the "builder" cases to testdata/models/ with the
flatbuffers object API that ships with ai-edge-litert (independent of our C++ code).

Usage (from the repository root, after building the plugin):
  scripts/setup_python.sh  # or: python3 -m venv /tmp/tfi-venv &&
                           #     /tmp/tfi-venv/bin/pip install ai-edge-litert numpy
  /tmp/tfi-venv/bin/python scripts/gen_partition_goldens.py \
      --plugin build/delegates/external/libtfi_partition_recorder_delegate.so
"""

import argparse
import json
import os
import sys
import tempfile

import flatbuffers
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType, load_delegate

# (case name, model, ops). A model is "shared:<path under ../shared/models>" (real
# third-party models, never copied into the repository) or "testdata:<path>".
CASES = [
    # Residual blocks: CONV_2D and ADD claimed, DEPTHWISE_CONV_2D / RELU / PAD / MAX_POOL
    # and the weight DEQUANTIZEs left on the CPU: many small partitions.
    ("face_detection_conv_add", "shared:mediapipe/face_detection_short_range.tflite",
     "CONV_2D,ADD"),
    # One op only: every DEPTHWISE_CONV_2D is its own partition.
    ("face_detection_depthwise", "shared:mediapipe/face_detection_short_range.tflite",
     "DEPTHWISE_CONV_2D"),
    # The detection heads: CONCATENATION and RESHAPE nodes spread over the graph's end,
    # merged greedily where nothing unclaimed lies between them.
    ("pose_detection_concat_reshape", "shared:mediapipe/pose_detection.tflite",
     "CONCATENATION,RESHAPE"),
    # Every fp16 weight DEQUANTIZE depends on constants only: greedy merging pulls them
    # into one partition ahead of the rest of the graph.
    ("hand_landmark_dequantize", "shared:mediapipe/hand_landmark_lite.tflite", "DEQUANTIZE"),
    # An int8 TFLM model: CONV_2D and ADD, not DEPTHWISE_CONV_2D / PAD / MEAN / RESHAPE.
    ("mobilenet_v2_int8_conv_add", "shared:tflm/mobilenet_v2_quantized_1x3x224x224.tflite",
     "CONV_2D,ADD"),
    # Builder graphs (written below).
    ("branches_add", "testdata:models/partition_branches.tflite", "ADD"),
    ("branches_absent_op", "testdata:models/partition_branches.tflite", "CONV_2D"),
    ("diamond_add", "testdata:models/partition_diamond.tflite", "ADD"),
    ("diamond_all", "testdata:models/partition_diamond.tflite", "ADD,MUL"),
]


# --- Builder graphs -------------------------------------------------------------------

class Graph:
  """A float32 single-subgraph model written with the schema's object API."""

  def __init__(self):
    self.model = schema.ModelT()
    self.model.version = 3
    self.model.description = "tflite-inspect partition golden graph"
    self.model.buffers = [schema.BufferT()]  # buffer 0: empty, by convention
    self.model.operatorCodes = []
    self.sg = schema.SubGraphT()
    self.sg.tensors, self.sg.operators = [], []
    self.sg.name = "main"

  def tensor(self, name, shape, data=None):
    t = schema.TensorT()
    t.name, t.shape, t.type = name, list(shape), schema.TensorType.FLOAT32
    t.buffer = 0
    if data is not None:
      import numpy as np
      b = schema.BufferT()
      b.data = list(np.asarray(data, dtype="<f4").tobytes())
      self.model.buffers.append(b)
      t.buffer = len(self.model.buffers) - 1
    self.sg.tensors.append(t)
    return len(self.sg.tensors) - 1

  def op(self, code, inputs, outputs):
    names = {schema.BuiltinOperator.ADD: (schema.BuiltinOptions.AddOptions, schema.AddOptionsT),
             schema.BuiltinOperator.SUB: (schema.BuiltinOptions.SubOptions, schema.SubOptionsT),
             schema.BuiltinOperator.MUL: (schema.BuiltinOptions.MulOptions, schema.MulOptionsT)}
    index = None
    for i, c in enumerate(self.model.operatorCodes):
      if c.builtinCode == code:
        index = i
    if index is None:
      c = schema.OperatorCodeT()
      c.builtinCode, c.deprecatedBuiltinCode, c.version = code, min(code, 127), 1
      self.model.operatorCodes.append(c)
      index = len(self.model.operatorCodes) - 1
    o = schema.OperatorT()
    o.opcodeIndex, o.inputs, o.outputs = index, list(inputs), list(outputs)
    o.builtinOptionsType, cls = names[code]
    o.builtinOptions = cls()
    self.sg.operators.append(o)

  def write(self, path, inputs, outputs):
    self.sg.inputs, self.sg.outputs = list(inputs), list(outputs)
    self.model.subgraphs = [self.sg]
    b = flatbuffers.Builder(1024)
    b.Finish(self.model.Pack(b), file_identifier=b"TFL3")
    with open(path, "wb") as f:
      f.write(b.Output())


def write_builder_models(testdata):
  A, S, M = schema.BuiltinOperator.ADD, schema.BuiltinOperator.SUB, schema.BuiltinOperator.MUL
  os.makedirs(os.path.join(testdata, "models"), exist_ok=True)

  # Two branches from one input. With ops=ADD, nodes 0 and 3 are both ready at the start
  # and land in one partition although node 1 (MUL) sits between them in the plan;
  # nodes 2 and 5 form the second one after the CPU's MUL and SUB.
  #   0: a = ADD(x, c1)   1: m = MUL(a, c1)   2: b = ADD(m, c1)
  #   3: d = ADD(x, c2)   4: e = SUB(d, c2)   5: out = ADD(b, e)
  g = Graph()
  x = g.tensor("x", [1, 4])
  c1 = g.tensor("c1", [1, 4], [1.0, 2.0, 3.0, 4.0])
  c2 = g.tensor("c2", [1, 4], [-1.0, 0.5, 0.25, 2.0])
  a, m, b, d, e, out = (g.tensor(n, [1, 4]) for n in ("a", "m", "b", "d", "e", "out"))
  g.op(A, [x, c1], [a])
  g.op(M, [a, c1], [m])
  g.op(A, [m, c1], [b])
  g.op(A, [x, c2], [d])
  g.op(S, [d, c2], [e])
  g.op(A, [b, e], [out])
  g.write(os.path.join(testdata, "models", "partition_branches.tflite"), [x], [out])

  # A diamond with an unclaimed side path: with ops=ADD, {0, 2} and {3} must stay apart
  # (merging 3 in would make a cycle through the CPU's MUL); with ADD,MUL one partition.
  # Two outputs: the sum and the side path's MUL.
  #   0: a = ADD(x, c)   1: m = MUL(a, c)   2: b = ADD(a, c)   3: out = ADD(m, b)
  g = Graph()
  x = g.tensor("x", [2, 3])
  c = g.tensor("c", [2, 3], [0.5, -1.0, 2.0, 1.5, 0.0, -0.5])
  a, m, b, out = (g.tensor(n, [2, 3]) for n in ("a", "m", "b", "out"))
  g.op(A, [x, c], [a])
  g.op(M, [a, c], [m])
  g.op(A, [a, c], [b])
  g.op(A, [m, b], [out])
  g.write(os.path.join(testdata, "models", "partition_diamond.tflite"), [x], [out, m])


# --- Goldens --------------------------------------------------------------------------

def model_path(spec, shared_models, testdata):
  kind, rel = spec.split(":", 1)
  return os.path.join(shared_models if kind == "shared" else testdata, rel)


def record(plugin, path, ops):
  with tempfile.TemporaryDirectory() as tmp:
    dump = os.path.join(tmp, "partitions.json")
    delegate = load_delegate(plugin, options={"ops": ops, "dump": dump})
    # No default XNNPACK delegate: it would apply at allocate_tensors, after ours, and
    # change nothing we record, but our runtime has no default delegate either.
    interpreter = Interpreter(
        model_path=path, experimental_delegates=[delegate],
        experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interpreter.allocate_tensors()
    with open(dump) as f:
      text = f.read()
    del interpreter
    return text


def main():
  root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
  p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  p.add_argument("--plugin", default=os.path.join(
      root, "build/delegates/external/libtfi_partition_recorder_delegate.so"))
  p.add_argument("--shared_models", default=os.path.join(root, "..", "shared", "models"))
  p.add_argument("--testdata", default=os.path.join(root, "testdata"))
  args = p.parse_args()
  plugin = os.path.abspath(args.plugin)
  if not os.path.exists(plugin):
    sys.exit(f"no plugin at {plugin}: build the target tfi_partition_recorder_delegate first")

  from importlib.metadata import version
  runtime = f"ai-edge-litert {version('ai-edge-litert')}"
  write_builder_models(args.testdata)
  out_dir = os.path.join(args.testdata, "goldens", "partitions")
  os.makedirs(out_dir, exist_ok=True)
  for name, spec, ops in CASES:
    path = model_path(spec, args.shared_models, args.testdata)
    if not os.path.exists(path):
      sys.exit(f"{name}: no model at {path}")
    text = record(plugin, path, ops)
    result = json.loads(text)
    # The plugin's own layout (one node per line) under a small header.
    header = {"case": name, "model": spec, "options": {"ops": ops}, "runtime": runtime}
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in header.items())
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
      f.write("{\n" + body + ',\n "result": ' + text.strip() + "\n}\n")
    parts = result["partitions"]
    print(f"{name}: {len(result['plan_before'])} nodes, {len(result['claimed'])} claimed, "
          f"{len(parts)} partition(s) of {[len(x['nodes']) for x in parts]} node(s), "
          f"plan after: {len(result['plan_after'])} nodes")


if __name__ == "__main__":
  main()
