#!/usr/bin/env bash
# Cross-builds the tools for ARM phones and boards with Debian's cross toolchains:
#   scripts/cross_build.sh arm64|armv7 [extra CMake arguments]
# Makes build-<arch>/sysroot from Debian's :arm64 / :armhf packages (downloaded with a
# private apt state and unpacked with dpkg-deb: the host's packages are not touched),
# then configures build-<arch>/build with cmake/toolchains/<triple>.cmake and builds it in
# Release without tests. Prints the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

case "${1:-}" in
  arm64) ARCH=arm64; TRIPLE=aarch64-linux-gnu ;;
  armv7) ARCH=armhf; TRIPLE=arm-linux-gnueabihf ;;
  *) echo "usage: scripts/cross_build.sh arm64|armv7 [CMake arguments]" >&2; exit 2 ;;
esac
NAME=$1
shift

bash scripts/setup.sh cross

# The libraries the tools link and the headers they include; the C and C++ runtimes come
# with the cross toolchain (/usr/$TRIPLE). Not flatbuffers-compiler-dev: its flatc target
# names an ARM flatc that cannot run here (the host's generates the schema code).
PACKAGES=(
  libxnnpack-dev libxnnpack0 libpthreadpool-dev libpthreadpool0 libcpuinfo-dev libcpuinfo0
  libfmt-dev libfmt9 libflatbuffers-dev libflatbuffers2
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-c-headers opencl-clhpp-headers
  libcli11-dev nlohmann-json3-dev catch2 libbenchmark-dev libbenchmark1debian
)
OUT="$ROOT/build-$NAME"
SYSROOT="$OUT/sysroot"
STAMP="$SYSROOT/.packages"
if [[ ! -f "$STAMP" || "$(cat "$STAMP")" != "${PACKAGES[*]}" ]]; then
  echo "cross_build: unpacking :$ARCH packages into $SYSROOT" >&2
  APT="$OUT/apt"
  rm -rf "$SYSROOT" "$APT"
  mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/debs" "$SYSROOT"
  touch "$APT/status"
  apt_opts=(-o "APT::Architecture=$ARCH" -o "APT::Architectures::=$ARCH"
            -o "Dir::State::Lists=$APT/lists" -o "Dir::State::status=$APT/status"
            -o "Dir::Cache=$APT/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" update -qq
  (cd "$APT/debs" && apt-get "${apt_opts[@]}" download -qq "${PACKAGES[@]}")
  for deb in "$APT/debs"/*.deb; do dpkg-deb -x "$deb" "$SYSROOT"; done
  echo "${PACKAGES[*]}" > "$STAMP"
fi

BUILD="$OUT/build"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/$TRIPLE.cmake" -DTFI_SYSROOT="$SYSROOT" \
  -DTFI_BUILD_TESTS=OFF "$@" >/dev/null
cmake --build "$BUILD" -j "$(nproc)" >&2
echo "$BUILD"
