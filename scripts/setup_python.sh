#!/usr/bin/env bash
# Makes a Python virtual environment with the real TFLite runtime (ai-edge-litert) and
# the TensorFlow converter (tensorflow-cpu), for the scripts that generate testdata/.
# Tests never need it. Usage: scripts/setup_python.sh [VENV_DIR]   (default /tmp/tfi-venv)
set -euo pipefail
VENV=${1:-/tmp/tfi-venv}
if [[ ! -x "$VENV/bin/python" ]]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q tensorflow-cpu ai-edge-litert numpy
"$VENV/bin/python" -c "import tensorflow as tf, ai_edge_litert; print('tensorflow', tf.__version__, '/ ai-edge-litert ready in $VENV')"
