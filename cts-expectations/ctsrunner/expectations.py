"""Expected results (Mesa deqp-runner formats) and the comparison of a run against them.

An expectations directory holds up to three files; a missing file means "nothing expected":
  fails.txt   `test,Status` lines, Status one of Fail, Crash, Timeout, Missing: known failures.
  skips.txt   one Python regex per line: matching tests are not run and count as Skip.
  flakes.txt  one Python regex per line: matching tests may fail without being a regression.
'#' starts a comment line in all three. Regexes are searched (unanchored) in the test name, as in
Mesa; write `^dEQP-VK\\.foo\\.bar$` to match one test exactly.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

from .results import FAILING, FLAKE, PASSING, SKIP

FAILS_FILE = "fails.txt"
SKIPS_FILE = "skips.txt"
FLAKES_FILE = "flakes.txt"

_FAILS_HEADER = """\
# Known CTS failures of Kiln: `test,Status` (Status: Fail, Crash, Timeout or Missing).
# Rewritten by `run-cts.py --update-expectations`; see docs/cts.md.
"""


def _content_lines(path):
    """Yields (line_number, stripped_line) for the non-blank, non-comment lines of `path`."""
    if not path.exists():
        return
    for line_number, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            yield line_number, line


def read_fails(path):
    fails = {}
    for line_number, line in _content_lines(Path(path)):
        test, sep, status = line.rpartition(",")
        if not sep or not test or status not in FAILING:
            raise ValueError(f"{path}:{line_number}: expected 'test,Status' with Status one of "
                             f"{', '.join(sorted(FAILING))}, got {line!r}")
        fails[test] = status
    return fails


def read_regexes(path):
    patterns = []
    for line_number, line in _content_lines(Path(path)):
        try:
            patterns.append(re.compile(line))
        except re.error as error:
            raise ValueError(f"{path}:{line_number}: bad regex {line!r}: {error}") from None
    return patterns


def write_fails(path, fails):
    lines = [f"{test},{fails[test]}\n" for test in sorted(fails)]
    Path(path).write_text(_FAILS_HEADER + "".join(lines))


@dataclass
class Expectations:
    fails: dict = field(default_factory=dict)
    skips: list = field(default_factory=list)
    flakes: list = field(default_factory=list)

    @classmethod
    def load(cls, directory):
        directory = Path(directory)
        return cls(fails=read_fails(directory / FAILS_FILE),
                   skips=read_regexes(directory / SKIPS_FILE),
                   flakes=read_regexes(directory / FLAKES_FILE))

    def is_skipped(self, test):
        return any(pattern.search(test) for pattern in self.skips)

    def is_flaky(self, test):
        return any(pattern.search(test) for pattern in self.flakes)


def apply_skips(results, expectations):
    """Results with every test matched by skips.txt counted as Skip, whatever it did."""
    return {test: SKIP if expectations.is_skipped(test) else status
            for test, status in results.items()}


@dataclass
class Comparison:
    regressions: list = field(default_factory=list)        # (test, actual, expected or None)
    unexpected_passes: list = field(default_factory=list)  # (test, expected)
    flakes: list = field(default_factory=list)             # (test, actual)

    @property
    def has_regressions(self):
        return bool(self.regressions)


def compare(results, expectations):
    """Classifies each result against the expectations (apply apply_skips() first)."""
    comparison = Comparison()
    for test in sorted(results):
        actual = results[test]
        expected = expectations.fails.get(test)
        if actual in PASSING:
            if expected is not None:
                comparison.unexpected_passes.append((test, expected))
        elif actual == FLAKE:
            comparison.flakes.append((test, actual))
        elif actual in FAILING and actual != expected:
            if expectations.is_flaky(test):
                comparison.flakes.append((test, actual))
            else:
                comparison.regressions.append((test, actual, expected))
    return comparison


def updated_fails(old_fails, results, expectations):
    """fails.txt content that makes `results` the baseline.

    Entries for tests outside this run are kept, so a run of one caselist does not forget the
    failures of another. Flaky tests are left to flakes.txt.
    """
    fails = {test: status for test, status in old_fails.items() if test not in results}
    for test, status in results.items():
        if status in FAILING and not expectations.is_flaky(test):
            fails[test] = status
    return fails
