#!/usr/bin/env python3
"""ctest: a subset of piglit (Debian's piglit package) through Mesa's zink on Kiln, under a private
Xvfb: the OpenGL groups that exercise Kiln's tessellation, geometry and transform feedback stages
(GROUPS below). Every test must pass (not even skip) except those in piglit-expected-failures.txt, each listed
there with its reason; a listed test that passes is reported so the list can shrink.

Usage: piglit-on-zink.py <ICD json> <output dir> [--driver-name NAME]
Exit status: 0 all as expected, 1 otherwise, 77 when piglit is not installed (ctest: skipped).
docs/cts.md ("piglit through zink") has the counts on Kiln and on lavapipe."""
import bz2
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xvfb_server import start_xvfb  # noqa: E402

GROUPS = ["spec@arb_tessellation_shader", "spec@glsl-1.50", "spec@ext_transform_feedback",
          "spec@arb_transform_feedback2", "spec@arb_transform_feedback3"]
EXPECTED_FAILURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "piglit-expected-failures.txt")


def expected_failures():
    names = set()
    with open(EXPECTED_FAILURES) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                names.add(line.split(",")[0])
    return names


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    icd, out_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not shutil.which("piglit"):
        print("piglit is not installed (Debian package piglit)")
        return 77
    server, env = start_xvfb("320x240x24")
    try:
        environment = dict(os.environ, **env, VK_ICD_FILENAMES=icd, VK_DRIVER_FILES=icd, LIBGL_ALWAYS_SOFTWARE="1",
                           GALLIUM_DRIVER="zink")
        environment.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp())
        results = os.path.join(out_dir, "piglit-zink")
        shutil.rmtree(results, ignore_errors=True)
        os.makedirs(out_dir, exist_ok=True)
        command = ["piglit", "run", "quick_gl", results, "-p", "x11_egl", "-c", "-j", "2"]
        for group in GROUPS:
            command += ["-t", group]
        run = subprocess.run(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=1200)
        path = os.path.join(results, "results.json.bz2")
        if not os.path.exists(path):
            print(run.stdout[-3000:])
            print("piglit wrote no results")
            return 1
        tests = json.load(bz2.open(path))["tests"]
    finally:
        server.kill()
        server.wait()
    counts = {}
    for result in tests.values():
        counts[result["result"]] = counts.get(result["result"], 0) + 1
    allowed = expected_failures()
    # A skip is unexpected too: every test of these groups runs on Kiln (a broken set-up skips them all).
    unexpected = sorted(name for name, r in tests.items() if r["result"] != "pass" and name not in allowed)
    fixed = sorted(name for name in allowed if name in tests and tests[name]["result"] == "pass")
    print("piglit through zink: " + ", ".join("%s %d" % (k, v) for k, v in sorted(counts.items())) +
          " of %d tests (%s)" % (len(tests), ", ".join(GROUPS)))
    for name in unexpected:
        r = tests[name]
        print("UNEXPECTED %s: %s\n  %s\n  %s" % (r["result"], name, r.get("command", ""),
                                                 ((r.get("out") or "") + (r.get("err") or ""))[-600:].replace("\n", "\n  ")))
    for name in fixed:
        print("now passes (remove from %s): %s" % (os.path.basename(EXPECTED_FAILURES), name))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
