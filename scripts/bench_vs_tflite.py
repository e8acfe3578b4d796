#!/usr/bin/env python3
"""Latency of our runtime against the real TFLite on every float model, same machine,
same threads, in one run: for each model and thread count, rounds alternate between
  cpu      our benchmark_model with our builtin kernels (--use_xnnpack=false)
  xnnpack  our benchmark_model with our XNNPACK delegate (--use_xnnpack=true)
  tflite   TFLite (ai-edge-litert, XNNPACK on by default) via scripts/time_tflite.py
  tflite_builtin  TFLite's builtin kernels without its default delegate (time_tflite.py
           --builtin), the counterpart of our --use_xnnpack=false
(the order rotates every round), and prints a Markdown table of median latencies and the
median over rounds of the per-round ratios: ours builtin / TFLite builtin and ours
XNNPACK / TFLite default. A model is "float" when our
benchmark_model applies XNNPACK to it by default (it has float32 ops XNNPACK takes).
Models with custom ops TFLite's Python package lacks (MediaPipe's) have no TFLite column.

  scripts/setup_python.sh     # once: /tmp/tfi-venv with ai-edge-litert
  python3 scripts/bench_vs_tflite.py --build build --rounds 7 --num_runs 30
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ours(bench, graph, threads, flag, runs, warmup, extra=(), quiet=False):
    """Per-run latencies (us) from our benchmark_model --output_json, or None."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [bench, f"--graph={graph}", f"--num_threads={threads}", f"--num_runs={runs}",
               f"--warmup_runs={warmup}", "--min_secs=0", "--warmup_min_secs=0",
               "--custom_ops=mediapipe", f"--output_json={out.name}", *flag, *extra]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            if quiet:
                return None, None
            print(f"warning: {' '.join(cmd)} failed: {p.stderr.strip()[-300:]}", file=sys.stderr)
            return None, None
        with open(out.name) as f:
            data = json.load(f)
    return data["inference"]["runs_us"], data


def tflite(python, graph, threads, runs, warmup, builtin=False):
    cmd = [python, os.path.join(ROOT, "scripts", "time_tflite.py"), "--graph", graph,
           "--num_threads", str(threads), "--num_runs", str(runs), "--warmup_runs", str(warmup),
           "--json"] + (["--builtin"] if builtin else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])["runs_us"]


def xnnpack_models(bench, models_dir, only):
    found = []
    for dirpath, _, files in os.walk(models_dir):
        for f in sorted(files):
            if not f.endswith(".tflite") or (only and not any(o in f for o in only)):
                continue
            path = os.path.join(dirpath, f)
            # Models XNNPACK takes by default (float32 and 8-bit ops); not those our runtime
            # cannot run (custom ops it lacks, ...).
            _, data = ours(bench, path, 1, [], 1, 0, quiet=True)
            if data and any("XNNPACK" in json.dumps(d) for d in data.get("delegates", [])):
                found.append(path)
    return sorted(found)


def fmt_us(v):
    if v is None:
        return "n/a"
    if v < 1:  # benchmark_model records whole microseconds
        return "< 1 µs"
    return f"{v / 1000:.2f} ms" if v >= 10000 else f"{v:.0f} µs"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models"))
    p.add_argument("--python", default="/tmp/tfi-venv/bin/python")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--num_runs", type=int, default=30, help="timed runs per round and variant")
    p.add_argument("--warmup_runs", type=int, default=3)
    p.add_argument("--only", default="", help="comma-separated substrings of model file names")
    p.add_argument("--json", help="also write every latency here")
    p.add_argument("--default_only", action="store_true",
                   help="only the default paths (ours with XNNPACK, TFLite with it): the builtin "
                        "columns take most of the time on large models")
    a = p.parse_args()
    bench = os.path.join(a.build, "cmd", "benchmark_model")
    if not os.path.exists(bench):
        sys.exit(f"no {bench}: build the benchmark_model target first")
    if not os.path.isdir(a.models):
        sys.exit(f"no models at {a.models}")
    has_tflite = os.path.exists(a.python)
    if not has_tflite:
        print(f"warning: no {a.python} (scripts/setup_python.sh): no TFLite column", file=sys.stderr)
    models = xnnpack_models(bench, a.models, [o for o in a.only.split(",") if o])
    variants = ["cpu", "xnnpack"] + (["tflite", "tflite_builtin"] if has_tflite else [])
    if a.default_only:
        variants = [v for v in variants if v in ("xnnpack", "tflite")]
    results = []
    for model in models:
        name = os.path.splitext(os.path.basename(model))[0]
        for threads in [int(t) for t in a.threads.split(",")]:
            runs = {v: [] for v in variants}
            rounds = {v: [] for v in variants}  # per-round medians
            for r in range(a.rounds):
                order = variants[r % len(variants):] + variants[:r % len(variants)]
                for v in order:
                    if v.startswith("tflite"):
                        got = tflite(a.python, model, threads, a.num_runs, a.warmup_runs,
                                     builtin=v == "tflite_builtin")
                    else:
                        flag = ["--use_xnnpack=false"] if v == "cpu" else ["--use_xnnpack=true"]
                        got, _ = ours(bench, model, threads, flag, a.num_runs, a.warmup_runs)
                    if got:
                        runs[v] += got
                        rounds[v].append(statistics.median(got))
            row = {"model": name, "threads": threads}
            for v in ("cpu", "xnnpack", "tflite", "tflite_builtin"):
                row[v] = statistics.median(runs[v]) if runs.get(v) else None
                row[v + "_rounds"] = rounds.get(v, [])
            for v, ref in (("cpu", "tflite_builtin"), ("xnnpack", "tflite")):
                # Sub-microsecond models (whole-µs timings of 0) have no meaningful ratio.
                pairs = [(x, t) for x, t in zip(rounds.get(v, []), rounds.get(ref, [])) if x > 0 and t > 0]
                row[v + "_ratio"] = statistics.median(x / t for x, t in pairs) if pairs else None
            results.append(row)
            print(f"{name} threads={threads}: " + ", ".join(f"{v} {fmt_us(row[v])}" for v in variants),
                  file=sys.stderr)
    print(f"\n{a.rounds} rounds x {a.num_runs} runs per variant, medians; ratio = median over rounds "
          "of ours / TFLite\n")
    print("| model | threads | ours, builtin kernels | TFLite, builtin kernels | ours, XNNPACK | "
          "TFLite + XNNPACK | builtin / TFLite builtin | XNNPACK / TFLite default |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in results:
        ratio = lambda x: "n/a" if x is None else f"{x:.2f}"
        print(f"| {row['model']} | {row['threads']} | {fmt_us(row['cpu'])} | "
              f"{fmt_us(row.get('tflite_builtin'))} | {fmt_us(row['xnnpack'])} | "
              f"{fmt_us(row.get('tflite'))} | {ratio(row['cpu_ratio'])} | {ratio(row['xnnpack_ratio'])} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
