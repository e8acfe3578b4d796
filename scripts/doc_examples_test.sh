#!/usr/bin/env bash
# Docs that cannot go stale: every fenced block in README.md and docs/*.md that follows a
# `<!-- doc-test -->` line is run, and what it prints must be what the doc shows.
#   scripts/doc_examples_test.sh BUILD_DIR
#
# In such a block a line `$ COMMAND` is run (bash, stdout and stderr together,
# line-buffered, the build's tools first on PATH); a command line ending in `\` goes on
# to the next line, as in a shell. The lines up to the next `$ ` line are its expected
# output; a command that prints nothing is shown with no output lines. `$ echo $?` prints
# the previous command's exit status. Every block starts in the repository root and a
# `$ cd DIR` holds for the rest of its block (each command runs in the directory the one
# before it ended in). Other shell state (variables) does not carry over. A path in a
# command that starts with `build/` (a plugin the build made) is taken from BUILD_DIR.
#
# The output must equal the expected lines, line for line, but for two ways to leave out
# what is not the point of the example or not the same on another machine or run:
# - A line that is `...` (indentation allowed) stands for any number of output lines,
#   none included (doctest's ellipsis). The lines between two `...` must appear in this
#   order, one after the other; the lines before the first `...` start the output, those
#   after the last end it.
# - `mask="REGEX"` in the marker (`<!-- doc-test mask="avg=([0-9.]+)" -->`; Perl syntax,
#   no `"` inside; as many as needed) is applied to every line of both the expected and
#   the actual output before they are compared: each match is replaced with `<masked>`,
#   or, when the REGEX has capture groups, only what each group matched (use (?:...) for
#   a group that is not to be masked, and do not nest groups). So the doc shows a real
#   run's numbers and the test compares everything around them. Mask only what differs
#   between runs or machines (timings, dates, memory, absolute paths, the CPU's name);
#   masks named after what they hide keep a diff readable: `mask="Init: ([0-9.]+)"`, not
#   `mask="[0-9]+"`. Where a doc cuts long lines at 130 columns, `mask="^.{130}\K.*"`
#   masks the rest of any line that long in both.
# A mismatch prints the command and a unified diff of the masked doc text against the
# masked output: lines an ellipsis took are shown as matched, and lines between two
# ellipses that are not in the output are shown where most of them are.
#
# Markers, options separated by spaces: `<!-- doc-test [needs-shared] [needs-opencl-cpu]
# [needs-arm64-bundle] [needs-venv] [mask="REGEX"]... -->`.
# - needs-shared: the block reads ../shared/models (the real third-party models, outside
#   the repository): it is run where they are, and counted as skipped, with a line saying
#   so, where they are not.
# - needs-opencl-cpu: the block applies the GPU delegate (--use_gpu=true) and shows what
#   it prints on an OpenCL device that is a CPU (PoCL's, as in CI): run where the GPU
#   delegate finds such a device, skipped with a line where it finds none or a real GPU.
# - needs-arm64-bundle: the block runs the phone bundle that scripts/test.sh builds in
#   build-arm64/bundle (scripts/phone_bundle.sh arm64) under qemu-aarch64: skipped with a
#   line where either is missing.
# - needs-venv: the block runs a script of scripts/ on the Python of
#   scripts/setup_python.sh (/tmp/tfi-venv: numpy and ai-edge-litert, TFLite's own
#   runtime): skipped with a line where that Python or its packages are missing (CI has
#   no network for PyPI).
#
# Small models the examples need are written with flatc from testdata/docs/*.json by a
# visible `$ flatc -b -o /tmp schema/schema.fbs testdata/docs/M.json` line.
#
# A `$ ` line in a fenced block without a marker fails the test: every command shown runs.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:?usage: doc_examples_test.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
export BUILD
export PATH="$BUILD/cmd:$PATH"
# The docs show the XNNPACK delegate log of a CPU with AVX-512 (no own GEMM steps), as ctest.
export TFI_XNNPACK_OWN_GEMM=${TFI_XNNPACK_OWN_GEMM-0}
cd "$ROOT"
blocks=0 commands=0 failures=0 skipped=0 bad_markers=0
have_shared=0
[ -d "$ROOT/../shared/models" ] && have_shared=1
have_opencl_cpu=""  # probed at the first needs-opencl-cpu block
have_venv=""        # probed at the first needs-venv block
venv_found() {
  if [ -z "$have_venv" ]; then
    have_venv=0
    /tmp/tfi-venv/bin/python -c 'import numpy, ai_edge_litert' >/dev/null 2>&1 && have_venv=1
  fi
  [ "$have_venv" = 1 ]
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Compares expected ($1) with actual ($2) under the masks in $DOC_TEST_MASKS (one regex
# a line) and the `...` lines of the expected text; prints a diff and exits 1 on a
# mismatch, exits 2 on a bad mask.
read -r -d '' COMPARE <<'PERL'
use strict; use warnings;
my ($expected_file, $actual_file, $diff_dir) = @ARGV;
my @masks = grep { length } split /\n/, ($ENV{DOC_TEST_MASKS} // '');
for my $re (@masks) {
  eval { qr/$re/ } or do { print "bad mask=\"$re\": $@"; exit 2 };
}
sub mask_line {
  my ($line) = @_;
  for my $re (@masks) {
    $line =~ s{$re}{
      my ($start, $text) = ($-[0], $&);
      if ($#- >= 1) {
        for (my $i = $#-; $i >= 1; $i--) {
          next unless defined $-[$i];
          substr($text, $-[$i] - $start, $+[$i] - $-[$i]) = '<masked>';
        }
        $text;
      } else {
        '<masked>';
      }
    }ge;
  }
  return $line;
}
sub read_lines {
  open(my $f, '<', $_[0]) or die "$_[0]: $!";
  my @lines = map { chomp; mask_line($_) } <$f>;
  return @lines;
}
my @exp = read_lines($expected_file);
my @act = read_lines($actual_file);
# Segments of literal lines between ellipses; each segment after the first follows an
# ellipsis line (its text kept for the diff).
my @segs = ([]);
my @ellipsis_text = ('');
for my $l (@exp) {
  if ($l =~ /^\s*\.\.\.\s*$/) { push @segs, []; push @ellipsis_text, $l } else { push @{$segs[-1]}, $l }
}
my $seg_at = sub {  # does segment $s match @act at $p?
  my ($s, $p) = @_;
  return 0 if $p < 0 || $p + @$s > @act;
  for my $i (0 .. $#$s) { return 0 if $s->[$i] ne $act[$p + $i] }
  return 1;
};
my $leftmost = sub {
  my ($s, $from) = @_;
  for my $p ($from .. @act - @$s) { return $p if $seg_at->($s, $p) }
  return -1;
};
# The first segment starts the output, the last ends it, the others are found leftmost
# (complete for fixed lines). @shown is the doc with each ellipsis replaced by the lines
# it took: equal to @act exactly when the output matches. A segment that is not in the
# output is shown where most of its lines are, so the diff shows the lines that differ.
my ($pos, $ok, @shown) = (0, 1);
for my $k (0 .. $#segs) {
  my ($s, $first, $last) = ($segs[$k], $k == 0, $k == $#segs);
  my $found;
  if ($first || $last) {
    my $want = $first ? 0 : @act - @$s;
    $found = ($want >= $pos && $seg_at->($s, $want)) ? $want : -1;
    $found = -1 if $first && $last && @$s != @act;
  } else {
    $found = $leftmost->($s, $pos);
  }
  if ($found < 0) {  # for the diff: where most of its lines are
    $ok = 0;
    my $best = 0;
    for my $p ($pos .. @act - @$s) {
      my $same = grep { $s->[$_] eq $act[$p + $_] } 0 .. $#$s;
      ($best, $found) = ($same, $p) if $same > $best;
    }
  }
  if ($found >= 0) {
    push @shown, @act[$pos .. $found - 1] unless $first;
    push @shown, @$s;
    $pos = $found + @$s;
  } else {
    push @shown, $ellipsis_text[$k] unless $first;
    push @shown, @$s;
  }
}
exit 0 if $ok;
open(my $e, '>', "$diff_dir/doc") or die; print $e map { "$_\n" } @shown; close $e;
open(my $a, '>', "$diff_dir/output") or die; print $a map { "$_\n" } @act; close $a;
system('diff', '-u', '--label', 'doc', '--label', 'output', "$diff_dir/doc", "$diff_dir/output");
exit 1;
PERL

check() {  # doc, line, command, expected-file; uses and sets last_rc, cwd
  local doc=$1 line=$2 cmd=$3 expected=$4 actual rc
  if [ "$cmd" = 'echo $?' ]; then
    actual=$last_rc
    rc=0
  else
    # `build/` starting a path in a command is the build folder (BUILD_DIR).
    if [ "$BUILD" != "$ROOT/build" ]; then
      cmd=$(printf '%s' "$cmd" | perl -pe 's{(^|[\s=])build/}{$1$ENV{BUILD}/}g')
    fi
    actual=$(cd "$cwd" && stdbuf -oL -eL bash -c "$cmd"$'\n''__rc=$?; pwd >"'"$tmp/pwd"'"; exit $__rc' 2>&1)
    rc=$?
    [ -s "$tmp/pwd" ] && cwd=$(cat "$tmp/pwd")
    rm -f "$tmp/pwd"
  fi
  commands=$((commands + 1))
  if [ -n "$actual" ]; then printf '%s\n' "$actual" >"$tmp/actual"; else : >"$tmp/actual"; fi
  if ! DOC_TEST_MASKS=$masks perl -e "$COMPARE" "$expected" "$tmp/actual" "$tmp" >"$tmp/diff"; then
    failures=$((failures + 1))
    echo "FAIL $doc:$line: \$ $cmd"
    sed 's/^/    /' "$tmp/diff"
  fi
  last_rc=$rc
}

opencl_cpu_found() {  # whether the GPU delegate runs on an OpenCL CPU device here (probed once)
  if [ -z "$have_opencl_cpu" ]; then
    have_opencl_cpu=0
    local out
    out=$(benchmark_model --graph="$ROOT/testdata/models/tiny_cnn_float.tflite" --use_gpu=true \
          --num_runs=1 --warmup_runs=0 --min_secs=0 --warmup_min_secs=0 2>&1)
    [[ "$out" == *"is a CPU, not a GPU"* ]] && have_opencl_cpu=1
  fi
  [ "$have_opencl_cpu" = 1 ]
}

parse_marker() {  # the options of a doc-test marker -> sets skip, skip_reason, masks
  local opts=$1 doc=$2 n=$3
  skip=0 skip_reason="" masks=""
  while [[ "$opts" =~ ^[[:space:]]*([^[:space:]]+)(.*)$ ]]; do
    local opt=${BASH_REMATCH[1]}
    opts=${BASH_REMATCH[2]}
    if [ "$opt" = needs-shared ]; then
      [ $have_shared -eq 1 ] || { skip=1; skip_reason="needs ../shared/models, which is not here"; }
    elif [ "$opt" = needs-arm64-bundle ]; then
      [ -f "$ROOT/build-arm64/bundle/run.sh" ] && [ "$(cat "$ROOT/build-arm64/bundle/ARCH")" = arm64 ] \
        || { skip=1; skip_reason="needs the arm64 bundle in build-arm64/bundle (scripts/phone_bundle.sh arm64 build-arm64/bundle), which is not here"; }
      command -v qemu-aarch64 >/dev/null \
        || { skip=1; skip_reason="needs qemu-aarch64 (scripts/setup.sh cross), which is not here"; }
    elif [ "$opt" = needs-venv ]; then
      venv_found || { skip=1; skip_reason="needs /tmp/tfi-venv with numpy and ai-edge-litert (scripts/setup_python.sh), which is not here"; }
    elif [ "$opt" = needs-opencl-cpu ]; then
      opencl_cpu_found || { skip=1; skip_reason="needs an OpenCL CPU device (PoCL), which is not here"; }
    elif [[ "$opt$opts" =~ ^mask=\"([^\"]*)\"(.*)$ ]]; then
      masks+="${BASH_REMATCH[1]}"$'\n'
      opts=${BASH_REMATCH[2]}
    else
      echo "FAIL $doc:$n: unknown doc-test option '$opt'"
      bad_markers=$((bad_markers + 1))
      return
    fi
  done
}

for doc in README.md docs/*.md; do
  marked=0 in_block=0 unmarked=0 skip=0 skip_reason="" masks="" n=0 cmd="" cmd_line=0 last_rc=0
  continued=0 cwd=$ROOT
  expected=$tmp/expected
  : >"$expected"
  while IFS= read -r text || [ -n "$text" ]; do
    n=$((n + 1))
    if [ $in_block -eq 0 ]; then
      if [ $unmarked -eq 1 ]; then  # inside a block without a marker: no `$ ` line there
        if [[ "$text" == '```'* ]]; then
          unmarked=0
        elif [[ "$text" == '$ '* ]]; then
          echo "FAIL $doc:$n: a command in a block without a <!-- doc-test --> marker: ${text#'$ '}"
          bad_markers=$((bad_markers + 1))
        fi
        continue
      fi
      if [ $marked -eq 0 ] && [[ "$text" == '```'* ]]; then
        unmarked=1
        continue
      fi
      if [[ "$text" =~ ^'<!-- doc-test'(([[:space:]].*)?)' -->'$ ]]; then
        marked=1
        parse_marker "${BASH_REMATCH[1]}" "$doc" "$n"
      fi
      if [ $marked -eq 1 ] && [[ "$text" == '```'* ]]; then
        in_block=1 marked=0 cmd="" continued=0 cwd=$ROOT last_rc=0
        if [ $skip -eq 1 ]; then
          skipped=$((skipped + 1))
          echo "skipped $doc:$n: $skip_reason"
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
    if [ $continued -eq 1 ]; then  # the command's previous line ended in a backslash
      cmd+=$'\n'$text
      [[ "$text" == *'\' ]] || continued=0
      continue
    fi
    if [[ "$text" == '```'* ]] || [[ "$text" == '$ '* ]]; then
      [ -n "$cmd" ] && check "$doc" "$cmd_line" "$cmd" "$expected"
      : >"$expected"
      cmd=""
      if [[ "$text" == '```'* ]]; then
        in_block=0 masks=""
      else
        cmd=${text#'$ '} cmd_line=$n
        [[ "$text" == *'\' ]] && continued=1
      fi
      continue
    fi
    printf '%s\n' "$text" >>"$expected"
  done <"$doc"
done
summary="doc examples: $blocks blocks, $commands commands, $failures failing"
[ $skipped -gt 0 ] && summary+=" ($skipped blocks skipped)"
echo "$summary"
[ $blocks -gt 0 ] || { echo "no <!-- doc-test --> block found"; exit 1; }
[ $failures -eq 0 ] && [ $bad_markers -eq 0 ]
