#!/usr/bin/env python3
"""Times the real TFLite runtime (ai-edge-litert, XNNPACK by default) on a model, the
way benchmark_model times ours: warm-up, then N timed invocations on fixed random
inputs; prints the median, p90 and mean in microseconds. Used to compare our CPU path
with TFLite's on the same machine and thread count (docs/xnnpack.md).

  scripts/setup_python.sh        # once: venv with ai-edge-litert
  python scripts/time_tflite.py --graph M.tflite --num_threads 1 --num_runs 100

--json prints {"runs_us": [...]} instead (scripts/bench_vs_tflite.py reads it).
--builtin times TFLite's builtin kernels without its default XNNPACK delegate
(OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES), the counterpart of our
--use_xnnpack=false.
"""
import argparse
import json
import statistics
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--graph", required=True)
    p.add_argument("--num_threads", type=int, default=1)
    p.add_argument("--num_runs", type=int, default=100)
    p.add_argument("--warmup_runs", type=int, default=10)
    p.add_argument("--json", action="store_true", help="print the per-run latencies as JSON")
    p.add_argument("--builtin", action="store_true",
                   help="builtin kernels only (no default XNNPACK delegate)")
    a = p.parse_args()
    kwargs = {}
    if a.builtin:
        kwargs["experimental_op_resolver_type"] = OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES
    it = Interpreter(model_path=a.graph, num_threads=a.num_threads, **kwargs)
    it.allocate_tensors()
    rng = np.random.default_rng(1)
    for d in it.get_input_details():
        if np.issubdtype(d["dtype"], np.floating):
            x = rng.uniform(-0.5, 0.5, d["shape"]).astype(d["dtype"])
        else:
            info = np.iinfo(d["dtype"])
            x = rng.integers(max(info.min, -127), min(info.max, 127), d["shape"]).astype(d["dtype"])
        it.set_tensor(d["index"], x)
    for _ in range(a.warmup_runs):
        it.invoke()
    runs = []
    for _ in range(a.num_runs):
        t0 = time.perf_counter_ns()
        it.invoke()
        runs.append((time.perf_counter_ns() - t0) / 1000.0)
    if a.json:
        print(json.dumps({"runs_us": runs}))
        return
    runs.sort()
    p90 = runs[min(len(runs) - 1, int(0.9 * len(runs)))]
    print(f"tflite {a.graph} threads={a.num_threads} runs={len(runs)} "
          f"p50={statistics.median(runs):.0f} p90={p90:.0f} avg={statistics.mean(runs):.0f} us")


if __name__ == "__main__":
    main()
