"""Result statuses of a CTS run and the results.csv file that records them.

The status names follow Mesa's deqp-runner so that people used to Mesa CI read Kiln's results
without a glossary. results.csv holds one `test,Status` line per test, sorted by test name.
"""

from dataclasses import dataclass
from pathlib import Path

PASS = "Pass"
WARN = "Warn"          # deqp QualityWarning / CompatibilityWarning: the test passed with a remark
SKIP = "Skip"          # deqp NotSupported / Waiver, or matched by skips.txt
FAIL = "Fail"
CRASH = "Crash"        # deqp-vk died while this test was running
TIMEOUT = "Timeout"    # the test ran longer than the per-test timeout and was killed
MISSING = "Missing"    # deqp-vk exited normally without running the test (name unknown to it)
FLAKE = "Flake"        # failed, then gave a different result when run again

ALL_STATUSES = (PASS, WARN, SKIP, FAIL, CRASH, TIMEOUT, MISSING, FLAKE)
PASSING = frozenset({PASS, WARN})
# The statuses fails.txt may expect: a definite failure that repeats.
FAILING = frozenset({FAIL, CRASH, TIMEOUT, MISSING})

# deqp's qpTestResult names (framework/qphelper/qpTestLog.c) -> our statuses.
_FROM_DEQP = {
    "Pass": PASS,
    "QualityWarning": WARN,
    "CompatibilityWarning": WARN,
    "NotSupported": SKIP,
    "Waiver": SKIP,
    "Fail": FAIL,
    "ResourceError": FAIL,
    "InternalError": FAIL,
    "Crash": CRASH,
    "Timeout": TIMEOUT,
}


def from_deqp_status(code):
    """Maps a deqp StatusCode to a runner status; anything unknown (or absent) is a Fail."""
    return _FROM_DEQP.get(code, FAIL)


def read_results_csv(path):
    """Returns {test: status} from a results.csv; raises ValueError naming the bad line."""
    results = {}
    for line_number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        test, sep, status = line.rpartition(",")
        if not sep or not test or status not in ALL_STATUSES:
            raise ValueError(f"{path}:{line_number}: expected 'test,Status' with Status one of "
                             f"{', '.join(ALL_STATUSES)}, got {line!r}")
        results[test] = status
    return results


def write_results_csv(path, results):
    lines = [f"{test},{results[test]}\n" for test in sorted(results)]
    Path(path).write_text("".join(lines))


@dataclass
class Summary:
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    def add(self, status):
        if status in PASSING:
            self.passed += 1
        elif status == SKIP:
            self.skipped += 1
        else:
            self.failed += 1

    def line(self):
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


def summarize(results):
    summary = Summary()
    for status in results.values():
        summary.add(status)
    return summary
