#!/usr/bin/env bash
# Builds the libFuzzer targets with clang + ASan + UBSan in build-fuzz/ and runs them for
# a bounded time each (default 60 s). Exits non-zero on any finding (crash, sanitizer
# report, leak, timeout, OOM); reproducers land in build-fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh [seconds] [model|invoke|tools|all]      (default: 60 all)
#
# seconds 0: no mutation; every seed and regression input runs once (a deterministic
# check that every real model goes through the target clean under the sanitizers).
# TFI_FUZZ_RUNS=N (CI): instead of a time, N mutations from a fresh corpus of the seeds
# with libFuzzer's -seed=${TFI_FUZZ_SEED:-1}: the same inputs on every run, so a CI run
# that passed here passes there (new ground is for timed runs).
#
# model_fuzzer:  load + validate + everything inspect_ops does with a model.
# invoke_fuzzer: load + build + (XNNPACK) + AllocateTensors + Invoke, byte mutations and
#                a structure-aware flatbuffer mutator (lib/fuzz/flatbuffer_mutator.h).
# tools:         the tools themselves, sanitizer-built: ctest's malformed_cli_test (every
#                tool on testdata/malformed: exit 1, the message, no sanitizer report),
#                then for `seconds` a sweep of the tools over the fuzzers' corpora (inputs
#                the mutators made; TFI_TOOLS_CORPUS=DIR[:DIR...] adds folders): any exit other
#                than 0 or 1, a sanitizer report or a hang (20 s) is a finding, copied to
#                build-fuzz/artifacts/tools/.
#
# Seeds: the *.tflite under ../shared/models (skipped, with a message, when absent) and
# testdata/ (the invoke target takes those under 600 kB: big models make slow runs).
# lib/fuzz/regressions/ holds inputs of past findings; every target runs them once
# before fuzzing. Re-run one artifact: build-fuzz/lib/fuzz/<target> ARTIFACT
set -euo pipefail

seconds="${1:-60}"
which="${2:-all}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || \
   ! [[ "$which" =~ ^(model|invoke|tools|all)$ ]]; then
  echo "usage: $0 [seconds] [model|invoke|tools|all]   (seconds per target, 0: seeds only; default 60 all)" >&2
  exit 2
fi
targets=(model invoke tools)
[[ "$which" != all ]] && targets=("$which")

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="build-fuzz"
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
  -DTFI_BUILD_FUZZERS=ON -DTFI_BUILD_TESTS=ON -DTFI_BUILD_TOOLS=ON >/dev/null
ninja_targets=()
for t in "${targets[@]}"; do
  case "$t" in
    tools) ninja_targets+=(tflite-inspect malformed_cli_test) ;;
    *) ninja_targets+=("${t}_fuzzer") ;;
  esac
done
ninja -C "$build" -j"$jobs" "${ninja_targets[@]}"

# --- Corpus, regressions, fuzzing: one target at a time ----------------------------------
# Sanitizer reports exit with their own statuses, apart from the tools' 1 (refused) and
# 2 (usage); libFuzzer reports its findings either way.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=87"
mapfile -t regress < <(find "$regressions" -type f ! -name '*.md' 2>/dev/null | sort)
failed=0

fuzz_target() {  # fuzz_target NAME MAX_SEED_BYTES
  local name="$1" max_seed="$2"
  local fuzzer="$build/lib/fuzz/${name}_fuzzer"
  local corpus="$build/corpus/$name" artifacts="$build/artifacts/$name"
  if [[ -n "${TFI_FUZZ_RUNS:-}" ]]; then
    corpus="$build/corpus-fixed/$name"
    rm -rf "$corpus"
  fi
  local log="$build/fuzz-$name.log"
  local common=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=20 -max_len="$max_len")
  mkdir -p "$corpus" "$artifacts"
  local seeds=0 f
  for dir in ../shared/models testdata; do
    if [[ ! -d "$dir" ]]; then
      echo "fuzz: $name: skipped seeds: $dir absent"
      continue
    fi
    while IFS= read -r -d '' f; do
      cp -f "$f" "$corpus/seed-$(sha1sum "$f" | cut -c1-16).tflite"
      seeds=$((seeds + 1))
    done < <(find "$dir" -name '*.tflite' -type f -size -"$max_seed"c -print0)
  done
  echo "fuzz: $name: $seeds seed models; corpus $(find "$corpus" -type f | wc -l) files"
  # Every past finding must stay fixed.
  if (( ${#regress[@]} > 0 )); then
    if ! "$fuzzer" "${common[@]}" -artifact_prefix="$artifacts/" "${regress[@]}" \
        >"$build/regressions-$name.log" 2>&1; then
      tail -n 60 "$build/regressions-$name.log" >&2
      echo "fuzz: $name: FAILED on lib/fuzz/regressions (log: $build/regressions-$name.log)" >&2
      failed=1
      return
    fi
    echo "fuzz: $name: ${#regress[@]} regression inputs pass"
  fi
  # One job in the foreground (2 cores: libFuzzer plus the occasional system load).
  # libFuzzer stops at its first finding, so a run has 0 or 1.
  local before after rc=0
  before=$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)
  local budget=(-max_total_time="$seconds")
  (( seconds == 0 )) && budget=(-runs=0)
  [[ -n "${TFI_FUZZ_RUNS:-}" ]] && budget=(-runs="$TFI_FUZZ_RUNS" -seed="${TFI_FUZZ_SEED:-1}")
  "$fuzzer" "${common[@]}" "${budget[@]}" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 "$corpus" >"$log" 2>&1 || rc=$?
  after=$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)
  local runs execs elapsed findings=$((after - before))
  runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
  execs=$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
  if (( rc != 0 && findings == 0 )); then findings=1; fi
  if (( findings > 0 )); then
    tail -n 80 "$log" >&2
    echo "fuzz: $name: reproducers in $artifacts/ (newest: $(ls -t "$artifacts" | head -n1)); log: $log" >&2
    failed=1
  fi
  elapsed=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n1)
  echo "fuzz: $name: ${runs:-?} runs in ${elapsed:-$seconds} s (${execs:-?} exec/s), $findings findings"
}

# The sanitizer-built tools: the crafted corpus in ctest, then a sweep over mutated inputs.
tools_check() {
  local log="$build/tools-malformed.log"
  if ! ctest --test-dir "$build" -R '^malformed_cli_test:' --output-on-failure -j"$jobs" \
      >"$log" 2>&1; then
    tail -n 80 "$log" >&2
    echo "fuzz: tools: FAILED on testdata/malformed (log: $log)" >&2
    failed=1
    return
  fi
  echo "fuzz: tools: testdata/malformed through every tool clean (log: $log)"
  (( seconds == 0 )) && return
  local bin="$build/cmd/tflite-inspect" out="$build/tools-out" artifacts="$build/artifacts/tools"
  mkdir -p "$out" "$artifacts"
  local dirs=("$build/corpus/invoke" "$build/corpus/model") extra=()
  [[ -n "${TFI_TOOLS_CORPUS:-}" ]] && IFS=: read -r -a extra <<<"$TFI_TOOLS_CORPUS"
  dirs+=("${extra[@]}")
  local files=()
  mapfile -t files < <(find "${dirs[@]}" -type f -size -600000c 2>/dev/null | shuf)
  # --max_arena_mb bounds each buffer (as the fuzzers' 64 MiB limit does): a crafted
  # shape may legally ask for gigabytes, which ASan's overhead turns into an OOM kill.
  local limit="--max_arena_mb=1024"
  local tools=(
    "run $limit --output_dir=$out --graph="
    "benchmark_model $limit --num_runs=1 --warmup_runs=1 --min_secs=0 --warmup_min_secs=0 --graph="
    "inference_diff $limit --num_runs=1 --invocations_per_run=1 --model_file="
    "delegate_report $limit --graph="
  )
  local start=$SECONDS end=$((SECONDS + seconds)) n=0 found=0 f rc
  for f in "${files[@]}"; do
    (( SECONDS >= end )) && break
    local cmd="${tools[n % ${#tools[@]}]}"
    n=$((n + 1))
    rc=0
    # shellcheck disable=SC2086
    timeout -k 5 20 "$bin" $cmd"$f" >"$out/stdout" 2>"$out/stderr" || rc=$?
    if (( rc > 1 )) || grep -qE 'Sanitizer|runtime error:' "$out/stderr"; then
      found=$((found + 1))
      cp -f "$f" "$artifacts/"
      echo "fuzz: tools: exit $rc from '${cmd%% *}' on $f (copied to $artifacts/):" >&2
      tail -n 30 "$out/stderr" >&2
    fi
  done
  echo "fuzz: tools: ${n} tool runs over ${#files[@]} mutated inputs in $((SECONDS - start)) s, $found findings"
  (( found == 0 )) || failed=1
}

for t in "${targets[@]}"; do
  case "$t" in
    model) fuzz_target model "$max_len" ;;
    invoke) fuzz_target invoke 600000 ;;
    tools) tools_check ;;
  esac
done
(( failed == 0 ))
