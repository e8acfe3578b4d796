#!/usr/bin/env python3
"""Finds the first tensor where this runtime and the real TFLite disagree.

Rewrites a model so that every tensor an operator of the primary subgraph writes is also a
subgraph output (through flatc's Python object API for schema/schema.fbs), runs it in ai-edge-litert
(no delegates; --reference for TFLite's reference kernels) and in `tflite-inspect run`
(--use_xnnpack=false, or its default delegate with --xnnpack), and prints, in execution order, each operator's output with its
maximum error (in steps of the scale for quantized tensors). A developer's tool: needs
scripts/setup_python.sh's virtual environment and a build.

  /tmp/tfi-venv/bin/python scripts/tensor_diff.py M.tflite [--inputs a.bin,b.bin]
      [--reference] [--tool build/cmd/tflite-inspect] [--all] [--tolerance T]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def expose_all(model, workdir):
    """A copy of `model` whose primary subgraph outputs every tensor an operator writes.
    Python classes for the schema come from flatc (object API) so that every field,
    float quantization scales included, is copied exactly."""
    schema = os.path.join(ROOT, "schema", "schema.fbs")
    gen = os.path.join(workdir, "fbpy")
    subprocess.run(["flatc", "--python", "--gen-object-api", "-o", gen, schema], check=True)
    sys.path.insert(0, gen)
    import flatbuffers
    from tflite.Model import Model, ModelT
    with open(model, "rb") as f:
        data = f.read()
    m = ModelT.InitFromObj(Model.GetRootAs(data, 0))
    sg = m.subgraphs[0]
    order = []
    for op in sg.operators or []:
        for t in (op.outputs if op.outputs is not None else []):
            if t >= 0 and t not in order:
                order.append(int(t))
    outs = [int(t) for t in (sg.outputs if sg.outputs is not None else [])]
    sg.outputs = outs + [t for t in order if t not in outs]
    # Signature defs name the original outputs only; drop them so both runtimes use the
    # subgraph's outputs.
    m.signatureDefs = None
    b = flatbuffers.Builder(len(data) + 1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    out = os.path.join(workdir, os.path.splitext(os.path.basename(model))[0] + ".tflite")
    with open(out, "wb") as f:
        f.write(b.Output())
    return out, sg, order


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--inputs", default="", help="raw input files, comma-separated")
    ap.add_argument("--reference", action="store_true")
    ap.add_argument("--all", action="store_true", help="print every tensor, not only bad ones")
    ap.add_argument("--tolerance", type=float, default=1e-6,
                    help="float tensors: report errors above this, relative to max(1, max|ref|)")
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "cmd", "tflite-inspect"))
    ap.add_argument("--xnnpack", action="store_true",
                    help="run ours with its default delegate (XNNPACK) instead of builtin kernels")
    args = ap.parse_args()
    from ai_edge_litert import interpreter as litert

    work = tempfile.mkdtemp(prefix="tensor_diff_")
    model, sg, order = expose_all(args.model, work)
    kind = (litert.OpResolverType.BUILTIN_REF if args.reference
            else litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interp = litert.Interpreter(model_path=model, experimental_op_resolver_type=kind,
                                num_threads=1)
    interp.allocate_tensors()
    ins = interp.get_input_details()
    files = args.inputs.split(",") if args.inputs else []
    ours_dir = os.path.join(work, "ours")
    cmd = [args.tool, "run", "--graph", model, "--output_dir", ours_dir,
           "--use_xnnpack=" + ("true" if args.xnnpack else "false")]
    if files:
        cmd.append("--input_files=" + ",".join(files))
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    for i, d in enumerate(ins):
        raw = np.fromfile(files[i] if files else os.path.join(ours_dir, f"input_{i}.bin"),
                          dtype=d["dtype"]).reshape(d["shape"])
        interp.set_tensor(d["index"], raw)
    interp.invoke()
    outs = interp.get_output_details()
    bad = 0
    for i, d in enumerate(outs):
        want = interp.get_tensor(d["index"])
        got = np.fromfile(os.path.join(ours_dir, f"output_{i}.bin"), dtype=d["dtype"])
        name = d["name"]
        if got.size != want.size:
            print(f"{i:4d} {name}: size {got.size} vs {want.size}")
            bad += 1
            continue
        w = want.reshape(-1).astype(np.float64)
        g = got.astype(np.float64)
        err = float(np.max(np.abs(w - g))) if w.size else 0.0
        mag = float(np.max(np.abs(w))) if w.size else 0.0
        scale = d["quantization"][0]
        if np.issubdtype(want.dtype, np.integer) and scale:
            line = f"max {err:.0f} steps on {int(np.sum(w != g))}/{w.size}"
            off = err > 0
        else:
            rel = err / max(1.0, mag)
            line = f"max abs {err:.3g} (rel {rel:.3g}, |ref| {mag:.3g})"
            off = rel > args.tolerance
        bad += off
        if off or args.all:
            print(f"{i:4d} {d['dtype'].__name__:8s} {str(list(want.shape)):18s} {name}: {line}")
    print(f"{bad} of {len(outs)} tensors differ (work folder {work})")


if __name__ == "__main__":
    sys.exit(main())
