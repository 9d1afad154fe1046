"""A private Xvfb for the window-system test scripts (standard library only)."""
import os
import subprocess


def start_xvfb(screen):
    """Starts Xvfb on a free display with one screen of `screen` (e.g. "800x800x24"); returns the
    server process and the environment variables that reach it."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", screen, "-nolisten", "tcp",
                               "-noreset"], pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as display:
        number = display.readline().strip()
    if not number:
        server.kill()
        raise RuntimeError("Xvfb did not report a display")
    return server, {"DISPLAY": ":" + number}
