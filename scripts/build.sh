#!/usr/bin/env bash
# Configures and builds Kiln into $KILN_BUILD_DIR (default: build/ in the repository).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="${KILN_BUILD_DIR:-$repo/build}"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/kiln-ccache}"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${KILN_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
ninja -C "$build" "$@"
