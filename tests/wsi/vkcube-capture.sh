#!/usr/bin/env bash
# Runs `vkcube --c FRAMES` on the driver of ICD_JSON under a private Xvfb and saves its window
# (500x500) as PNG, to compare Kiln with lavapipe:
#   tests/wsi/vkcube-capture.sh build/kiln_icd.x86_64.json /tmp/kiln-cube.png
#   tests/wsi/vkcube-capture.sh /usr/share/vulkan/icd.d/lvp_icd.x86_64.json /tmp/lvp-cube.png
# The window is captured with xwd repeatedly while vkcube runs; the PNG is the last capture taken
# before vkcube closed its window (vkcube turns a fixed angle per frame, so it shows a frame
# near FRAMES, not exactly FRAMES). Exit status: vkcube's.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 ICD_JSON OUT_PNG [FRAMES=100]" >&2; exit 2; }
icd="$1"; out="$2"; frames="${3:-100}"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/start-xvfb.sh"
start_xvfb 800x800 || exit 1
work="$(mktemp -d)"
VK_ICD_FILENAMES="$icd" VK_DRIVER_FILES="$icd" vkcube --c "$frames" >"$work/vkcube.log" 2>&1 &
cube=$!
window=""
while kill -0 $cube 2>/dev/null; do
  # vkcube's window is the root's only child (it sets no name to find it by).
  [ -n "$window" ] || window="$(xwininfo -root -children 2>/dev/null | awk '/^ +0x/ {print $1; exit}')"
  if [ -n "$window" ]; then
    xwd -id "$window" -silent >"$work/next.xwd" 2>/dev/null && mv "$work/next.xwd" "$work/last.xwd"
  fi
  sleep 0.05
done
wait $cube; status=$?
if [ -s "$work/last.xwd" ]; then
  python3 "$here/xwd-to-png.py" "$work/last.xwd" "$out" && echo "saved $out (vkcube exit status $status)"
else
  echo "no capture (vkcube exit status $status)"
fi
tail -5 "$work/vkcube.log"
rm -rf "$work"
exit $status
