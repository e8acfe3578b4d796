#!/usr/bin/env bash
# Sets up, builds and runs every test: the libFuzzer targets (ASan + UBSan, bounded
# time) and then the whole ctest suite, whose summary ends the output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# PoCL compiles kernels into a cache and needs a writable folder for it.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-/tmp/tfi-pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
# The loader fuzzer mutates for 60 s; the invoke fuzzer runs its seeds (every real model
# and testdata/malformed) once under the sanitizers. Its mutation campaign still finds
# new inputs now and then (docs/runtime.md), so it is `scripts/fuzz.sh SECONDS invoke`,
# not a CI step that would fail at random: TFI_INVOKE_FUZZ_SECONDS=60 puts it here.
bash scripts/fuzz.sh "${TFI_FUZZ_SECONDS:-60}" model
bash scripts/fuzz.sh "${TFI_INVOKE_FUZZ_SECONDS:-0}" invoke
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFI_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
