#!/usr/bin/env python3
"""A stand-in for deqp-vk that behaves like it where run-cts.py depends on it.

Like deqp-vk it reads --deqp-caselist-file (rejecting blank lines and duplicates), runs the tests
in hierarchy (sorted) order rather than list order, prints "Test case '<name>'.." / "  <Status>
(<details>)" and writes a flushed .qpa log to --deqp-log-filename. Unlike deqp-vk its stdout stays
block-buffered, so a crash loses the stdout lines: the runner must not need them.

What a test does depends on the first word of its last name component:
  pass*        Pass                    fail*          Fail
  warn*        QualityWarning          unsupported*   NotSupported
  internal*    InternalError           unknown*       not in the test tree: never runs
  crash*       os.abort() mid-test     hang*          sleeps mid-test until killed
  flaky*       Fail on its first run, Pass afterwards (state in $FAKE_DEQP_STATE_DIR)
Environment:
  FAKE_DEQP_RECORD      append one JSON line per invocation: argv, cwd, VK_ICD_FILENAMES, pid
  FAKE_DEQP_FAIL_START  exit(1) before running any test, as when instance creation fails
"""

import json
import os
import sys
import time
from pathlib import Path

STATUS_BY_KIND = {
    "pass": ("Pass", "Pass"),
    "fail": ("Fail", "Result comparison failed"),
    "warn": ("QualityWarning", "Low precision"),
    "unsupported": ("NotSupported", "Feature not supported"),
    "internal": ("InternalError", "Unexpected error"),
}


def option(name):
    prefix = f"--{name}="
    for arg in sys.argv[1:]:
        if arg.startswith(prefix):
            return arg[len(prefix):]
    sys.exit(f"fake deqp-vk: missing {prefix}")


def read_caselist(path):
    text = Path(path).read_text()
    names = text.split("\n")
    if "" in names:
        sys.exit("fake deqp-vk: Empty test case name")  # deqp's parser rejects blank lines too
    if len(set(names)) != len(names):
        sys.exit("fake deqp-vk: Duplicate test case")
    return names


def kind_of(test):
    last = test.rsplit(".", 1)[-1]
    for kind in ("pass", "fail", "warn", "unsupported", "internal", "unknown", "crash", "hang", "flaky"):
        if last.startswith(kind):
            return kind
    sys.exit(f"fake deqp-vk: no behaviour for {test}")


def first_run_of(test):
    marker = Path(os.environ["FAKE_DEQP_STATE_DIR"]) / test
    if marker.exists():
        return False
    marker.touch()
    return True


def main():
    record = os.environ.get("FAKE_DEQP_RECORD")
    if record:
        with open(record, "a") as out:
            out.write(json.dumps({"argv": sys.argv, "cwd": os.getcwd(),
                                  "icd": os.environ.get("VK_ICD_FILENAMES"),
                                  "pid": os.getpid()}) + "\n")
    tests = read_caselist(option("deqp-caselist-file"))
    if os.environ.get("FAKE_DEQP_FAIL_START"):
        print("Failed to create Vulkan instance", file=sys.stderr)
        return 1

    with open(option("deqp-log-filename"), "w") as qpa:
        def log(text):
            qpa.write(text)
            qpa.flush()

        log("#sessionInfo releaseName fake\n#beginSession\n")
        for test in sorted(tests):
            kind = kind_of(test)
            if kind == "unknown":
                continue
            print(f"\nTest case '{test}'..")
            log(f"\n#beginTestCaseResult {test}\n<?xml version=\"1.0\"?>\n"
                f"<TestCaseResult Version=\"0.3.4\" CasePath=\"{test}\" CaseType=\"SelfValidate\">\n"
                # Escaped like real test messages: must not be taken for the result.
                "<Text>&lt;Result StatusCode=&quot;Fail&quot;&gt;</Text>\n")
            if kind == "crash":
                os.abort()
            if kind == "hang":
                time.sleep(300)  # bounded, in case a broken runner never kills it
            if kind == "flaky":
                kind = "fail" if first_run_of(test) else "pass"
            code, details = STATUS_BY_KIND[kind]
            log(f"<Number Name=\"TestDuration\" Unit=\"us\">12</Number>\n"
                f"<Result StatusCode=\"{code}\">{details}</Result>\n</TestCaseResult>\n\n"
                "#endTestCaseResult\n")
            print(f"  {code} ({details})")
        log("\n#endSession\n")
    print("\nDONE!")
    return 0


if __name__ == "__main__":
    sys.exit(main())
