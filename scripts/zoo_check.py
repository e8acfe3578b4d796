#!/usr/bin/env python3
"""Runs every model of a zoo folder (NAME.tflite + goldens/NAME/) through `tflite-inspect
run` with its default flags on the golden's inputs and prints one table row per model:
zoo (shared or gen_zoo), model, mode, ops, result, max error. Integer outputs must match bit for bit (error in
steps); float outputs within 1e-4 * max(1, max|ref|) (error relative to that). Exit 1 if
any model fails. Used by scripts/zoo_check.sh; needs numpy.

TFI_RUN_FLAGS adds flags to every run (e.g. "--use_xnnpack=false --num_threads=2" checks
the builtin kernels, which must be bit-exact too); TFI_ZOO_ONLY keeps the models whose
name contains one of its comma-separated words.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

MODES = ["int8_floatio", "int8_uint8io", "float", "fp16", "dynamic", "int8", "16x8"]


def split_mode(name):
    for m in MODES:
        if name.endswith("_" + m):
            return name[: -len(m) - 1], m
    return name, "?"


def ops_of(tool, model):
    r = subprocess.run([tool, "inspect_ops", "--json", model], capture_output=True, text=True)
    try:
        codes = json.loads(r.stdout)["operator_codes"]
    except (ValueError, KeyError):
        return "?"
    return " ".join(sorted({f"{c['op']}v{c['version']}" for c in codes}))


def check(tool, zoo, name, work):
    model = os.path.join(zoo, name + ".tflite")
    golden = os.path.join(zoo, "goldens", name)
    report = json.load(open(os.path.join(golden, "report.json")))
    ins = [os.path.join(golden, f"input_{i}.bin") for i in range(len(report["inputs"]))]
    out = os.path.join(work, name)
    r = subprocess.run([tool, "run", "--graph", model, "--output_dir", out,
                        "--input_files", ",".join(ins),
                        *os.environ.get("TFI_RUN_FLAGS", "").split()],
                       capture_output=True, text=True)
    if r.returncode != 0:
        last = [l for l in r.stderr.splitlines() if l.strip()]
        return "FAIL", (last[0] if last else f"exit {r.returncode}")[:120]
    worst, ok = "", True
    for i, o in enumerate(report["outputs"]):
        dt = np.dtype(o["dtype"])
        want = np.fromfile(os.path.join(golden, f"output_{i}.bin"), dt).astype(np.float64)
        got = np.fromfile(os.path.join(out, f"output_{i}.bin"), dt).astype(np.float64)
        if got.size != want.size:
            return "FAIL", f"output {i}: {got.size} values, golden {want.size}"
        err = float(np.max(np.abs(got - want))) if want.size else 0.0
        if dt.kind == "f":
            rel = err / max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
            ok &= rel <= 1e-4
            worst += f"{rel:.1e} rel "
        else:
            ok &= err == 0
            worst += f"{err:.0f} steps "
    if not ok and any(o.get("kernels") == "BUILTIN_WITHOUT_DEFAULT_DELEGATES"
                      and np.dtype(o["dtype"]).kind != "f" for o in report["outputs"]):
        # TFLite's reference resolver lacks an op of this model, so the golden came from its
        # optimized kernels, whose int8 rounding differs from the reference in places.
        return "MISMATCH (golden: TFLite's optimized kernels)", worst.strip()
    return ("ok" if ok else "MISMATCH"), worst.strip()


def main():
    tool, zoos = sys.argv[1], sys.argv[2:]
    work = tempfile.mkdtemp(prefix="zoo_check_")
    rows, bad = [], 0
    for zoo in zoos:
        if not os.path.isdir(os.path.join(zoo, "goldens")):
            print(f"skipped: {zoo} has no goldens/", file=sys.stderr)
            continue
        for f in sorted(os.listdir(zoo)):
            if not f.endswith(".tflite"):
                continue
            name = f[:-7]
            only = [w for w in os.environ.get("TFI_ZOO_ONLY", "").split(",") if w]
            if only and not any(w in name for w in only):
                continue
            if not os.path.exists(os.path.join(zoo, "goldens", name, "report.json")):
                continue
            result, err = check(tool, zoo, name, work)
            bad += result != "ok"
            family, mode = split_mode(name)
            source = "shared" if os.path.normpath(zoo).endswith(os.path.join("models", "zoo")) \
                else "gen_zoo"
            rows.append((source, family, mode, ops_of(tool, os.path.join(zoo, f)), result, err))
            print(f"{name}: {result} {err}", file=sys.stderr, flush=True)
    print("| zoo | model | mode | ops | result | max error |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print(f"\n{len(rows) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
