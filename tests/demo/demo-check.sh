#!/usr/bin/env bash
# ctest: kiln-demo (README's main job) under the Khronos validation layer.
#   1. On lavapipe it draws the reference picture (skipped, 77, when lavapipe is not installed).
#   2. On Kiln (task + mesh shaders for the torus) its picture passes the demo's own checks and
#      matches lavapipe's within the demo's default likeness (99% of pixels within 24/255).
#   3. On Kiln with the torus drawn by a vertex shader the picture is identical, bit for bit, to
#      the mesh-shader picture: both paths compute every vertex with the same function.
# Any validation message fails the run (kiln-demo counts them).
# Usage: demo-check.sh KILN_DEMO KILN_ICD_JSON LAVAPIPE_ICD_JSON OUTPUT_DIR
set -euo pipefail
demo="$1" kiln="$2" lavapipe="$3" out="$4"
mkdir -p "$out"
if [[ ! -f "$lavapipe" ]]; then
  echo "skipped: lavapipe ($lavapipe) is not installed (mesa-vulkan-drivers)"
  exit 77
fi
export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
frames=(--frames 4)  # the picture is the fourth frame (0.1 s of scene time)
on() { local icd="$1"; shift; VK_ICD_FILENAMES="$icd" VK_DRIVER_FILES="$icd" "$demo" "${frames[@]}" "$@"; }

echo "== lavapipe"
on "$lavapipe" --output "$out/lavapipe.png"
echo "== Kiln, torus by task + mesh shaders, against lavapipe"
on "$kiln" --torus mesh --output "$out/kiln-mesh.png" --reference "$out/lavapipe.png"
echo "== Kiln, torus by a vertex shader, against Kiln's mesh-shader picture (exact)"
on "$kiln" --torus vertex --output "$out/kiln-vertex.png" --reference "$out/kiln-mesh.png" --tolerance 0 --min-match 1
