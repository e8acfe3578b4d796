#!/usr/bin/env python3
"""Writes testdata/goldens/: outputs of the real TFLite runtime for end-to-end tests.

Runtime: ai-edge-litert's interpreter with its reference-kernel resolver (BUILTIN_REF),
so quantized goldens are TFLite's reference kernels bit for bit (its XNNPACK path
rounds differently: on mobilenet_v2_quantized it differs by up to 8 steps).

Models:
  - every model of ../shared/models that has a folder under ../shared/models/goldens,
    fed with the inputs stored there (not copied: report.json names them);
  - every model under testdata/models, fed with inputs generated here (committed).

Run with a Python that has ai-edge-litert (scripts/setup_python.sh makes one):
    /tmp/tfi-venv/bin/python scripts/gen_goldens.py
"""
import json
import os
import sys

import numpy as np
from ai_edge_litert import __version__ as litert_version
from ai_edge_litert.interpreter import Interpreter, OpResolverType

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared", "models"))
OUT = os.path.join(ROOT, "testdata", "goldens")


def describe(d):
    q = d.get("quantization_parameters", {})
    quant = None
    if len(q.get("scales", [])) > 0:
        quant = {"scale": [float(s) for s in q["scales"]],
                 "zero_point": [int(z) for z in q["zero_points"]],
                 "quantized_dimension": int(q["quantized_dimension"])}
    return {"name": d["name"], "tensor_index": int(d["index"]),
            "dtype": np.dtype(d["dtype"]).name, "shape": [int(s) for s in d["shape"]],
            "quantization": quant}


def generated_input(d, seed, stream):
    rng = np.random.default_rng([seed, stream])
    dt = np.dtype(d["dtype"])
    shape = d["shape"]
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    if dt in (np.int32, np.int64, np.uint32):
        return rng.integers(0, 16, shape).astype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max + 1, shape).astype(dt)


def run(model_path, out_dir, model_ref, input_files=None):
    it = Interpreter(model_path=model_path,
                     experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    os.makedirs(out_dir, exist_ok=True)
    report = {"model": model_ref,
              "runtime": f"ai-edge-litert {litert_version}, BUILTIN_REF (reference kernels)",
              "inputs": [], "outputs": []}
    for i, d in enumerate(it.get_input_details()):
        entry = describe(d)
        if input_files is not None:
            x = np.fromfile(input_files[i][0], dtype=d["dtype"]).reshape(d["shape"])
            entry["file"] = input_files[i][1]
        else:
            x = generated_input(d, 1, i)
            x.tofile(os.path.join(out_dir, f"input_{i}.bin"))
            entry["file"] = f"input_{i}.bin"
            entry["source"] = "numpy default_rng([1, i]): float N(0,1); int8/uint8/int16 " \
                              "uniform over the type; int32/int64 uniform [0, 15]"
        it.set_tensor(d["index"], x)
        report["inputs"].append(entry)
    it.invoke()
    for i, d in enumerate(it.get_output_details()):
        y = it.get_tensor(d["index"])
        y.tofile(os.path.join(out_dir, f"output_{i}.bin"))
        entry = describe(d)
        entry["file"] = f"output_{i}.bin"
        entry["max_abs"] = float(np.abs(y.astype(np.float64)).max()) if y.size else 0.0
        report["outputs"].append(entry)
    with open(os.path.join(out_dir, "report.json"), "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(f"wrote {os.path.relpath(out_dir, ROOT)}")


def main():
    failures = []
    gold = os.path.join(SHARED, "goldens")
    if os.path.isdir(gold):
        for dirpath, _, files in sorted(os.walk(gold)):
            if "report.json" not in files:
                continue
            rel = os.path.relpath(dirpath, gold)
            model = os.path.join(SHARED, rel + ".tflite")
            shared_report = json.load(open(os.path.join(dirpath, "report.json")))
            inputs = [(os.path.join(dirpath, x["file"]), f"shared:goldens/{rel}/{x['file']}")
                      for x in shared_report["inputs"]]
            try:
                run(model, os.path.join(OUT, "shared", rel), f"shared:{rel}.tflite", inputs)
            except Exception as e:  # a model TFLite itself refuses, e.g. person_detect
                failures.append(f"{rel}: {e}")
    else:
        print(f"skipped shared models: {SHARED} absent", file=sys.stderr)
    models = os.path.join(ROOT, "testdata", "models")
    for name in sorted(os.listdir(models)):
        if name.endswith(".tflite"):
            run(os.path.join(models, name), os.path.join(OUT, "testdata", name[:-7]),
                f"testdata:models/{name}")
    for f in failures:
        print(f"TFLite refused {f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
