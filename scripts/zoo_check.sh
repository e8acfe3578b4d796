#!/usr/bin/env bash
# Runs every model of the zoos through `tflite-inspect run` (default flags) against its
# TFLite golden and prints the table (model, mode, ops, result, max error) that
# docs/runtime.md records. Zoos: the cache of scripts/gen_zoo.py ($TFI_ZOO_CACHE, default
# ~/.cache/tflite-inspect/zoo) and ../shared/models/zoo; or the folders given.
# Needs a build (scripts/build.sh) and a Python with numpy (scripts/setup_python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
TOOL=${TFI_TOOL:-build/cmd/tflite-inspect}
PY=${TFI_PYTHON:-/tmp/tfi-venv/bin/python}
[[ -x "$TOOL" ]] || { echo "zoo_check: build first ($TOOL missing)" >&2; exit 2; }
[[ -x "$PY" ]] || PY=python3
if [[ $# -eq 0 ]]; then
  set -- "${TFI_ZOO_CACHE:-$HOME/.cache/tflite-inspect/zoo}" ../shared/models/zoo
fi
exec "$PY" scripts/zoo_check.py "$TOOL" "$@"
