#!/usr/bin/env bash
# Makes a farm of fake phones for scripts/testing/fake_adb: a folder per serial under
# FARM with its getprop answers (an arm64-v8a phone by "Fakeco", model "Test Phone X" for
# serial phoneX, unless SERIAL=ABI given) and an empty /data/local/tmp. A phone already
# in the farm is made anew.
#   scripts/testing/fake_phones.sh FARM SERIAL[=ABI]...
set -euo pipefail
farm=${1:?usage: fake_phones.sh FARM SERIAL[=ABI]...}
shift
[[ $# -gt 0 ]] || { echo "usage: fake_phones.sh FARM SERIAL[=ABI]..." >&2; exit 2; }
for phone in "$@"; do
  serial=${phone%%=*}
  abi=arm64-v8a
  [[ "$phone" == *=* ]] && abi=${phone#*=}
  rm -rf "${farm:?}/$serial"
  mkdir -p "$farm/$serial/root/data/local/tmp"
  printf 'ro.product.cpu.abi=%s\nro.product.manufacturer=Fakeco\nro.product.model=Test Phone %s\n' \
    "$abi" "${serial#phone}" >"$farm/$serial/props"
done
