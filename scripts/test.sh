#!/usr/bin/env bash
# README's test command: install dependencies, build, run every test (ctest).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
"$repo/scripts/install-deps.sh"
"$repo/scripts/build.sh"
build="${KILN_BUILD_DIR:-$repo/build}"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
