#!/usr/bin/env bash
# The GPU delegate on a machine with a real OpenCL GPU but none of our build tools (the
# NVIDIA H200 machine lent to some tasks): pack here, check there.
#   scripts/gpu_device.sh pack DIR    DIR/bundle.tar.gz: the tools, the GPU test binaries,
#                                     the non-glibc libraries they load, ../shared's float
#                                     models (mediapipe, tflm hello_world, the zoo's floats)
#   scripts/gpu_device.sh check DIR   (there, from the repository root) registers the
#                                     machine's OpenCL driver with our ICD loader, runs the
#                                     GPU test binaries and scripts/bench_gpu.sh, and
#                                     inference_diff --use_gpu on every packed float model;
#                                     logs and the table go to $OUT (or DIR/out)
# The test binaries carry this checkout's absolute paths (TFI_SOURCE_DIR and friends):
# `check` links them to the unpacked copy, so it wants to run as root where those paths
# do not exist.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
usage() { echo "usage: scripts/gpu_device.sh pack|check DIR" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
DIR=$2

pack() {
  local build="$ROOT/build" shared="${TFI_SHARED_DIR:-$ROOT/../shared}"
  local stage
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' RETURN
  mkdir -p "$stage/build/cmd" "$stage/build/delegates/gpu" "$stage/lib" \
    "$stage/shared/models/mediapipe" "$stage/shared/models/tflm" "$stage/shared/models/zoo"
  for t in tflite-inspect benchmark_model inference_diff delegate_report inspect_ops; do
    strip -o "$stage/build/cmd/$t" "$build/cmd/$t"
  done
  for t in gpu_delegate_test gpu_cli_test opencl_smoke_test; do
    strip -o "$stage/build/delegates/gpu/$t" "$build/delegates/gpu/$t"
  done
  # Every library outside glibc / libstdc++ (the machine's own are newer and compatible).
  ldd "$stage"/build/cmd/* "$stage"/build/delegates/gpu/* 2>/dev/null |
    awk '$3 ~ /^\// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  cp "$shared"/models/mediapipe/*.tflite "$stage/shared/models/mediapipe/"
  cp "$shared"/models/tflm/hello_world_float.tflite "$stage/shared/models/tflm/"
  cp "$shared"/models/zoo/*_float.tflite "$shared"/models/zoo/*_fp16.tflite "$stage/shared/models/zoo/" 2>/dev/null || true
  mkdir -p "$DIR"
  tar -C "$stage" -czf "$DIR/bundle.tar.gz" .
  du -h "$DIR/bundle.tar.gz"
}

check() {
  local out="${OUT:-$DIR/out}" here
  here="$ROOT/$DIR"
  [[ "$DIR" = /* ]] && here="$DIR"
  if [[ ! -f "$here/bundle.tar.gz" ]]; then
    echo "no $here/bundle.tar.gz: make it with scripts/gpu_device.sh pack $DIR" >&2
    exit 1
  fi
  mkdir -p "$out"
  mkdir -p "$here/x"
  tar -C "$here/x" -xzf "$here/bundle.tar.gz"
  export LD_LIBRARY_PATH="$here/x/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export TFI_SHARED_DIR="$here/x/shared"
  # The GPU driver's OpenCL library, alone, registered with the ICD loader we carry (a
  # machine may also register PoCL, whose CPU device would answer first).
  local lib
  lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so/ {print $NF; exit}' || true)
  [[ -n "$lib" ]] || lib=$(find /usr/local/nvidia /usr/lib /usr/lib64 /lib /usr/local/cuda* \
                             -name 'libnvidia-opencl.so*' 2>/dev/null | head -1 || true)
  if [[ -n "$lib" ]]; then
    mkdir -p /tmp/icd && echo "$lib" > /tmp/icd/nvidia.icd
    export OCL_ICD_VENDORS=/tmp/icd
    echo "ICD: $lib"
  else
    { echo "no libnvidia-opencl found; registered: $(cat /etc/OpenCL/vendors/*.icd 2>/dev/null | paste -sd' ')"
      ls /usr/local/nvidia/lib64 /usr/local/nvidia/lib 2>&1 | head -40
      find / -xdev -name 'libnvidia-*.so*' 2>/dev/null | head -20 || true; } | tee "$out/summary.txt" || true
    [[ -n "${TFI_GPU_ANY:-}" ]] || exit 1
  fi
  # The test binaries' compiled-in paths point at this checkout's place on the packing machine.
  local src
  src=$(grep -a -o -m1 '/[[:alnum:]_./-]*/build/cmd/tflite-inspect' "$here/x/build/delegates/gpu/gpu_cli_test" | head -1 | sed 's,/build/cmd/tflite-inspect,,' || true)
  if [[ -n "$src" && ! -e "$src" ]]; then
    mkdir -p "$(dirname "$src")"
    ln -sfn "$ROOT" "$src"
    ln -sfn "$here/x/shared" "$(dirname "$src")/shared"
  fi
  # TFI_SHARED_DIR is compiled in as <checkout>/../shared: through the link above, that is
  # the parent of this copy.
  [[ -e "$(dirname "$ROOT")/shared" ]] || ln -sfn "$here/x/shared" "$(dirname "$ROOT")/shared"
  [[ -e "$ROOT/build" ]] || ln -sfn "$here/x/build" "$ROOT/build"
  local b="$here/x/build"
  nvidia-smi -L 2>/dev/null || true
  "$b/cmd/benchmark_model" --graph="$TFI_SHARED_DIR/models/tflm/hello_world_float.tflite" \
    --use_gpu=true --num_runs=1 2>&1 | grep -i -E 'opencl|device' | head -3
  timeout 240 bash scripts/bench_gpu.sh "$b" 20 2>&1 | tee "$out/bench_gpu.md"
  # Accuracy of the GPU against our CPU kernels on every packed float model, fp32 and fp16
  # (the max abs error of each output, '/'-separated).
  {
    echo "| model | fp32: max abs error | fp16 storage: max abs error |"
    echo "|---|---|---|"
    for m in "$TFI_SHARED_DIR"/models/*/*.tflite; do
      local row="| $(basename "$m" .tflite) |"
      for p in false true; do
        local e
        e=$(timeout 60 "$b/cmd/inference_diff" --graph="$m" --custom_ops=mediapipe --use_gpu=true \
              --gpu_precision_loss_allowed=$p --num_runs=3 2>&1 |
            awk '/max abs error/ {sub(/,.*/, ""); print $4}' | paste -sd/ - || true)
        row="$row ${e:-(no line)} |"
      done
      echo "$row"
    done
  } 2>&1 | tee "$out/accuracy.md"
  {
    for t in opencl_smoke_test gpu_delegate_test gpu_cli_test; do
      local rc=0
      timeout 150 "$b/delegates/gpu/$t" >"$out/$t.log" 2>&1 || rc=$?
      echo "$t: exit $rc, $(tail -3 "$out/$t.log" | grep -E 'test cases|All tests' | head -1)"
    done
  } 2>&1 | tee -a "$out/summary.txt"
}

case "$1" in
  pack) pack ;;
  check) check ;;
  *) usage ;;
esac
