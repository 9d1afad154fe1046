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
