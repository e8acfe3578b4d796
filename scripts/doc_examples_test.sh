#!/usr/bin/env bash
# Docs that cannot go stale: every fenced block in README.md and docs/*.md that follows a
# `<!-- doc-test -->` line is run, and what it prints must be what the doc shows.
# In such a block a line `$ COMMAND` is run from the repository root (bash, stdout and
# stderr together, line-buffered, the build's tools first on PATH); the lines up to the
# next `$ ` line are its expected output. `$ echo $?` prints the previous command's exit
# status. Only blocks whose output does not depend on the machine or the time are marked.
# `<!-- doc-test needs-shared -->` marks a block that reads ../shared/models (the real
# third-party models, outside the repository): it is run where they are, and counted as
# skipped, with a line saying so, where they are not.
#   scripts/doc_examples_test.sh BUILD_DIR
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:?usage: doc_examples_test.sh BUILD_DIR}
export PATH="$BUILD/cmd:$PATH"
cd "$ROOT"
blocks=0 commands=0 failures=0 skipped=0
have_shared=0
[ -d "$ROOT/../shared/models" ] && have_shared=1

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
  # A command that prints nothing is shown with no output lines.
  if ! diff -u "$expected" <([ -n "$actual" ] && printf '%s\n' "$actual") >/tmp/doc_examples_diff.$$; then
    failures=$((failures + 1))
    echo "FAIL $doc:$line: \$ $cmd"
    sed 's/^/    /' /tmp/doc_examples_diff.$$
  fi
  last_rc=$rc
}

for doc in README.md docs/*.md; do
  marked=0 in_block=0 skip=0 n=0 cmd="" cmd_line=0 last_rc=0
  expected=$(mktemp)
  while IFS= read -r text || [ -n "$text" ]; do
    n=$((n + 1))
    if [ $in_block -eq 0 ]; then
      [ "$text" = "<!-- doc-test -->" ] && marked=1 skip=0
      if [ "$text" = "<!-- doc-test needs-shared -->" ]; then
        marked=1 skip=$((1 - have_shared))
      fi
      if [ $marked -eq 1 ] && [[ "$text" == '```'* ]]; then
        in_block=1 marked=0 cmd=""
        if [ $skip -eq 1 ]; then
          skipped=$((skipped + 1))
          echo "skipped $doc:$n: needs ../shared/models, which is not here"
        else
          blocks=$((blocks + 1))
        fi
      fi
      continue
    fi
    if [ $skip -eq 1 ]; then  # a skipped block: read to its end, run nothing
      [[ "$text" == '```'* ]] && in_block=0 skip=0
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
summary="doc examples: $blocks blocks, $commands commands, $failures failing"
[ $skipped -gt 0 ] && summary+=" ($skipped blocks skipped: no ../shared/models)"
echo "$summary"
[ $blocks -gt 0 ] || { echo "no <!-- doc-test --> block found"; exit 1; }
[ $failures -eq 0 ]
