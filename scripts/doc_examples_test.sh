#!/usr/bin/env bash
# Docs that cannot go stale: every fenced block in README.md and docs/*.md that follows a
# `<!-- doc-test -->` line is run, and what it prints must be what the doc shows.
# In such a block a line `$ COMMAND` is run from the repository root (bash, stdout and
# stderr together, line-buffered, the build's tools first on PATH); the lines up to the
# next `$ ` line are its expected output. `$ echo $?` prints the previous command's exit
# status. Only blocks whose output does not depend on the machine or the time are marked.
#   scripts/doc_examples_test.sh BUILD_DIR
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:?usage: doc_examples_test.sh BUILD_DIR}
export PATH="$BUILD/cmd:$PATH"
cd "$ROOT"
blocks=0 commands=0 failures=0

check() {  # doc, line, command, expected-file, last-status -> sets last_rc
  local doc=$1 line=$2 cmd=$3 expected=$4 actual rc
  if [ "$cmd" = 'echo $?' ]; then
    actual=$last_rc
    rc=0
  else
    actual=$(stdbuf -oL -eL bash -c "$cmd" 2>&1)
    rc=$?
  fi
  commands=$((commands + 1))
  if ! diff -u "$expected" <(printf '%s\n' "$actual") >/tmp/doc_examples_diff.$$; then
    failures=$((failures + 1))
    echo "FAIL $doc:$line: \$ $cmd"
    sed 's/^/    /' /tmp/doc_examples_diff.$$
  fi
  last_rc=$rc
}

for doc in README.md docs/*.md; do
  marked=0 in_block=0 n=0 cmd="" cmd_line=0 last_rc=0
  expected=$(mktemp)
  while IFS= read -r text || [ -n "$text" ]; do
    n=$((n + 1))
    if [ $in_block -eq 0 ]; then
      [ "$text" = "<!-- doc-test -->" ] && marked=1
      if [ $marked -eq 1 ] && [[ "$text" == '```'* ]]; then
        in_block=1 marked=0 cmd="" blocks=$((blocks + 1))
      fi
      continue
    fi
    if [[ "$text" == '```'* ]] || [[ "$text" == '$ '* ]]; then
      [ -n "$cmd" ] && check "$doc" "$cmd_line" "$cmd" "$expected"
      : >"$expected"
      cmd=""
      if [[ "$text" == '```'* ]]; then
        in_block=0
      else
        cmd=${text#'$ '} cmd_line=$n
      fi
      continue
    fi
    printf '%s\n' "$text" >>"$expected"
  done <"$doc"
  rm -f "$expected"
done
rm -f /tmp/doc_examples_diff.$$
echo "doc examples: $blocks blocks, $commands commands, $failures failing"
[ $blocks -gt 0 ] || { echo "no <!-- doc-test --> block found"; exit 1; }
[ $failures -eq 0 ]
