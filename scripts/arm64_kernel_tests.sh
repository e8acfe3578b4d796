#!/usr/bin/env bash
# The kernel tests on arm64 under qemu-user. Builds them in build-arm64/tests (a cross
# build with tests beside the bundle's build-arm64/build, on the sysroot that
# scripts/cross_build.sh unpacks) and runs each through the phone bundle's loader and
# libraries (nothing from this machine), twice: QEMU_CPU=max (dot products: the SDOT
# paths) and QEMU_CPU=cortex-a53 (no dot products: the NEON-only and portable paths).
#   scripts/arm64_kernel_tests.sh [--no-build] [BUNDLE]
# --no-build (ctest's arm64_kernel_tests) runs what is built; it exits 77 (skipped) with a
# message when the test binaries, the bundle or qemu-aarch64 are absent. Not built by
# scripts/test.sh: the cross build of the tests takes CI's machine about 10 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
build=1
if [[ "${1:-}" == --no-build ]]; then build=0; shift; fi
if [[ "${1:-}" == -* || $# -gt 1 ]]; then
  echo "usage: scripts/arm64_kernel_tests.sh [--no-build] [BUNDLE]" >&2
  exit 2
fi
BUNDLE=${1:-$ROOT/build-arm64/bundle}
TESTS=(lib/conv_kernels_test lib/tflite_goldens_test lib/elementwise_kernels_test
       lib/thread_pool_test delegates/xnnpack/depthwise_f32_test
       delegates/xnnpack/depthwise_qs8_test delegates/xnnpack/xnnpack_delegate_test)
OUT=$ROOT/build-arm64/tests
skip() { echo "skipped: $*"; exit 77; }

if (( build )); then
  set -e
  [[ -f "$BUNDLE/run.sh" ]] || bash scripts/phone_bundle.sh arm64 "$BUNDLE"
  cmake -S . -B "$OUT" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/aarch64-linux-gnu.cmake" \
    -DTFI_SYSROOT="$ROOT/build-arm64/sysroot" -DTFI_BUILD_TESTS=ON >/dev/null
  cmake --build "$OUT" -j "$(nproc)" --target "${TESTS[@]##*/}"
  set +e
fi

command -v qemu-aarch64 >/dev/null || skip "qemu-aarch64 is not installed (scripts/setup.sh cross)"
[[ -f "$BUNDLE/run.sh" && "$(cat "$BUNDLE/ARCH" 2>/dev/null)" == arm64 ]] \
  || skip "no arm64 bundle at $BUNDLE (scripts/phone_bundle.sh arm64 $BUNDLE)"
for t in "${TESTS[@]}"; do
  [[ -x "$OUT/$t" ]] || skip "$OUT/$t is not built (scripts/arm64_kernel_tests.sh builds the arm64 kernel tests)"
done

failures=0
for cpu in max cortex-a53; do
  for t in "${TESTS[@]}"; do
    log=$(QEMU_CPU=$cpu QEMU_LD_PREFIX=/nonexistent qemu-aarch64 "$BUNDLE/lib/ld-linux-aarch64.so.1" \
          --library-path "$BUNDLE/lib" "$OUT/$t" 2>&1)
    rc=$?
    summary=$(grep -E "All tests passed|test cases:" <<<"$log" | tail -n 1)
    if (( rc == 0 )); then
      echo "ok: $t (QEMU_CPU=$cpu): $summary"
    else
      echo "FAILED: $t (QEMU_CPU=$cpu), exit $rc:"
      tail -n 40 <<<"$log"
      failures=$((failures + 1))
    fi
  done
done
(( failures == 0 ))
