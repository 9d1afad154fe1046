#!/usr/bin/env bash
# ctest: with DISPLAY set (a private Xvfb), vulkaninfo on Kiln lists Kiln's xcb/xlib surface
# formats and present modes. Usage: vulkaninfo-surface-check.sh <kiln icd json>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/start-xvfb.sh"
start_xvfb 320x240
out="$(VK_ICD_FILENAMES="$1" VK_DRIVER_FILES="$1" vulkaninfo 2>&1)" || { echo "$out" | tail -20; echo "vulkaninfo failed"; exit 1; }
status=0
for expected in "Presentable Surfaces" "VK_KHR_xcb_surface" "VK_KHR_xlib_surface" \
                "FORMAT_B8G8R8A8_SRGB" "FORMAT_B8G8R8A8_UNORM" "FORMAT_R8G8B8A8_SRGB" "FORMAT_R8G8B8A8_UNORM" \
                "PRESENT_MODE_FIFO_KHR" "PRESENT_MODE_FIFO_RELAXED_KHR" "PRESENT_MODE_MAILBOX_KHR" \
                "PRESENT_MODE_IMMEDIATE_KHR" "VK_KHR_swapchain"; do
  if ! grep -q -- "$expected" <<<"$out"; then echo "vulkaninfo output lacks: $expected"; status=1; fi
done
[ $status -eq 0 ] && echo "vulkaninfo lists Kiln's surfaces, formats and present modes"
exit $status
