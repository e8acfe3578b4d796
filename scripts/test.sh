#!/usr/bin/env bash
# Sets up, builds and runs every test: the libFuzzer run over the model loader (ASan +
# UBSan, bounded time) and then the whole ctest suite, whose summary ends the output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# PoCL compiles kernels into a cache and needs a writable folder for it.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-/tmp/tfi-pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
bash scripts/fuzz.sh "${TFI_FUZZ_SECONDS:-60}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFI_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
