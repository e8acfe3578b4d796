#!/usr/bin/env bash
# Tests scripts/adb_benchmark.sh against scripts/testing/fake_adb (two fake phones whose
# programs run under qemu-user): the table, the pulled JSON with the device's model and
# the pinned cores, one push per bundle version, and the failures (an ABI without a
# bundle, benchmark_model failing, usage). Registered in ctest as adb_benchmark_test:
#   scripts/adb_benchmark_test.sh BUNDLE MODEL
# Exits 77 (ctest: skipped) with a message when the bundle, qemu or python3 is absent.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
bundle=${1:?usage: adb_benchmark_test.sh BUNDLE MODEL}
model=${2:?usage: adb_benchmark_test.sh BUNDLE MODEL}
skip() { echo "skipped: $*"; exit 77; }
[[ -f "$bundle/run.sh" ]] || skip "no phone bundle at $bundle (scripts/phone_bundle.sh arm64 $bundle makes it)"
qemu=qemu-aarch64
[[ "$(cat "$bundle/ARCH")" == armv7 ]] && qemu=qemu-arm
command -v "$qemu" >/dev/null || skip "$qemu is not installed (scripts/setup.sh cross)"
command -v python3 >/dev/null || skip "python3 is not installed"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FAKE_ADB_HOME="$work/farm" FAKE_ADB_EMULATOR=$qemu ADB="$HERE/testing/fake_adb"
bash "$HERE/testing/fake_phones.sh" "$FAKE_ADB_HOME" phoneA phoneB

failures=0
check() {  # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
run() {  # runs adb_benchmark.sh, output in $work/out.txt / err.txt, exit code in $rc
  bash "$HERE/adb_benchmark.sh" "$@" >"$work/out.txt" 2>"$work/err.txt"
  rc=$?
}

# Two phones in one call, pinned to CPU 0.
run -s phoneA -s phoneB --bundle="$bundle" --cpu_mask=1 --out="$work/results" "$model" \
  --num_runs=2 --warmup_runs=1 --min_secs=0 --warmup_min_secs=0
cat "$work/out.txt" "$work/err.txt"
check "two phones: exit 0" test "$rc" -eq 0
check "one table: a header and one row per phone" test "$(grep -c 'Test Phone' "$work/out.txt")" -eq 2
check "the header" grep -q '^serial  *device  *arch  *cpus  *threads  *delegates  *init ms  *avg ms' "$work/out.txt"
# docs/phones.md shows the table as printed: its header line must be this one.
header=$(head -n 1 "$work/out.txt")
check "docs/phones.md shows the header as printed" grep -qxF "$header" "$HERE/../docs/phones.md"
check "the bundle was pushed to each phone" test -x "$FAKE_ADB_HOME/phoneB/root/data/local/tmp/tflite-inspect/bin/benchmark_model"
check "pinned with taskset" grep -q '^taskset 1 sh ./run.sh benchmark_model --graph=models/' "$FAKE_ADB_HOME/phoneA/taskset.log"
name=$(basename "$model" .tflite)
json="$work/results/$name.phoneA.json"
check "the JSON was pulled" test -s "$json"
check "the JSON's machine section" python3 - "$json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["machine"]
assert m["device"] == "Fakeco Test Phone A", m
assert m["serial"] == "phoneA" and m["abi"] == "arm64-v8a", m
assert m["architecture"] == "aarch64", m
assert m["affinity"] == "0" and m["affinity_mask"] == "0x1", m
assert [c["cpu"] for c in m["cores"]] == [0], m
PY

# Again: the phone has this bundle version already, so only the model is pushed.
run -s phoneA --bundle="$bundle" --out="$work/results" "$model" --num_runs=1 --warmup_runs=0
check "second call: exit 0" test "$rc" -eq 0
check "second call: the bundle is not pushed again" bash -c "! grep -q 'pushing the' '$work/err.txt'"

# A phone whose ABI has no bundle, next to a good one: exit 1, the good one still in the table.
bash "$HERE/testing/fake_phones.sh" "$FAKE_ADB_HOME" phoneX=x86_64
run -s phoneX -s phoneA --bundle="$bundle" --out="$work/results" "$model" --num_runs=1
check "unknown ABI: exit 1" test "$rc" -eq 1
check "unknown ABI: the reason" grep -q "phoneX: ABI 'x86_64' has no bundle" "$work/err.txt"
check "unknown ABI: the other phone's row" grep -q 'Test Phone A' "$work/out.txt"
rm -rf "${FAKE_ADB_HOME:?}/phoneX"

# benchmark_model fails on the phone: exit 1 and its own message.
run -s phoneA --bundle="$bundle" --out="$work/results" "$model" --num_runs=abc
check "failing benchmark: exit 1" test "$rc" -eq 1
check "failing benchmark: its message" grep -q "Failed to parse flag 'num_runs'" "$work/err.txt"

# Usage errors.
run --bundle="$bundle"
check "no model: exit 2" test "$rc" -eq 2
run --bundle="$bundle" "$model" --graph=x.tflite
check "--graph given: exit 2" test "$rc" -eq 2
run --bundle="$bundle" --cpu_mask=zz "$model"
check "bad --cpu_mask: exit 2" test "$rc" -eq 2

if [[ $failures -ne 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
