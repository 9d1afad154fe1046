#!/usr/bin/env bash
# Configures and builds Kiln into $KILN_BUILD_DIR (default: build/ in the repository).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="${KILN_BUILD_DIR:-$repo/build}"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/kiln-ccache}"
# Relative paths and no build-directory hash, so clones and worktrees share one cache (with -g,
# ccache would otherwise hash the build directory into every object).
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$repo}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
# KILN_CMAKE_ARGS: extra configure arguments (scripts/sanitize.sh passes the sanitizer options).
# shellcheck disable=SC2086
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${KILN_BUILD_TYPE:-RelWithDebInfo}" ${KILN_CMAKE_ARGS:-} >/dev/null
ninja -C "$build" "$@"
