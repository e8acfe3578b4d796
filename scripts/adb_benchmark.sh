#!/usr/bin/env bash
# Benchmarks a model on Android phones over adb with the phone bundle:
#   scripts/adb_benchmark.sh [-s SERIAL]... [--cpu_mask=HEX] [--arch=arm64|armv7]
#                            [--bundle=DIR] [--out=DIR] MODEL [benchmark_model flags]
# For each phone (each -s, else every device `adb devices` lists): pushes the bundle
# (--bundle's, else scripts/phone_bundle.sh's for the phone's ABI; only when the phone's
# copy is another version) and the model
# to /data/local/tmp/tflite-inspect, runs benchmark_model --output_json there (pinned to
# --cpu_mask's cores with taskset when given), pulls the JSON into DIR (default
# adb_benchmark_out/), records the phone's model in its machine section, and prints one
# table for all phones. Exit: 0 when every phone ran, 1 when one failed, 2 for usage.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ADB=${ADB:-adb}
REMOTE=/data/local/tmp/tflite-inspect

usage() {
  sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
serials=() cpu_mask="" arch="" bundle_dir="" out="adb_benchmark_out" model=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -s) [[ $# -ge 2 ]] || usage; serials+=("$2"); shift 2 ;;
    --cpu_mask=*) cpu_mask=${1#*=}; shift ;;
    --arch=*) arch=${1#*=}; shift ;;
    --bundle=*) bundle_dir=${1#*=}; shift ;;
    --out=*) out=${1#*=}; shift ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) model=$1; shift; break ;;
  esac
done
flags=("$@")
[[ -n "$model" ]] || usage
[[ -f "$model" ]] || { echo "adb_benchmark: no such model file: $model" >&2; exit 2; }
if [[ -n "$bundle_dir" && ! -f "$bundle_dir/run.sh" ]]; then
  echo "adb_benchmark: --bundle=$bundle_dir is not a phone bundle (no run.sh; scripts/phone_bundle.sh makes one)" >&2
  exit 2
fi
if [[ -n "$cpu_mask" && ! "$cpu_mask" =~ ^(0x)?[0-9a-fA-F]+$ ]]; then
  echo "adb_benchmark: --cpu_mask wants a hex mask of CPUs (f0 = CPUs 4-7), got '$cpu_mask'" >&2
  exit 2
fi
for f in "${flags[@]}"; do
  case "$f" in
    --graph=*|--output_json=*)
      echo "adb_benchmark: $f is set by the script (MODEL, and the pulled JSON)" >&2; exit 2 ;;
  esac
done
command -v "$ADB" >/dev/null || { echo "adb_benchmark: '$ADB' not found (apt-get install adb)" >&2; exit 2; }
if [[ ${#serials[@]} -eq 0 ]]; then
  mapfile -t serials < <("$ADB" devices | awk 'NR > 1 && $2 == "device" {print $1}')
  [[ ${#serials[@]} -gt 0 ]] || { echo "adb_benchmark: no device attached (adb devices)" >&2; exit 1; }
fi

# The bundle for an ABI: --bundle's, or made once per call.
bundle_for() {
  if [[ -n "$bundle_dir" ]]; then echo "$bundle_dir"; return; fi
  local name=$1 dir="$ROOT/build-$1/bundle"
  if [[ -z "${made[$name]:-}" ]]; then
    bash "$ROOT/scripts/phone_bundle.sh" "$name" "$dir" >&2
    made[$name]=1
  fi
  echo "$dir"
}
# A bundle's version: the hash of its files.
bundle_version() {
  (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}
declare -A made=()
mkdir -p "$out"
model_name=$(basename "$model")
status=0
results=()
for serial in "${serials[@]}"; do
  adb_s() { "$ADB" -s "$serial" "$@"; }
  prop() { adb_s shell getprop "$1" | tr -d '\r'; }
  if ! abi=$(prop ro.product.cpu.abi) || [[ -z "$abi" ]]; then
    echo "adb_benchmark: $serial: cannot reach the device (adb -s $serial shell getprop)" >&2
    status=1; continue
  fi
  name=$arch
  if [[ -z "$name" ]]; then
    case "$abi" in
      arm64-v8a) name=arm64 ;;
      armeabi-v7a|armeabi) name=armv7 ;;
      *) echo "adb_benchmark: $serial: ABI '$abi' has no bundle (arm64-v8a, armeabi-v7a)" >&2
         status=1; continue ;;
    esac
  fi
  bundle=$(bundle_for "$name")
  version=$(bundle_version "$bundle")
  remote_version=$(adb_s shell "cat $REMOTE/VERSION 2>/dev/null" | tr -d '\r' || true)
  if [[ "$remote_version" != "$version" ]]; then
    echo "adb_benchmark: $serial: pushing the $name bundle ($version)" >&2
    adb_s shell "rm -rf $REMOTE && mkdir -p $REMOTE" >/dev/null
    adb_s push "$bundle/." "$REMOTE/" >/dev/null
    adb_s shell "chmod 755 $REMOTE/run.sh $REMOTE/bin/* $REMOTE/lib/* && echo $version > $REMOTE/VERSION" >/dev/null
  fi
  adb_s shell "mkdir -p $REMOTE/models $REMOTE/out" >/dev/null
  adb_s push "$model" "$REMOTE/models/$model_name" >/dev/null
  json_name="${model_name%.tflite}.$serial.json"
  pin=""
  [[ -n "$cpu_mask" ]] && pin="taskset ${cpu_mask#0x} "
  quoted=$(printf " %q" "${flags[@]}")
  [[ ${#flags[@]} -gt 0 ]] || quoted=""
  log="$out/${json_name%.json}.log"
  if ! adb_s shell "cd $REMOTE && ${pin}sh ./run.sh benchmark_model --graph=models/$model_name --output_json=out/$json_name$quoted" \
      >"$log" 2>&1; then
    echo "adb_benchmark: $serial: benchmark_model failed; its output:" >&2
    tail -n 20 "$log" >&2
    status=1; continue
  fi
  # adb shell does not pass the exit code on old adb versions: the JSON is the proof.
  rm -f "$out/$json_name"
  if ! adb_s pull "$REMOTE/out/$json_name" "$out/$json_name" >/dev/null 2>&1 || [[ ! -s "$out/$json_name" ]]; then
    echo "adb_benchmark: $serial: no JSON came back; benchmark_model's output:" >&2
    tail -n 20 "$log" >&2
    status=1; continue
  fi
  device="$(prop ro.product.manufacturer) $(prop ro.product.model)"
  python3 - "$out/$json_name" "$device" "$serial" "$abi" <<'PY'
import json, sys
path, device, serial, abi = sys.argv[1:5]
with open(path) as f:
    j = json.load(f)
j.setdefault("machine", {}).update({"device": device.strip(), "serial": serial, "abi": abi})
with open(path, "w") as f:
    json.dump(j, f, indent=2)
PY
  results+=("$out/$json_name")
done

if [[ ${#results[@]} -gt 0 ]]; then
  python3 - "${results[@]}" <<'PY'
import json, sys
rows = [("serial", "device", "arch", "cpus", "threads", "delegates", "init ms", "avg ms",
         "p50 ms", "min ms", "std ms", "runs")]
for path in sys.argv[1:]:
    with open(path) as f:
        j = json.load(f)
    m, inf = j.get("machine", {}), j.get("inference", {})
    ms = lambda v: "-" if v is None else f"{v / 1000:.2f}"
    delegates = ",".join(d["label"] + ("" if d.get("applied") else "(not applied)")
                         for d in j.get("delegates", [])) or "none"
    rows.append((m.get("serial", "?"), m.get("device", "?"), m.get("architecture", "?"),
                 m.get("affinity", "?"), str(m.get("threads_used", "?")), delegates,
                 ms(j.get("init_us", {}).get("total")), ms(inf.get("avg")), ms(inf.get("p50")),
                 ms(inf.get("min")), ms(inf.get("std")), str(inf.get("count", 0))))
widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
for r in rows:
    print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
PY
fi
exit $status
