#!/usr/bin/env bash
# The main job on a bundled model: set up, build (Release), and inspect
# testdata/models/tiny_cnn_float.tflite with the resolver check.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh -DTFI_BUILD_TESTS=OFF
MODEL=${1:-testdata/models/tiny_cnn_float.tflite}
./build/cmd/inspect_ops --graph="$MODEL" --check_resolver
