#!/usr/bin/env bash
# Sets up, builds and runs every test: the libFuzzer targets (ASan + UBSan, bounded
# time) and then the whole ctest suite, whose summary ends the output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# PoCL compiles kernels into a cache and needs a writable folder for it.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-/tmp/tfi-pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
# Under ASan + UBSan: each fuzzer mutates for 60 s (after running every real model and
# past finding once); then the sanitizer-built tools take testdata/malformed (ctest's
# malformed_cli_test). Longer campaigns: scripts/fuzz.sh SECONDS [model|invoke|tools].
bash scripts/fuzz.sh "${TFI_FUZZ_SECONDS:-60}" model
bash scripts/fuzz.sh "${TFI_INVOKE_FUZZ_SECONDS:-60}" invoke
bash scripts/fuzz.sh 0 tools
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFI_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
