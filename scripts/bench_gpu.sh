#!/usr/bin/env bash
# GPU delegate numbers per float model in ../shared/models (docs/performance.md):
# init with a cold kernel cache and with --gpu_cache_dir warm, first inference, steady
# state (median) for the GPU in fp32 and fp16 storage, our CPU kernels alongside, and the
# bytes copied across partition boundaries per inference. Prints a Markdown table.
#   scripts/bench_gpu.sh [build_dir] [num_runs]
# Runs anywhere with an OpenCL device (PoCL's CPU device here; a real GPU elsewhere).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
runs="${2:-20}"
bench="$build/cmd/benchmark_model"
models="${TFI_SHARED_DIR:-$root/../shared}/models"
[ -x "$bench" ] || { echo "no $bench: build first (scripts/build.sh)" >&2; exit 1; }
[ -d "$models" ] || { echo "no models at $models (scripts/fetch_models.sh)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Private driver kernel caches (PoCL's; NVIDIA's compute cache), so the first GPU run
# below really is cold.
export POCL_CACHE_DIR="$work/pocl" CUDA_CACHE_PATH="$work/nvcache"

json() {  # json FILE EXPR
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

echo "| model | CPU median (ms) | GPU fp32 median (ms) | GPU fp16 median (ms) | GPU init cold (ms) | GPU init cached (ms) | first inference (ms) | bytes/inference to / from device |"
echo "|---|---|---|---|---|---|---|---|"
for m in "$models"/mediapipe/*.tflite "$models"/tflm/hello_world_float.tflite; do
  name="$(basename "$m" .tflite)"
  common=(--graph="$m" --custom_ops=mediapipe --num_runs="$runs" --warmup_runs=2 --min_secs=0 --warmup_min_secs=0)
  "$bench" "${common[@]}" --use_xnnpack=false --output_json="$work/cpu.json" >/dev/null 2>&1
  rm -rf "$work/cache" "$POCL_CACHE_DIR" "$CUDA_CACHE_PATH"
  "$bench" "${common[@]}" --use_gpu=true --use_xnnpack=false --gpu_cache_dir="$work/cache" \
    --output_json="$work/cold.json" >/dev/null 2>&1
  "$bench" "${common[@]}" --use_gpu=true --use_xnnpack=false --gpu_cache_dir="$work/cache" \
    --output_json="$work/fp16.json" >/dev/null 2>&1
  "$bench" "${common[@]}" --use_gpu=true --use_xnnpack=false --gpu_precision_loss_allowed=false \
    --gpu_cache_dir="$work/cache" --output_json="$work/fp32.json" >/dev/null 2>&1
  med() { json "$1" "'%.2f' % (d['inference']['p50'] / 1e3)"; }
  init() { json "$1" "'%.0f' % (d['init_us']['total'] / 1e3)"; }
  first="$(json "$work/fp16.json" "'%.2f' % (d['warmup']['first'] / 1e3)")"
  bytes="$(json "$work/fp16.json" "'%d / %d' % tuple(int(x['counters'][k] / (d['warmup']['count'] + d['inference']['count'])) for x in d['delegates'] if x['label'] == 'GPU' for k in ('gpu_bytes_to_device', 'gpu_bytes_from_device'))")"
  echo "| $name | $(med "$work/cpu.json") | $(med "$work/fp32.json") | $(med "$work/fp16.json") | $(init "$work/cold.json") | $(init "$work/fp16.json") | $first | $bytes |"
done
