#!/usr/bin/env bash
# README's main command: install dependencies, build, then run the demo on Kiln — or, with
# arguments, run that Vulkan program on Kiln.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
"$repo/scripts/install-deps.sh"
"$repo/scripts/build.sh"
exec "$repo/scripts/run-demo.sh" "$@"
