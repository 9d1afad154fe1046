#!/usr/bin/env bash
# ctest: the Debian package (cmake/Packaging.cmake) that cpack makes from this build tree holds the
# driver and its manifest and nothing else; the manifest names the installed library; Depends names
# the loader and the package of every library the driver links; and vulkaninfo, given the
# package's manifest (extracted, never installed: its library path moved into the extraction
# directory), finds Kiln. scripts/package.sh makes the real package the same way from a Release
# tree configured for /usr. Usage: deb-package-check.sh <build dir>/CPackConfig.cmake
# Exit 77 (skipped) without cpack, dpkg-deb, dpkg-shlibdeps (dpkg-dev), file, vulkaninfo or python3.
set -euo pipefail
config="$1"
for tool in cpack dpkg-deb dpkg-shlibdeps file vulkaninfo python3; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool not found (scripts/install-deps.sh)"; exit 77; }
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# cpack installs the build tree's "driver" component (stripping the library) into its staging
# directory under -B and runs dpkg-shlibdeps: a few seconds with a built tree.
cpack -G DEB --config "$config" -B "$tmp/out" >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
debs=("$tmp"/out/*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then cat "$tmp/cpack.log"; fail "cpack made no single .deb: ${debs[*]}"; fi
deb="${debs[0]}"
echo "package: $(basename "$deb") ($(stat -c %s "$deb") bytes)"

# Contents: exactly the manifest in usr/share/vulkan/icd.d/ and the library under usr/lib/.
files="$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $NF}' | sed 's|^\./||' | sort)"
echo "files:"; sed 's/^/  /' <<<"$files"
manifest_entry="$(grep -x 'usr/share/vulkan/icd.d/kiln_icd.x86_64.json' <<<"$files")" || fail "no usr/share/vulkan/icd.d/kiln_icd.x86_64.json"
library_entry="$(grep -E -x 'usr/lib/([^/]+/)?libvulkan_kiln\.so' <<<"$files")" || fail "no usr/lib/[<triplet>/]libvulkan_kiln.so"
[ "$(wc -l <<<"$files")" -eq 2 ] || fail "the package holds more than the driver and its manifest"

# Control fields.
for field in Package Version Architecture Depends; do
  value="$(dpkg-deb -f "$deb" "$field")"
  [ -n "$value" ] || fail "empty $field"
  echo "$field: $value"
done
depends="$(dpkg-deb -f "$deb" Depends)"
[ "$(dpkg-deb -f "$deb" Architecture)" = amd64 ] || fail "Architecture is not amd64"
# The package names in Depends, one a line (alternatives too; versions and architectures dropped).
depended="$(sed 's/[,|]/\n/g' <<<"$depends" | sed 's/^ *//; s/[ (:].*//' | sort -u)"
grep -qFx libvulkan1 <<<"$depended" || fail "Depends lacks libvulkan1"

dpkg-deb -x "$deb" "$tmp/root"
library="$tmp/root/$library_entry"
# Debian ships shared libraries stripped and without an RPATH.
if command -v readelf >/dev/null; then
  sections="$(readelf -S "$library")"
  dynamic="$(readelf -d "$library")"
  ! grep -q '\.symtab' <<<"$sections" || fail "$library_entry is not stripped"
  ! grep -qE 'RPATH|RUNPATH' <<<"$dynamic" || fail "$library_entry has an RPATH/RUNPATH"
  # Every library the driver links comes from a package Depends names (dpkg-shlibdeps).
  for soname in $(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic"); do
    owners="$(dpkg -S "*/$soname" 2>/dev/null | grep -F "/$soname" | sed 's/: .*//; s/, /\n/g' | sed 's/:[a-z0-9]*$//' | sort -u)" || true
    [ -n "$owners" ] || fail "no installed package holds $soname"
    grep -qFx -f <(echo "$owners") <<<"$depended" ||
      fail "Depends names none of the packages holding $soname ($(tr '\n' ' ' <<<"$owners"))"
  done
fi

# The manifest names the library where the package installs it.
library_path="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$tmp/root/$manifest_entry")"
echo "manifest library_path: $library_path"
[ "$library_path" = "/$library_entry" ] || fail "the manifest's library_path is not /$library_entry"

# vulkaninfo with only the package's manifest, its library path moved into the extraction.
python3 - "$tmp/root/$manifest_entry" "$library" "$tmp/kiln_icd.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
manifest["ICD"]["library_path"] = sys.argv[2]
json.dump(manifest, open(sys.argv[3], "w"), indent=4)
PY
unset VK_ADD_DRIVER_FILES
out="$(VK_ICD_FILENAMES="$tmp/kiln_icd.json" VK_DRIVER_FILES="$tmp/kiln_icd.json" VK_LOADER_DEBUG=driver \
       vulkaninfo --summary 2>&1)" || { echo "$out" | tail -30; fail "vulkaninfo --summary"; }
grep -qF "$library" <<<"$out" || { echo "$out" | tail -30; fail "the loader did not load $library"; }
grep -E '^\s*(deviceName|driverName)\s*=' <<<"$out"
grep -qE '^\s*deviceName\s*=\s*Kiln' <<<"$out" || { echo "$out" | tail -30; fail "vulkaninfo lists no Kiln device"; }
echo "the package's driver and manifest work: vulkaninfo lists Kiln"
