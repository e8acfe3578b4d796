#!/usr/bin/env bash
# Makes a self-contained folder to push to a phone's /data/local/tmp:
#   scripts/phone_bundle.sh arm64|armv7 OUT
#   OUT/bin/       the tools (stripped)
#   OUT/lib/       every shared library they need, transitively, and glibc's dynamic loader
#   OUT/delegates/ the example external delegate plugin (--external_delegate_path)
#   OUT/run.sh     ./run.sh TOOL [flags]: runs OUT/bin/TOOL through OUT/lib's loader
# Android's libc is bionic, so nothing may come from the phone: the loader is told to look
# in OUT/lib only. Builds with scripts/cross_build.sh first (incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

if [[ $# -ne 2 ]] || [[ "$1" != arm64 && "$1" != armv7 ]]; then
  echo "usage: scripts/phone_bundle.sh arm64|armv7 OUT" >&2
  exit 2
fi
NAME=$1
OUT=$2
case "$NAME" in
  arm64) TRIPLE=aarch64-linux-gnu; LOADER=ld-linux-aarch64.so.1 ;;
  armv7) TRIPLE=arm-linux-gnueabihf; LOADER=ld-linux-armhf.so.3 ;;
esac

BUILD=$(bash scripts/cross_build.sh "$NAME")
SYSROOT="$ROOT/build-$NAME/sysroot"
TOOLS=(tflite-inspect benchmark_model inference_diff inspect_ops delegate_report)
# Where the target's libraries are: the unpacked packages, then the cross toolchain's
# glibc and libstdc++.
SEARCH=("$SYSROOT/usr/lib/$TRIPLE" "$SYSROOT/lib/$TRIPLE" "/usr/$TRIPLE/lib")

rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/lib" "$OUT/delegates"
for tool in "${TOOLS[@]}"; do
  "$TRIPLE-strip" -o "$OUT/bin/$tool" "$BUILD/cmd/$tool"
done
"$TRIPLE-strip" --strip-unneeded -o "$OUT/delegates/libtfi_example_external_delegate.so" \
  "$BUILD/delegates/external/libtfi_example_external_delegate.so"

needed() { "$TRIPLE-readelf" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
find_lib() {
  local dir
  for dir in "${SEARCH[@]}"; do
    [[ -e "$dir/$1" ]] && { echo "$dir/$1"; return 0; }
  done
  return 1
}
# Breadth-first over NEEDED entries; each library is copied once, under its soname.
queue=("$OUT"/bin/* "$OUT"/delegates/*)
declare -A copied=()
while [[ ${#queue[@]} -gt 0 ]]; do
  file=${queue[0]}
  queue=("${queue[@]:1}")
  for lib in $(needed "$file"); do
    [[ -n "${copied[$lib]:-}" ]] && continue
    src=$(find_lib "$lib") || { echo "phone_bundle: $lib (needed by $file) not found in ${SEARCH[*]}" >&2; exit 1; }
    "$TRIPLE-strip" --strip-unneeded -o "$OUT/lib/$lib" "$(readlink -f "$src")"
    copied[$lib]=1
    queue+=("$OUT/lib/$lib")
  done
done
cp "$(readlink -f "/usr/$TRIPLE/lib/$LOADER")" "$OUT/lib/$LOADER"
# A path baked into a program would be searched on the phone too: there must be none.
for f in "$OUT"/bin/* "$OUT"/lib/*.so* "$OUT"/delegates/*; do
  if "$TRIPLE-readelf" -d "$f" | grep -qE '\((RPATH|RUNPATH)\)'; then
    echo "phone_bundle: $f has an RPATH/RUNPATH (build with cmake/toolchains/$TRIPLE.cmake)" >&2
    exit 1
  fi
done
chmod 755 "$OUT"/bin/* "$OUT/lib/$LOADER"

cat > "$OUT/run.sh" <<RUN
#!/system/bin/sh
# Runs one of this bundle's tools: ./run.sh TOOL [flags], e.g.
#   ./run.sh benchmark_model --graph=model.tflite --num_threads=4
# The tools are glibc programs and Android's libc is bionic: they start through the
# glibc loader in lib/, which looks for libraries in lib/ only. TFI_BUNDLE_EMULATOR, when
# set (qemu-aarch64 or qemu-arm), runs the loader under it: the bundle on a non-ARM host.
dir=\$(cd "\$(dirname "\$0")" && pwd)
if [ \$# -lt 1 ] || [ ! -f "\$dir/bin/\$1" ]; then
  echo "usage: \$0 TOOL [flags]; TOOL is one of: \$(ls "\$dir/bin" | tr '\n' ' ')" >&2
  exit 2
fi
tool=\$1
shift
# LD_PRELOAD names libraries of the phone's bionic (or, under qemu, the host's): the
# bundled loader cannot load them, and would say so before every run.
unset LD_PRELOAD
exec \$TFI_BUNDLE_EMULATOR "\$dir/lib/$LOADER" --library-path "\$dir/lib" "\$dir/bin/\$tool" "\$@"
RUN
chmod 755 "$OUT/run.sh"
echo "$NAME" > "$OUT/ARCH"
echo "phone_bundle: $OUT ($NAME): $(du -sh "$OUT" | cut -f1), ${#TOOLS[@]} tools, $(ls "$OUT/lib" | wc -l) libraries" >&2
