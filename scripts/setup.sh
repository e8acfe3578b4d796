#!/usr/bin/env bash
# Installs the Debian 12 packages tflite-inspect needs. Idempotent and quiet when all
# are present; uses sudo only when not root.
set -euo pipefail

PACKAGES=(
  cmake g++ pkg-config ninja-build
  libflatbuffers-dev flatbuffers-compiler
  libcli11-dev libfmt-dev nlohmann-json3-dev libbenchmark-dev catch2
  libxnnpack-dev libpthreadpool-dev libcpuinfo-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  clang libclang-rt-14-dev
)

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
