#!/usr/bin/env bash
# Installs missing packages, then configures and builds tflite-inspect (Release) in
# build/. Extra arguments go to CMake, e.g. scripts/build.sh -DTFI_BUILD_TESTS=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j "$(nproc)"
