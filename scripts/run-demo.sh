#!/usr/bin/env bash
# Runs programs on Kiln from the build tree, through the real Vulkan loader.
#
#   scripts/run-demo.sh                 vulkaninfo --summary on Kiln, then kiln-demo (a 3D scene drawn
#                                       with every shader stage) on lavapipe and on Kiln: each prints its
#                                       frame times; Kiln's picture (./kiln-demo.png) is checked against
#                                       lavapipe's (./kiln-demo-lavapipe.png)
#   scripts/run-demo.sh PROGRAM [ARG]…  runs PROGRAM with the loader pointed at Kiln, e.g.
#                                       scripts/run-demo.sh vkcube --c 100
#
# The build directory is $KILN_BUILD_DIR (default: <repo>/build); it must already be built
# (README: cmake -S . -B build -G Ninja && ninja -C build).
set -euo pipefail

repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${KILN_BUILD_DIR:-$repo_dir/build}"
manifest="$build_dir/kiln_icd.x86_64.json"
demo="$build_dir/tools/kiln-demo"

if [[ ! -f "$manifest" ]]; then
  echo "run-demo: no Kiln manifest at $manifest — build first:" >&2
  echo "  cmake -S $repo_dir -B $build_dir -G Ninja && ninja -C $build_dir" >&2
  exit 1
fi

# VK_DRIVER_FILES wins over VK_ICD_FILENAMES in newer loaders; set both so a value inherited
# from the caller's environment cannot silently select another driver.
export VK_ICD_FILENAMES="$manifest"
export VK_DRIVER_FILES="$manifest"  # lavapipe's run below sets its own

if [[ $# -gt 0 ]]; then
  exec "$@"
fi

if [[ ! -x "$demo" ]]; then
  echo "run-demo: $demo is missing — build it: ninja -C $build_dir kiln-demo" >&2
  exit 1
fi
# Every step runs even if one fails; the exit status reports any failure.
status=0
echo "== vulkaninfo --summary (VK_ICD_FILENAMES=$manifest)"
vulkaninfo --summary || { status=$?; echo "run-demo: vulkaninfo failed (exit $status)" >&2; }

# lavapipe (Mesa's CPU driver, Debian's mesa-vulkan-drivers) draws the reference picture and
# gives the frame times to compare with.
lavapipe_manifest=""
for candidate in /usr/share/vulkan/icd.d/lvp_icd.x86_64.json /usr/share/vulkan/icd.d/lvp_icd.json; do
  [[ -f "$candidate" ]] && { lavapipe_manifest="$candidate"; break; }
done
median_ms() { sed -n 's/^frames: [0-9]*, median \([0-9.]*\) ms.*/\1/p' "$1"; }
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
reference_args=()
if [[ -n "$lavapipe_manifest" ]]; then
  echo
  echo "== kiln-demo on lavapipe (the reference: ./kiln-demo-lavapipe.png)"
  if VK_ICD_FILENAMES="$lavapipe_manifest" VK_DRIVER_FILES="$lavapipe_manifest" \
      "$demo" --output kiln-demo-lavapipe.png | tee "$logs/lavapipe"; then
    reference_args=(--reference kiln-demo-lavapipe.png)
  else
    status=1
    echo "run-demo: kiln-demo failed on lavapipe" >&2
  fi
else
  echo "run-demo: lavapipe is not installed (mesa-vulkan-drivers): no reference picture or frame times to compare" >&2
fi
echo
echo "== kiln-demo on Kiln (./kiln-demo.png)"
"$demo" --output kiln-demo.png "${reference_args[@]}" | tee "$logs/kiln" || { status=1; echo "run-demo: kiln-demo failed on Kiln" >&2; }

kiln_ms="$(median_ms "$logs/kiln")"
lavapipe_ms="$( [[ -f "$logs/lavapipe" ]] && median_ms "$logs/lavapipe" )"
if [[ -n "$kiln_ms" && -n "$lavapipe_ms" ]]; then
  echo
  awk -v k="$kiln_ms" -v l="$lavapipe_ms" 'BEGIN { printf "median frame: Kiln %.1f ms, lavapipe %.1f ms: Kiln draws %.2fx as many frames a second\n", k, l, l / k }'
fi
exit "$status"
