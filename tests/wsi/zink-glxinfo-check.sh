#!/usr/bin/env bash
# ctest: OpenGL on Kiln through Mesa's zink (GL on Vulkan; Debian's libgl1-mesa-dri) under a
# private Xvfb: glxinfo names zink on Kiln with OpenGL 4.6 core and ES 3.2 — the version zink
# computes from Kiln's features and formats, so a lost feature shows here — and glxgears runs and
# reports frames (its picture is not checked here). Usage: zink-glxinfo-check.sh <kiln icd json>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/start-xvfb.sh"
start_zink_on "$1" 320x240
out="$(glxinfo -B 2>&1)" || { echo "$out" | tail -20; echo "glxinfo failed"; exit 1; }
status=0
for expected in "OpenGL renderer string: zink (Kiln" "OpenGL core profile version string: 4.6" \
                "OpenGL ES profile version string: OpenGL ES 3.2"; do
  if ! grep -q -- "$expected" <<<"$out"; then echo "glxinfo output lacks: $expected"; status=1; fi
done
# glxgears reports its frame count every 5 seconds.
gears="$(timeout 7 glxgears 2>&1 || true)"
if ! grep -Eq "[1-9][0-9]* frames in" <<<"$gears"; then echo "$gears" | tail -5; echo "glxgears reported no frames"; status=1; fi
[ $status -eq 0 ] && { grep "version string\|renderer string" <<<"$out"; grep "frames in" <<<"$gears" | head -1; }
exit $status
