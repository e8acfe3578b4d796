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
#   scripts/fuzz.sh --long [EXECUTIONS]                      (default: 10000000)
#
# The long campaign of the invoke target: chunks of TFI_FUZZ_CHUNK (20,000) mutations, each
# from a fresh corpus of the seeds (a grown corpus slows the target tenfold) with its own
# libFuzzer seed (TFI_FUZZ_SEED_BASE, default 1000, + chunk number: another base walks new
# ground with the same binary), the kernels' ISA cycled over TFI_FUZZ_ISAS (this
# CPU's, avx2, avx512vnni, avx512), TFI_FUZZ_JOBS workers (default: the cores), niced;
# until the chunks' executions reach EXECUTIONS. A finding ends its chunk (kept in
# build-fuzz/long/artifacts/, with its log), not the campaign. The table of chunks is
# build-fuzz/long/chunks.tsv; run it again with the same binary and it goes on where it
# stopped; a rebuilt binary starts a new campaign (the old table is kept beside it).
# TFI_FUZZ_BUILD=0 skips the build (any mode): a campaign resumes on the binary it ran,
# though the sources changed since (a source change would otherwise rebuild it).
#
# model_fuzzer:  load + validate + everything inspect_ops does with a model.
# invoke_fuzzer: load + build + (XNNPACK) + AllocateTensors + Invoke, byte mutations and
#                a structure-aware flatbuffer mutator (lib/fuzz/flatbuffer_mutator.h).
# tools:         the tools themselves, sanitizer-built: ctest's malformed_cli_test (every
#                tool on testdata/malformed: exit 1, the message, no sanitizer report),
#                then for `seconds` sweeps of the tools over the fuzzers' corpora (inputs
#                the mutators made; TFI_TOOLS_CORPUS=DIR[:DIR...] adds folders; each pass
#                gives an input the next tool, the folders read again): any exit other
#                than 0 or 1, a sanitizer report or a hang (20 s) is a finding, copied to
#                build-fuzz/artifacts/tools/.
#
# Seeds: the *.tflite under ../shared/models (skipped, with a message, when absent) and
# testdata/ (the invoke target takes those under 600 kB: big models make slow runs).
# lib/fuzz/regressions/ holds inputs of past findings; every target runs them once
# before fuzzing. Re-run one artifact: build-fuzz/lib/fuzz/<target> ARTIFACT
set -euo pipefail

long=0
if [[ "${1:-}" == "--long" ]]; then
  long="${2:-10000000}"
  if ! [[ "$long" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 --long [EXECUTIONS]   (the invoke target's campaign; default 10000000)" >&2
    exit 2
  fi
  set -- 0 invoke
fi
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
if [[ "${TFI_FUZZ_BUILD:-1}" == 0 ]]; then
  for t in "${targets[@]}"; do
    case "$t" in
      tools) need=("$build/cmd/tflite-inspect") ;;
      *) need=("$build/lib/fuzz/${t}_fuzzer") ;;
    esac
    [[ -x "${need[0]}" ]] || { echo "fuzz: TFI_FUZZ_BUILD=0 but ${need[0]} is not built" >&2; exit 2; }
  done
else
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
fi

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
  # --max_arena_mb bounds each buffer (as the fuzzers' 64 MiB limit does): a crafted
  # shape may legally ask for gigabytes, which ASan's overhead turns into an OOM kill.
  local limit="--max_arena_mb=1024"
  local tools=(
    "run $limit --output_dir=$out --graph="
    "benchmark_model $limit --num_runs=1 --warmup_runs=1 --min_secs=0 --warmup_min_secs=0 --graph="
    "inference_diff $limit --num_runs=1 --invocations_per_run=1 --model_file="
    "delegate_report $limit --graph="
  )
  # Passes until the time is up: each lists the folders again (a fuzzer running beside it
  # adds inputs) and hands each input the tool after the one it had the pass before.
  local start=$SECONDS end=$((SECONDS + seconds)) n=0 found=0 pass=0 f i rc files=()
  while (( SECONDS < end )); do
    mapfile -t files < <(find "${dirs[@]}" -type f -size -600000c 2>/dev/null | shuf)
    (( ${#files[@]} > 0 )) || break
    for ((i = 0; i < ${#files[@]}; i++)); do
      (( SECONDS >= end )) && break
      f="${files[i]}"
      local cmd="${tools[(i + pass) % ${#tools[@]}]}"
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
    pass=$((pass + 1))
  done
  echo "fuzz: tools: ${n} tool runs over ${#files[@]} mutated inputs ($pass passes) in" \
       "$((SECONDS - start)) s, $found findings"
  (( found == 0 )) || failed=1
}

# The long campaign (--long): see the top of this file.
long_campaign() {
  local fuzzer="$build/lib/fuzz/invoke_fuzzer" dir="$build/long"
  local table="$dir/chunks.tsv" chunk="${TFI_FUZZ_CHUNK:-20000}"
  local workers="${TFI_FUZZ_JOBS:-$(nproc)}" isas
  read -r -a isas <<<"${TFI_FUZZ_ISAS:-native avx2 avx512vnni avx512}"
  local common=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=20 -max_len="$max_len")
  mkdir -p "$dir/artifacts"
  local id
  id="$(sha1sum "$fuzzer" | cut -c1-16)"
  if [[ -f "$table" ]] && ! grep -q "^# binary $id\$" "$table"; then
    local old
    old="$table.$(date +%Y%m%d-%H%M%S)"
    mv "$table" "$old"
    echo "fuzz: long: $fuzzer was rebuilt: a new campaign (the last one's chunks: $old)"
  fi
  if [[ ! -f "$table" ]]; then
    printf '# binary %s\n# chunk\tseed\tisa\texit\texecutions\tseconds\tstarted\n' "$id" >"$table"
  fi
  rm -rf "$dir/seeds"
  mkdir -p "$dir/seeds"
  local f seeds=0
  for f in $(find ../shared/models testdata -name '*.tflite' -type f -size -600000c 2>/dev/null); do
    cp -f "$f" "$dir/seeds/seed-$(sha1sum "$f" | cut -c1-16).tflite"
    seeds=$((seeds + 1))
  done
  [[ -d ../shared/models ]] || echo "fuzz: long: seeds from testdata/ only: ../shared/models absent"
  if (( ${#regress[@]} > 0 )) && ! "$fuzzer" "${common[@]}" "${regress[@]}" \
      >"$dir/regressions.log" 2>&1; then
    tail -n 60 "$dir/regressions.log" >&2
    echo "fuzz: long: FAILED on lib/fuzz/regressions (log: $dir/regressions.log)" >&2
    return 1
  fi
  local done_execs
  done_execs=$(awk -F'\t' '!/^#/ { s += $5 } END { print s + 0 }' "$table")
  echo "fuzz: long: $seeds seeds, $workers workers, chunks of $chunk, ISAs ${isas[*]};" \
       "$done_execs of $long executions done (table: $table)"
  # A worker claims the next chunk number under a lock, while the table's executions are
  # short of the goal (chunks in flight may overshoot it by up to one chunk each).
  claim() {
    flock "$dir/lock" awk -F'\t' -v goal="$long" -v next_file="$dir/next" '
      BEGIN { n = 0 }
      !/^#/ { s += $5; if ($1 >= n) n = $1 + 1 }
      END {
        if ((getline c < next_file) > 0 && c > n) n = c
        if (s >= goal) exit 1
        print n; print n + 1 > next_file
      }' "$table"
  }
  worker() {
    local w="$1" c corpus="$dir/corpus-$1" clog="$dir/worker-$1.log"
    while c="$(claim)"; do
      local seed=$((${TFI_FUZZ_SEED_BASE:-1000} + c)) isa="${isas[c % ${#isas[@]}]}" rc=0 started
      started="$(date -u +%FT%TZ)"
      rm -rf "$corpus"
      cp -r "$dir/seeds" "$corpus"
      local env=()
      [[ "$isa" != native ]] && env=(TFI_KERNEL_ISA="$isa")
      env "${env[@]}" nice -n 10 "$fuzzer" "${common[@]}" -runs="$chunk" -seed="$seed" \
        -artifact_prefix="$dir/artifacts/chunk$c-" -print_final_stats=1 "$corpus" \
        >"$clog" 2>&1 || rc=$?
      local runs secs
      runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$clog" | tail -n1)
      secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$clog" | tail -n1)
      if (( rc != 0 )); then
        cp -f "$clog" "$dir/artifacts/chunk$c.log"
        echo "fuzz: long: chunk $c (seed $seed, ISA $isa): exit $rc; log $dir/artifacts/chunk$c.log" >&2
      fi
      flock "$dir/lock" printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$seed" "$isa" "$rc" \
        "${runs:-0}" "${secs:--}" "$started" >>"$table"
    done
  }
  rm -f "$dir/next"
  local pids=() w
  for ((w = 0; w < workers; w++)); do
    worker "$w" &
    pids+=($!)
  done
  wait "${pids[@]}"
  awk -F'\t' '!/^#/ { n++; s += $5; if ($4 != 0) bad++ }
    END { printf "fuzz: long: %d chunks, %d executions, %d findings\n", n, s, bad;
          exit bad > 0 }' "$table"
}

if (( long > 0 )); then
  long_campaign
  exit
fi

for t in "${targets[@]}"; do
  case "$t" in
    model) fuzz_target model "$max_len" ;;
    invoke) fuzz_target invoke 600000 ;;
    tools) tools_check ;;
  esac
done
(( failed == 0 ))
