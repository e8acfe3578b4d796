#!/usr/bin/env bash
# Fetches the third-party models the tests use into DIR (default ../shared/models) on a
# machine that lacks them, and checks every file against scripts/data/shared_models.sha256.
# Sources (see ../shared/models/README.md): MediaPipe npm packages (Apache-2.0) and the
# TensorFlow Lite Micro repository at commit 90b983c2b3f1 (Apache-2.0). Needs network
# access to registry.npmjs.org and raw.githubusercontent.com.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-$ROOT/../shared/models}
TFLM_COMMIT=${TFLM_COMMIT:-90b983c2b3f1}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$DIR/mediapipe" "$DIR/tflm"

# MediaPipe: each model is a loose file in its npm tarball or packed in
# *_packed_assets.data, whose loader script lists {filename, start, end}.
fetch_mediapipe() {  # package version model...
  local pkg=$1 ver=$2; shift 2
  local tgz="$TMP/$pkg.tgz"
  curl -fsSL "https://registry.npmjs.org/@mediapipe/$pkg/-/$pkg-$ver.tgz" -o "$tgz"
  mkdir -p "$TMP/$pkg" && tar xzf "$tgz" -C "$TMP/$pkg"
  for model in "$@"; do
    if [[ -f "$TMP/$pkg/package/$model" ]]; then
      cp "$TMP/$pkg/package/$model" "$DIR/mediapipe/$model"
      continue
    fi
    python3 - "$TMP/$pkg/package" "$model" "$DIR/mediapipe/$model" <<'PY'
import glob, json, re, sys
pkg, model, out = sys.argv[1:]
for loader in glob.glob(pkg + "/*_packed_assets_loader.js"):
    for m in re.finditer(r'\{[^{}]*"filename"\s*:\s*"/?([^"]+)"[^{}]*\}', open(loader).read()):
        entry = json.loads(m.group(0))
        if entry["filename"].lstrip("/") == model:
            data = open(loader.replace("_loader.js", ".data"), "rb").read()
            open(out, "wb").write(data[entry["start"]:entry["end"]])
            sys.exit(0)
sys.exit(f"{model} not found in {pkg}")
PY
  done
}
fetch_mediapipe face_detection 0.4.1657300184 face_detection_short_range.tflite
fetch_mediapipe face_mesh 0.4.1657299874 face_landmark.tflite face_landmark_with_attention.tflite
fetch_mediapipe hands 0.4.1675469240 hand_landmark_lite.tflite palm_detection_lite.tflite
fetch_mediapipe pose 0.5.1675469404 pose_detection.tflite pose_landmark_lite.tflite
fetch_mediapipe selfie_segmentation 0.1.1675465747 selfie_segmentation.tflite

# TFLite Micro: files at a fixed commit.
RAW="https://raw.githubusercontent.com/tensorflow/tflite-micro/$TFLM_COMMIT"
tflm() { mkdir -p "$(dirname "$DIR/tflm/$2")"; curl -fsSL "$RAW/$1" -o "$DIR/tflm/$2"; }
tflm tensorflow/lite/micro/examples/hello_world/models/hello_world_float.tflite hello_world_float.tflite
tflm tensorflow/lite/micro/examples/hello_world/models/hello_world_int8.tflite hello_world_int8.tflite
tflm tensorflow/lite/micro/examples/micro_speech/models/micro_speech_quantized.tflite micro_speech_quantized.tflite
tflm tensorflow/lite/micro/examples/micro_speech/models/audio_preprocessor_int8.tflite audio_preprocessor_int8.tflite
tflm tensorflow/lite/micro/examples/mnist_lstm/trained_lstm.tflite trained_lstm.tflite
tflm tensorflow/lite/micro/examples/mnist_lstm/trained_lstm_int8.tflite trained_lstm_int8.tflite
tflm tensorflow/lite/micro/models/keyword_scrambled.tflite keyword_scrambled.tflite
tflm tensorflow/lite/micro/models/person_detect.tflite person_detect.tflite
tflm tensorflow/lite/micro/models/person_detect_vela.tflite person_detect_vela.tflite
tflm third_party/xtensa/examples/pytorch_to_tflite/mobilenet_v2_quantized_1x3x224x224.tflite mobilenet_v2_quantized_1x3x224x224.tflite
# The seanet single-op integration tests: every file the checksum list names.
grep -o 'seanet/[^ ]*' "$ROOT/scripts/data/shared_models.sha256" | while read -r f; do
  tflm "tensorflow/lite/micro/integration_tests/$f" "$f"
done

(cd "$DIR" && sha256sum --quiet -c "$ROOT/scripts/data/shared_models.sha256")
echo "fetch_models: all files in $DIR match scripts/data/shared_models.sha256"
