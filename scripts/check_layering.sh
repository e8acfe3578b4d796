#!/usr/bin/env bash
# The include rules of docs/architecture.md, checked on the sources (a ctest test):
#   - the runtime (lib/{runtime,kernels,model,resolver,delegate,util,include}) includes
#     no tool, command-line or delegate header;
#   - delegates/ includes no tool or command-line header (the flags are lib/tools/providers/'s);
#   - delegates/ and lib/delegate/ reach the runtime through TfLiteContext only: no
#     Subgraph or Interpreter class (the pool and the record come from
#     runtime/runtime_context.h, an external context, as TFLite passes its own);
#   - lib/tools/providers/ is the only place that includes both a delegate and tool code.
# Tests (*_test.cc) and test plugins are exempt: they drive the parts from outside.
# Prints every violation as file:line: include, and exits 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."

tool_headers='"(tools|cli|benchmark|diff|report|inspect)/|"CLI/'
delegate_headers='"(xnnpack|gpu|sample|external)/'
bad=0

check() {  # check RULE REGEX DIR...
  local rule="$1" regex="$2"
  shift 2
  local hits
  hits=$(grep -rnE "^#include $regex" "$@" --include='*.h' --include='*.cc' --include='*.inc' \
           | grep -vE '_test\.cc:|/test_plugins\.cc:' || true)
  if [[ -n "$hits" ]]; then
    echo "layering: $rule:"
    echo "$hits" | sed 's/^/  /'
    bad=1
  fi
}

runtime=(lib/runtime lib/kernels lib/model lib/resolver lib/delegate lib/util lib/include)
check "the runtime includes a tool or command-line header" "$tool_headers" "${runtime[@]}"
check "the runtime includes a delegate header" "$delegate_headers" "${runtime[@]}"
check "a delegate includes a tool or command-line header" "$tool_headers" delegates
check "a delegate reaches into the runtime's classes" \
  '"tensorflow/lite/(core/subgraph|core/interpreter|interpreter)\.h"' delegates lib/delegate

if (( bad )); then
  echo "layering: see docs/architecture.md for what may include what" >&2
  exit 1
fi
echo "layering: ok (runtime: ${runtime[*]}; delegates/)"
