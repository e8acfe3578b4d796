#!/usr/bin/env python3
"""How far TFLite's own default path (XNNPACK applied by default) is from its builtin
kernels, per model: the bar our default path is held to against TFLite's builtin goldens.

    /tmp/tfi-venv/bin/python scripts/tflite_default_vs_builtin.py MODEL.tflite...

Seeded inputs (float: standard normal; integers: 0..9), one thread; prints per output the
largest |default - builtin| and that divided by max(1, max|builtin|).
"""
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def run(path, resolver):
    it = Interpreter(model_path=path, experimental_op_resolver_type=resolver, num_threads=1)
    it.allocate_tensors()
    rng = np.random.default_rng(0)
    for d in it.get_input_details():
        if np.issubdtype(d["dtype"], np.floating):
            x = rng.standard_normal(d["shape"]).astype(d["dtype"])
        else:
            x = rng.integers(0, 10, d["shape"]).astype(d["dtype"])
        it.set_tensor(d["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]).astype(np.float64) for d in it.get_output_details()]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    print(f"{'model':48} {'output':>6} {'max abs':>10} {'relative':>10}")
    for path in sys.argv[1:]:
        builtin = run(path, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        default = run(path, OpResolverType.AUTO)
        for i, (b, d) in enumerate(zip(builtin, default)):
            err = float(np.max(np.abs(d - b))) if b.size else 0.0
            rel = err / max(1.0, float(np.max(np.abs(b))) if b.size else 1.0)
            print(f"{path.split('/')[-1]:48} {i:>6} {err:>10.2e} {rel:>10.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
