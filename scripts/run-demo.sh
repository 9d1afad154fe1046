#!/usr/bin/env bash
# Runs programs on Kiln from the build tree, through the real Vulkan loader.
#
#   scripts/run-demo.sh                 vulkaninfo --summary, then kiln-demo (writes ./kiln-demo.png)
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
export VK_DRIVER_FILES="$manifest"

if [[ $# -gt 0 ]]; then
  exec "$@"
fi

if [[ ! -x "$demo" ]]; then
  echo "run-demo: $demo is missing — build it: ninja -C $build_dir kiln-demo" >&2
  exit 1
fi
# Both steps run even if the first fails; the exit status reports any failure.
status=0
echo "== vulkaninfo --summary (VK_ICD_FILENAMES=$manifest)"
vulkaninfo --summary || { status=$?; echo "run-demo: vulkaninfo failed (exit $status)" >&2; }
echo
echo "== kiln-demo"
"$demo" || { status=$?; echo "run-demo: kiln-demo failed (exit $status)" >&2; }
exit "$status"
