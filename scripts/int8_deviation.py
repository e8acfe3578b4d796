#!/usr/bin/env python3
"""How far the default path (XNNPACK) of 8-bit models is from TFLite's reference kernels,
ours against TFLite's own: for every integer model of the zoo folders (NAME.tflite +
goldens/NAME/ as scripts/gen_zoo.py lays them out), on the golden's inputs,

  ours    `tflite-inspect run` with default flags (our XNNPACK delegate)
  tflite  ai-edge-litert's Interpreter with its defaults (its XNNPACK delegate)

each compared with the golden (TFLite's reference kernels): the largest difference in
quantization steps and the share of output elements more than one step away; and ours
against TFLite's default: the share of identical elements. Prints a Markdown table.
Issue 17 asks that ours be no worse than TFLite's own.

  scripts/setup_python.sh   # once: /tmp/tfi-venv with ai-edge-litert
  /tmp/tfi-venv/bin/python scripts/int8_deviation.py [--tool build/cmd/tflite-inspect]
      [--only SUBSTR,...] [--threads N] [ZOO ...]   # default: ../shared/models/zoo
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

INTEGER_MODES = ("_int8", "_int8_uint8io")


def tflite_default(model, inputs, threads):
    from ai_edge_litert.interpreter import Interpreter

    it = Interpreter(model_path=model, num_threads=threads)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x.reshape(d["shape"]))
    it.invoke()
    return [it.get_tensor(d["index"]).reshape(-1) for d in it.get_output_details()]


def ours(tool, model, files, work, threads):
    out = os.path.join(work, os.path.basename(model))
    r = subprocess.run([tool, "run", "--graph", model, "--output_dir", out, "--input_files",
                        ",".join(files), f"--num_threads={threads}"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed")
    return out


def stats(got, want):
    d = np.abs(got.astype(np.int64) - want.astype(np.int64))
    return int(d.max()) if d.size else 0, float(np.mean(d > 1)) if d.size else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default="build/cmd/tflite-inspect")
    ap.add_argument("--only", default="")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("zoos", nargs="*", default=["../shared/models/zoo"])
    args = ap.parse_args()
    if not (os.path.isfile(args.tool) and os.access(args.tool, os.X_OK)):
        sys.exit(f"int8_deviation: --tool {args.tool}: not an executable (build first: scripts/build.sh)")
    for zoo in args.zoos:
        if not os.path.isdir(zoo):
            sys.exit(f"int8_deviation: {zoo}: no such zoo folder (NAME.tflite + goldens/NAME/)")
    only = [w for w in args.only.split(",") if w]
    print("| model | ours: max steps | ours: > 1 step | TFLite default: max steps | "
          "TFLite default: > 1 step | ours = TFLite default |")
    print("|---|---:|---:|---:|---:|---:|")
    worse = 0
    with tempfile.TemporaryDirectory() as work:
        for zoo in args.zoos:
            for f in sorted(os.listdir(zoo)):
                name = f[:-len(".tflite")] if f.endswith(".tflite") else None
                if name is None or not name.endswith(INTEGER_MODES):
                    continue
                if only and not any(w in name for w in only):
                    continue
                golden = os.path.join(zoo, "goldens", name)
                if not os.path.isdir(golden):
                    continue
                report = json.load(open(os.path.join(golden, "report.json")))
                files = [os.path.join(golden, f"input_{i}.bin") for i in range(len(report["inputs"]))]
                inputs = [np.fromfile(p, np.dtype(d["dtype"])) for p, d in zip(files, report["inputs"])]
                model = os.path.join(zoo, f)
                try:
                    out = ours(args.tool, model, files, work, args.threads)
                    ref = tflite_default(model, inputs, args.threads)
                except Exception as e:  # a model one side refuses: say so, go on
                    print(f"| {name} | {str(e)[:60]} | | | | |")
                    continue
                row = [0, 0.0, 0, 0.0]
                same = total = 0
                for i, o in enumerate(report["outputs"]):
                    dt = np.dtype(o["dtype"])
                    if dt.kind == "f":
                        continue
                    want = np.fromfile(os.path.join(golden, f"output_{i}.bin"), dt)
                    got = np.fromfile(os.path.join(out, f"output_{i}.bin"), dt)
                    m, share = stats(got, want)
                    tm, tshare = stats(ref[i], want)
                    row = [max(row[0], m), max(row[1], share), max(row[2], tm), max(row[3], tshare)]
                    same += int(np.sum(got == ref[i]))
                    total += got.size
                if total == 0:
                    continue
                worse += row[0] > max(1, row[2]) or row[1] > row[3]
                print(f"| {name} | {row[0]} | {100 * row[1]:.3f}% | {row[2]} | {100 * row[3]:.3f}% | "
                      f"{100 * same / total:.2f}% |")
    print(f"\nmodels where ours is further from the reference than TFLite's default: {worse}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
