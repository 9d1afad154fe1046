# Sourced by the scripts here: starts a private Xvfb on a free display (-displayfd) and sets
# DISPLAY; the server is killed when the sourcing script exits. Usage: start_xvfb WIDTHxHEIGHT
start_xvfb() {
  command -v Xvfb >/dev/null || { echo "Xvfb missing: install the Debian package xvfb" >&2; return 1; }
  local size="${1:-640x480}"
  XVFB_TMP="$(mktemp -d)"
  Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp -noreset 3>"$XVFB_TMP/display" 2>/dev/null &
  XVFB_PID=$!
  trap 'kill $XVFB_PID 2>/dev/null; wait $XVFB_PID 2>/dev/null; rm -rf "$XVFB_TMP"' EXIT
  for _ in $(seq 100); do
    if grep -q . "$XVFB_TMP/display" 2>/dev/null; then
      export DISPLAY=":$(head -n1 "$XVFB_TMP/display")"
      return 0
    fi
    sleep 0.1
  done
  echo "Xvfb did not start within 10 s" >&2
  return 1
}

# OpenGL through Mesa's zink on the Vulkan driver of ICD json $1, in a private Xvfb of size $2
# (the zink tests' set-up).
start_zink_on() {
  start_xvfb "$2"
  export VK_ICD_FILENAMES="$1" VK_DRIVER_FILES="$1" LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=zink
  export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
}
