#!/usr/bin/env bash
# Sets up, builds and runs every test: the libFuzzer targets (ASan + UBSan, bounded
# time), the arm64 phone bundle, and then the whole ctest suite, whose summary ends the
# output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# PoCL compiles kernels into a cache and needs a writable folder for it.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-/tmp/tfi-pocl-cache}
mkdir -p "$POCL_CACHE_DIR"
# Under ASan + UBSan: each fuzzer runs every seed and past finding once, then a fixed
# series of mutations (libFuzzer -seed=1, about a minute each: the same inputs on every
# run, so CI does not fail at random); then the sanitizer-built tools take
# testdata/malformed (ctest's malformed_cli_test). Exploring new inputs is
# scripts/fuzz.sh SECONDS [model|invoke|tools].
TFI_FUZZ_RUNS="${TFI_FUZZ_MODEL_RUNS:-15000}" bash scripts/fuzz.sh 0 model
TFI_FUZZ_RUNS="${TFI_FUZZ_INVOKE_RUNS:-6000}" bash scripts/fuzz.sh 0 invoke
# Coverage steers the mutations, and the kernels a CPU takes change the coverage: the same
# series again on the AVX2 kernels (TFI_KERNEL_ISA caps this CPU's), the paths of a machine
# without AVX-512 or VNNI.
TFI_KERNEL_ISA=avx2 TFI_FUZZ_RUNS="${TFI_FUZZ_INVOKE_RUNS:-6000}" bash scripts/fuzz.sh 0 invoke
bash scripts/fuzz.sh 0 tools
# Phones: the arm64 bundle, cross-built with Debian's toolchain, for the tests that run it
# under qemu-user (phone_bundle_test, adb_benchmark_test).
bash scripts/phone_bundle.sh arm64 build-arm64/bundle
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFI_BUILD_TESTS=ON >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
