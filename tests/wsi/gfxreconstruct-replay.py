#!/usr/bin/env python3
"""ctest: a gfxreconstruct capture made on lavapipe when the test runs (nothing is committed)
replays on Kiln with `gfxrecon-replay` and gives the frames lavapipe's replay gives.

Usage: gfxreconstruct-replay.py KILN_ICD_JSON LAVAPIPE_ICD_JSON OUTPUT_DIR vkcube
       gfxreconstruct-replay.py KILN_ICD_JSON LAVAPIPE_ICD_JSON OUTPUT_DIR kiln-demo PATH_TO_KILN_DEMO
Exit 0: pass, 1: fail, 77: skipped (no lavapipe, gfxreconstruct, Xvfb or the program).

The captures (CAPTURES below):
  vkcube     vkcube --c 30: one textured cube, a uniform buffer per frame.
  kiln-demo  kiln-demo --present: compute, tessellation, geometry shader, instancing, 4x MSAA
             with resolve, sampling, blending, blits into the swapchain (lavapipe has no mesh
             shaders, so the capture draws the torus with a vertex shader).
  1. The program runs on lavapipe under a private Xvfb with the gfxreconstruct capture layer.
  2. gfxrecon-replay replays the capture on lavapipe and, three times, on Kiln (a replay once
     crashed Kiln in one run of three: a command buffer freed under its queue), taking
     screenshots of three frames.
  3. Every Kiln screenshot must have >= the capture's match fraction of its pixels within its
     tolerance of lavapipe's on every channel; the first frame against the last must not (the
     check can fail).
On failure the screenshots go to OUTPUT_DIR as PNGs.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # ctest runs this from the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from image_io import write_png  # noqa: E402
from image_match import fraction_within  # noqa: E402
from xvfb_server import start_xvfb  # noqa: E402

KILN_REPLAYS = 3
LAYER = "VK_LAYER_LUNARG_gfxreconstruct"


class Capture:
    """What to capture and how close Kiln's replayed frames must be to lavapipe's."""

    def __init__(self, command, frames, tolerance, match_fraction):
        self.command = command  # "{work}" stands for the test's scratch directory
        self.frames = frames  # screenshots of these frames (gfxreconstruct counts presents from 1)
        self.tolerance = tolerance
        self.match_fraction = match_fraction


def captures(program_path):
    return {
        "vkcube": Capture(["vkcube", "--c", "30"], [5, 15, 29], 10, 0.999),
        # Kiln's and lavapipe's demo pictures differ only at antialiased edges and in filtering
        # rounding: 99.97% of pixels are within 24/255 (kiln-demo --reference reports it).
        "kiln-demo": Capture([program_path, "--present", "--frames", "12", "--output", "{work}/kiln-demo.png"],
                             [2, 6, 11], 24, 0.999),
    }


def read_bmp(path):
    """A 24/32-bit uncompressed BMP as (width, height, rgb), rows top to bottom."""
    data = open(path, "rb").read()
    offset = struct.unpack_from("<I", data, 10)[0]
    width, height = struct.unpack_from("<ii", data, 18)
    bytes_per_pixel = struct.unpack_from("<H", data, 28)[0] // 8
    row_bytes = (width * bytes_per_pixel + 3) & ~3
    rows = []
    for y in range(abs(height)):
        source_row = y if height < 0 else abs(height) - 1 - y  # positive height: bottom-up
        start = offset + source_row * row_bytes
        row = bytearray()
        for x in range(width):
            b, g, r = data[start + x * bytes_per_pixel:start + x * bytes_per_pixel + 3]
            row += bytes((r, g, b))
        rows.append(bytes(row))
    return width, abs(height), b"".join(rows)


def replay(capture, frames, icd, env, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    run_env = dict(env, VK_ICD_FILENAMES=icd, VK_DRIVER_FILES=icd)
    result = subprocess.run(["gfxrecon-replay", "--screenshots", ",".join(map(str, frames)), "--screenshot-format",
                             "bmp", "--screenshot-dir", out_dir, "--screenshot-prefix", "frame", capture],
                            env=run_env, capture_output=True, text=True, timeout=120)
    shots = {f: os.path.join(out_dir, f"frame_frame_{f}.bmp") for f in frames}
    return result, shots


def main():
    kiln_icd, lavapipe_icd, output_dir, name = sys.argv[1:5]
    spec = captures(sys.argv[5] if len(sys.argv) > 5 else "")[name]
    frames, tolerance, match_fraction = spec.frames, spec.tolerance, spec.match_fraction
    for tool in ("gfxrecon-replay", spec.command[0], "Xvfb"):
        if not shutil.which(tool):
            print(f"skipped: {tool} not installed")
            return 77
    if not os.path.exists(lavapipe_icd):
        print("skipped: lavapipe is not installed (the capture is made on it)")
        return 77
    work = tempfile.mkdtemp(prefix="kiln-gfxr-")
    server, display_env = start_xvfb("800x800x24")
    failures = []
    try:
        env = dict(os.environ, **display_env)
        capture = os.path.join(work, f"{name}.gfxr")
        capture_env = dict(env, VK_ICD_FILENAMES=lavapipe_icd, VK_DRIVER_FILES=lavapipe_icd, VK_INSTANCE_LAYERS=LAYER,
                           GFXRECON_CAPTURE_FILE=capture, GFXRECON_CAPTURE_FILE_TIMESTAMP="false")
        command = [argument.replace("{work}", work) for argument in spec.command]
        result = subprocess.run(command, env=capture_env, capture_output=True, text=True, timeout=120)
        if result.returncode != 0 or not os.path.exists(capture):
            print(result.stdout[-2000:], result.stderr[-2000:])
            print("FAIL: the capture on lavapipe did not work")
            return 1
        result, reference = replay(capture, frames, lavapipe_icd, env, os.path.join(work, "lavapipe"))
        if result.returncode != 0 or not all(os.path.exists(p) for p in reference.values()):
            print(result.stdout[-2000:], result.stderr[-2000:])
            print("FAIL: the replay on lavapipe did not work")
            return 1
        expected = {f: read_bmp(p) for f, p in reference.items()}
        control = fraction_within(expected[frames[0]], expected[frames[-1]], tolerance)
        if control >= match_fraction:
            failures.append(f"frames {frames[0]} and {frames[-1]} match ({control:.4f}): the check could not fail")
        for run in range(KILN_REPLAYS):
            result, shots = replay(capture, frames, kiln_icd, env, os.path.join(work, f"kiln{run}"))
            if result.returncode != 0:
                failures.append(f"replay {run} on Kiln exited {result.returncode}: {result.stderr[-1500:]}")
                continue
            for frame, path in shots.items():
                if not os.path.exists(path):
                    failures.append(f"replay {run} on Kiln: no screenshot of frame {frame}")
                    continue
                got = read_bmp(path)
                score = fraction_within(got, expected[frame], tolerance)
                print(f"replay {run}, frame {frame}: {score:.5f} of the pixels within {tolerance}/255 of lavapipe's")
                if score < match_fraction:
                    failures.append(f"replay {run}, frame {frame}: only {score:.5f} match")
                    os.makedirs(output_dir, exist_ok=True)
                    write_png(os.path.join(output_dir, f"gfxr-{name}-kiln{run}-frame{frame}.png"), got)
                    write_png(os.path.join(output_dir, f"gfxr-{name}-lavapipe-frame{frame}.png"), expected[frame])
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print(f"PASS: {KILN_REPLAYS} replays of {name} on Kiln give lavapipe's frames {frames} (control {control:.4f})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
