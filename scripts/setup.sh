#!/usr/bin/env bash
# Installs the Debian 12 packages tflite-inspect needs. Idempotent and quiet when all
# are present; uses sudo only when not root. `setup.sh cross` installs the ARM cross
# toolchains and qemu-user instead (scripts/cross_build.sh; the :arm64 / :armhf libraries
# are unpacked into a private sysroot, never installed).
set -euo pipefail

PACKAGES=(
  cmake g++ pkg-config ninja-build
  libflatbuffers-dev flatbuffers-compiler
  libcli11-dev libfmt-dev nlohmann-json3-dev libbenchmark-dev catch2
  libxnnpack-dev libpthreadpool-dev libcpuinfo-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  clang libclang-rt-14-dev
  chromium
  jq  # a docs example (doc_examples_test)
)
if [[ "${1:-}" == cross ]]; then
  PACKAGES=(g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user dpkg-dev python3)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
