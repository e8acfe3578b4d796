#!/usr/bin/env python3
"""Writes testdata/kernels/: single-op models and the real TFLite runtime's outputs on them.

The models come from our ModelBuilder: the hidden test case [.write_kernel_models] of
tflite_goldens_test writes testdata/kernels/<case>/model.tflite. Each model then runs on
ai-edge-litert's interpreter with its reference-kernel resolver (BUILTIN_REF; the builtin
resolver without delegates where that lacks the op version, noted in report.json), fed with
seeded inputs (the same generator as scripts/gen_goldens.py); inputs, outputs and a
report.json are written beside the model. A model TFLite refuses gets "refused" (the
error) in report.json and no outputs: our runtime must refuse it too.

Run with a Python that has ai-edge-litert (scripts/setup_python.sh makes one):
    /tmp/tfi-venv/bin/python scripts/gen_kernel_goldens.py build/lib/tflite_goldens_test [CASE...]
(with CASE names, only those cases are regenerated).
"""
import json
import os
import subprocess
import sys

import numpy as np
from ai_edge_litert import __version__ as litert_version
from ai_edge_litert.interpreter import Interpreter, OpResolverType

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_goldens import describe, generated_input  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "testdata", "kernels")


# Cases whose golden must come from TFLite's default (optimized) kernels, with the reason.
OPTIMIZED_CASES = {
    # Rows longer than 256: TFLite's reference int8 SOFTMAX TFLITE_CHECK-aborts once a
    # row's sum of exps passes 2^8; the runtime computes such rows as TFLite's default
    # kernel does (the float table), whatever the values.
    "softmax_int8_1000_classes": "rows of 1000: TFLite's reference int8 SOFTMAX aborts",
    "softmax_int8_300_small_scale": "rows over 256 run TFLite's default (table) kernel",
    # Float outputs of per-channel hybrid convolutions: TFLite's optimized kernels (the
    # default) multiply the scales in another order than its reference kernels, and the
    # runtime computes what TFLite runs by default.
    "depthwise_hybrid_per_channel_same": "float rescale in the optimized kernel's order",
    "conv_hybrid_per_channel": "float rescale in the optimized kernel's order",
    # Grouped hybrid convolutions: the default resolver runs them on the reference kernel
    # (its order of the scale products, which the runtime follows for grouped layers).
    "conv_groups_depthwise_hybrid_7x7": "grouped: TFLite's default runs its reference kernel",
    "conv_groups_depthwise_hybrid_3x3_stride_2": "grouped: TFLite's default runs its reference kernel",
    "conv_groups_hybrid_one_image": "grouped: TFLite's default runs its reference kernel",
    "conv_groups_hybrid_two_images": "grouped: TFLite's default runs its reference kernel",
    "conv_groups_hybrid_8_channels_merged_by_2": "grouped: TFLite's default runs its reference kernel",
    "conv_groups_hybrid_4_channels_merged_by_4": "grouped: TFLite's default runs its reference kernel",
}
# Float layers in dynamic-range graphs: the sums of TFLite's default (Eigen) float GEMM.
OPTIMIZED_CASES.update({
    name: "float sums of the default (Eigen) GEMM" for name in (
        "float_conv_in_hybrid_graph_11_channels", "float_conv_in_hybrid_graph_22_channels",
        "float_conv_in_hybrid_graph_one_pixel", "float_conv_in_hybrid_graph_one_channel",
        "float_conv_in_hybrid_graph_first_layer",
        "float_fully_connected_in_hybrid_graph",
        "float_fully_connected_in_hybrid_graph_batch_1",
        "float_batch_matmul_in_hybrid_graph")})
# Float LOGISTIC, TANH, SOFTMAX, MEAN and GELU: the default kernels' Eigen arithmetic (exp,
# tanh, sums, erfc), the bits that dynamic-range models quantize (the reference kernels use
# std::exp, std::tanh and plain loops).
OPTIMIZED_CASES.update({
    name: "float arithmetic of the default (Eigen) kernel" for name in (
        "logistic_float_3x1367_scaled_by_4", "logistic_float_4099_scaled_by_40",
        "logistic_float_1x7", "swish_float_2x1001_scaled_by_6",
        "tanh_float_3x1367_scaled_by_3", "tanh_float_1x7_scaled_by_9",
        "softmax_float_1000_classes", "softmax_float_rows_of_10_beta_20",
        "softmax_float_rows_of_3", "softmax_float_rows_of_129", "mean_float_innermost_37",
        "gelu_float_3x1367", "gelu_float_4099_scaled_by_4",
        "gelu_float_approximate_3x1367_scaled_by_3",
        "mean_float_innermost_two_axes", "mean_float_spatial", "mean_float_outer_axis")})


def load(path, report, case):
    """The reference resolver; its optimized builtin resolver (no delegates) only where the
    reference one lacks the op version (e.g. DEPTHWISE_CONV_2D v7 in 2.3.0) or the case is
    in OPTIMIZED_CASES, noted."""
    if case in OPTIMIZED_CASES:
        it = Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=(
            OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES))
        report["runtime"] = (f"ai-edge-litert {litert_version}, BUILTIN_WITHOUT_DEFAULT_DELEGATES "
                             f"(optimized kernels: {OPTIMIZED_CASES[case]})")
        it.allocate_tensors()
        return it
    try:
        it = Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    except ValueError as e:
        if "Didn't find op for builtin opcode" not in str(e):
            raise
        it = Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=(
            OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES))
        report["runtime"] = (f"ai-edge-litert {litert_version}, BUILTIN_WITHOUT_DEFAULT_DELEGATES "
                             "(optimized kernels: BUILTIN_REF lacks this op version)")
    it.allocate_tensors()
    return it


def run_case(case_dir):
    for f in os.listdir(case_dir):
        if f != "model.tflite":
            os.remove(os.path.join(case_dir, f))
    name = os.path.basename(case_dir)
    report = {"model": f"testdata:kernels/{name}/model.tflite",
              "runtime": f"ai-edge-litert {litert_version}, BUILTIN_REF (reference kernels)",
              "inputs": [], "outputs": []}
    try:
        it = load(os.path.join(case_dir, "model.tflite"), report, name)
    except (RuntimeError, ValueError) as e:
        report["refused"] = str(e).strip()
        del report["inputs"], report["outputs"]
    else:
        for i, d in enumerate(it.get_input_details()):
            x = generated_input(d, 1, i)
            x.tofile(os.path.join(case_dir, f"input_{i}.bin"))
            entry = describe(d)
            entry["file"] = f"input_{i}.bin"
            it.set_tensor(d["index"], x)
            report["inputs"].append(entry)
        try:
            it.invoke()
        except RuntimeError as e:  # a check of the values at Eval (dynamic outputs)
            report["refused_at_invoke"] = str(e).strip()
            del report["outputs"]
        for i, d in enumerate(it.get_output_details() if "outputs" in report else []):
            y = it.get_tensor(d["index"])
            y.tofile(os.path.join(case_dir, f"output_{i}.bin"))
            entry = describe(d)
            entry["file"] = f"output_{i}.bin"
            entry["max_abs"] = float(np.abs(y.astype(np.float64)).max()) if y.size else 0.0
            report["outputs"].append(entry)
    with open(os.path.join(case_dir, "report.json"), "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    refused = "refused" in report or "refused_at_invoke" in report
    print(f"wrote testdata/kernels/{name}" + (" (TFLite refuses it)" if refused else ""))


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(OUT, exist_ok=True)
    env = dict(os.environ, TFI_KERNEL_GOLDEN_DIR=OUT)
    subprocess.run([sys.argv[1], "[.write_kernel_models]"], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    only = set(sys.argv[2:])
    for name in sorted(os.listdir(OUT)):
        if only and name not in only:
            continue
        if os.path.isfile(os.path.join(OUT, name, "model.tflite")):
            run_case(os.path.join(OUT, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
