#!/usr/bin/env bash
# Builds lib/fuzz/model_fuzzer with clang + libFuzzer + ASan + UBSan in build-fuzz/ and
# runs it for a bounded time (default 60 s): load + validate + everything inspect_ops
# does with a model. Exits non-zero on any finding (crash, sanitizer report, leak,
# timeout, OOM); reproducers land in build-fuzz/artifacts/.
#
#   scripts/fuzz.sh [seconds]
#
# Seeds: every *.tflite under ../shared/models (skipped, with a message, when absent)
# and testdata/. lib/fuzz/regressions/ holds inputs of past findings; they are run once
# before fuzzing. Re-run one artifact: build-fuzz/lib/fuzz/model_fuzzer ARTIFACT
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || (( seconds < 1 )); then
  echo "usage: $0 [seconds]   (a positive number of seconds; default 60)" >&2
  exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="build-fuzz"
fuzzer="$build/lib/fuzz/model_fuzzer"
corpus="$build/corpus"
artifacts="$build/artifacts"
regressions="lib/fuzz/regressions"
jobs=2   # the build machine has 2 cores
max_len=$((5 * 1024 * 1024))  # the largest real model is ~4 MB

# --- Build -------------------------------------------------------------------------------
san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
flags="$san -fno-omit-frame-pointer -g -O1"
# A build type without per-type flags keeps assert() (and FLATBUFFERS_ASSERT) enabled.
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Fuzz \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DTFI_BUILD_FUZZERS=ON -DTFI_BUILD_TESTS=OFF -DTFI_BUILD_TOOLS=OFF >/dev/null
ninja -C "$build" -j"$jobs" model_fuzzer

# --- Corpus ------------------------------------------------------------------------------
mkdir -p "$corpus" "$artifacts"
seeds=0
add_seeds() {  # copy *.tflite under $1 into the corpus, named by content
  local f
  while IFS= read -r -d '' f; do
    cp -f "$f" "$corpus/seed-$(sha1sum "$f" | cut -c1-16).tflite"
    seeds=$((seeds + 1))
  done < <(find "$1" -name '*.tflite' -type f -print0)
}
if [[ -d ../shared/models ]]; then
  add_seeds ../shared/models
else
  echo "fuzz: skipped seeds: ../shared/models absent"
fi
[[ -d testdata ]] && add_seeds testdata
echo "fuzz: $seeds seed models; corpus $(find "$corpus" -type f | wc -l) files"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
common=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 -max_len="$max_len")

# --- Regressions: every past finding must stay fixed -------------------------------------
mapfile -t regress < <(find "$regressions" -type f ! -name '*.md' 2>/dev/null | sort)
if (( ${#regress[@]} > 0 )); then
  if ! "$fuzzer" "${common[@]}" -artifact_prefix="$artifacts/" "${regress[@]}" \
      >"$build/regressions.log" 2>&1; then
    tail -n 60 "$build/regressions.log" >&2
    echo "fuzz: FAILED on lib/fuzz/regressions (log: $build/regressions.log)" >&2
    exit 1
  fi
  echo "fuzz: ${#regress[@]} regression inputs pass"
fi

# --- Fuzz -------------------------------------------------------------------------------
# One job in the foreground (2 cores: libFuzzer plus the occasional system load).
# libFuzzer stops at its first finding, so a run has 0 or 1.
log="$build/fuzz.log"
before=$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)
rc=0
"$fuzzer" "${common[@]}" -max_total_time="$seconds" -artifact_prefix="$artifacts/" \
  -print_final_stats=1 "$corpus" >"$log" 2>&1 || rc=$?
after=$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)
runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
execs=$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
findings=$((after - before))
if (( rc != 0 && findings == 0 )); then findings=1; fi
if (( findings > 0 )); then
  tail -n 80 "$log" >&2
  echo "fuzz: reproducers in $artifacts/ (newest: $(ls -t "$artifacts" | head -n1)); log: $log" >&2
fi
elapsed=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n1)
echo "fuzz: ${runs:-?} runs in ${elapsed:-$seconds} s (${execs:-?} exec/s), $findings findings"
(( findings == 0 ))
