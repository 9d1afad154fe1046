#!/usr/bin/env bash
# ctest: glmark2 (Debian's glmark2-x11, OpenGL 2.0 scenes) through Mesa's zink on Kiln under a
# private Xvfb, in its --validate mode: every scene renders a few frames and glmark2 compares
# pixels of the result with its reference colours. Every scene that has a reference must report
# "Validation: Success" (27 of glmark2 2023.01's 33 scenes; the other 6 report Unknown, on lavapipe
# too), none "Failure", and the renderer must be zink on Kiln.
# Usage: zink-glmark2-validate.sh <kiln icd json>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/start-xvfb.sh"
start_zink_on "$1" 800x600
out="$(timeout 240 glmark2 --validate 2>&1)" || { echo "$out" | tail -20; echo "glmark2 failed"; exit 1; }
status=0
if ! grep -q "GL_RENDERER: *zink (Kiln" <<<"$out"; then echo "$out" | head -12; echo "the renderer is not zink on Kiln"; status=1; fi
successes=$(grep -c "Validation: Success" <<<"$out" || true)
failures=$(grep "Validation: Failure" <<<"$out" || true)
if [ -n "$failures" ]; then echo "$failures"; status=1; fi
if [ "$successes" -lt 27 ]; then grep "Validation:" <<<"$out"; echo "only $successes scenes validated (27 expected)"; status=1; fi
echo "glmark2 --validate on zink/Kiln: $successes scenes Success, $(grep -c 'Validation: Unknown' <<<"$out" || true) Unknown"
exit $status
