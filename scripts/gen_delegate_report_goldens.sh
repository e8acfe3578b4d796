#!/usr/bin/env bash
# Regenerates testdata/goldens/delegate_report/ with a built delegate_report:
#
#   bash scripts/gen_delegate_report_goldens.sh [BUILD_DIR]   (default: build)
#
# Each golden is the tool's text and --json output, run in ../shared/models so the paths
# in them do not depend on the checkout. The cases must match kGoldens in
# cmd/delegate_report/delegate_report_cli_test.cc. Read the diff before committing: the
# partition counts, reasons and bytes are the test's expectations.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
bin="$build/cmd/delegate_report"
models="$root/../shared/models"
out="$root/testdata/goldens/delegate_report"
[[ -x "$bin" ]] || { echo "no $bin; build the delegate_report target first" >&2; exit 1; }
[[ -d "$models" ]] || { echo "no models at $models" >&2; exit 1; }
mkdir -p "$out"
# As the tests run (lib/testing/test_environment.cc): the delegate's own GEMM steps off,
# so the logs do not depend on the CPU.
export TFI_XNNPACK_OWN_GEMM=0

gen() {
  local name="$1"; shift
  (cd "$models" && "$bin" "$@") >"$out/$name.txt"
  # The test compares parsed JSON; arrays of numbers go on one line to keep diffs short.
  (cd "$models" && "$bin" "$@" --json) | python3 -c '
import json, re, sys
text = json.dumps(json.load(sys.stdin), indent=1, ensure_ascii=False)
print(re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]", lambda m: "[" + ",".join(m.group(1).split()).replace(",,", ",") + "]", text))
' >"$out/$name.json"
  echo "wrote $out/$name.{txt,json}"
}

gen face_detection_short_range \
  --graph=mediapipe/face_detection_short_range.tflite \
  --test_delegate_ops=CONV_2D,DEPTHWISE_CONV_2D,ADD,RELU
gen selfie_segmentation_two_delegates \
  --graph=mediapipe/selfie_segmentation.tflite --custom_ops=mediapipe \
  --use_sample_delegate \
  --test_delegate_ops=CONV_2D,DEPTHWISE_CONV_2D,RELU,HARD_SWISH,ADD,Convolution2DTransposeBias \
  --max_delegated_partitions=3
