#!/usr/bin/env python3
"""Runs Vulkan CTS (deqp-vk) test lists against Kiln and compares the results with expectations.

See docs/cts.md for the workflow. The last line printed is always the summary
`N passed, N failed, N skipped`.
"""

import argparse
import os
import re
import signal
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
from ctsrunner import expectations as exp
from ctsrunner.deqp import DeqpConfig
from ctsrunner.parallel import run_tests
from ctsrunner.results import FLAKE, SKIP, read_results_csv, summarize, write_results_csv

SCRIPT_DIR = Path(__file__).resolve().parent
DEFAULT_EXPECTATIONS = SCRIPT_DIR / "kiln"
# Characters deqp accepts in a case path (tcuTestCase.cpp); anything else (e.g. '*') is an error.
_TEST_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")

EXIT_OK = 0
EXIT_REGRESSIONS = 1
EXIT_USAGE = 2

HELP_EPILOG = """\
results (results.csv, Mesa deqp-runner names):
  Pass, Warn (deqp QualityWarning/CompatibilityWarning), Skip (deqp NotSupported, or matched by
  skips.txt), Fail (also deqp ResourceError/InternalError), Crash, Timeout, Missing (deqp-vk
  does not know the test), Flake (failed, then gave another result when run again).

summary line `N passed, N failed, N skipped`:
  passed counts Pass and Warn; skipped counts Skip; failed counts everything else, including
  expected failures and Flake.

exit status: 0 no regressions, 1 regressions (a failure not in fails.txt, or a different failure
  than fails.txt expects; flakes.txt matches excepted), 2 usage or set-up error. Unexpected passes
  are reported but do not fail the run. With --update-expectations the status is 0 once fails.txt
  is rewritten.

extra arguments after `--` are passed to deqp-vk unchanged.
"""


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Run a Vulkan CTS caselist with deqp-vk against Kiln, in parallel, with crash "
                    "isolation, and compare the results with the expectations files.",
        epilog=HELP_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deqp", type=Path, default=os.environ.get("KILN_DEQP_VK"),
                        help="deqp-vk binary (default: $KILN_DEQP_VK); it runs in its own directory")
    parser.add_argument("--caselist", type=Path, action="append", default=[],
                        help="file of test names, one per line ('#' comments allowed); repeatable")
    parser.add_argument("--output", type=Path, default=Path("cts-output"),
                        help="directory for results.csv and deqp logs (default: ./cts-output)")
    parser.add_argument("--expectations", type=Path, default=DEFAULT_EXPECTATIONS,
                        help="directory with fails.txt, skips.txt, flakes.txt "
                             f"(default: {DEFAULT_EXPECTATIONS})")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                        help="parallel deqp-vk processes (default: number of CPUs)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds one test may run before it is killed as Timeout (default: 60)")
    parser.add_argument("--batch-size", type=int, default=500,
                        help="tests per deqp-vk process before it is restarted (default: 500)")
    parser.add_argument("--icd", type=Path,
                        help="ICD manifest to test (sets VK_ICD_FILENAMES and VK_DRIVER_FILES; "
                             "default: inherit them from the environment)")
    parser.add_argument("--deqp-archive-dir", type=Path,
                        help="passed to deqp-vk as --deqp-archive-dir (its data files)")
    parser.add_argument("--no-flake-retry", action="store_true",
                        help="do not rerun unexpected failures to detect flakes")
    parser.add_argument("--progress-interval", type=float, default=5.0,
                        help="seconds between progress lines on stderr; 0 disables (default: 5)")
    parser.add_argument("--update-expectations", action="store_true",
                        help="rewrite fails.txt so that this run's failures become the baseline")
    parser.add_argument("--compare-only", type=Path, metavar="RESULTS_CSV",
                        help="run nothing: compare an existing results.csv with the expectations")
    parser.add_argument("deqp_args", nargs="*", metavar="-- DEQP_ARG",
                        help="extra deqp-vk arguments, after `--`")
    args = parser.parse_args(argv)
    if args.compare_only is None:
        if args.deqp is None:
            parser.error("no deqp-vk: pass --deqp or set KILN_DEQP_VK")
        if not args.caselist:
            parser.error("give at least one --caselist")
    elif args.caselist or args.deqp_args:
        parser.error("--compare-only runs nothing; it takes no --caselist or deqp arguments")
    if args.jobs < 1 or args.batch_size < 1 or args.timeout <= 0:
        parser.error("--jobs and --batch-size must be >= 1 and --timeout > 0")
    return args


def read_caselists(paths):
    """Test names from the caselist files, in order, without duplicates."""
    tests = {}
    for path in paths:
        for line_number, line in enumerate(path.read_text().splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if not _TEST_NAME.match(line):
                raise ValueError(f"{path}:{line_number}: {line!r} is not a test name "
                                 "(wildcards and group prefixes are not supported)")
            tests[line] = None
    return list(tests)


def deqp_config(args):
    binary = args.deqp.resolve()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        raise ValueError(f"deqp-vk binary {args.deqp} is not an executable file")
    env = dict(os.environ)
    if args.icd is not None:
        manifest = str(args.icd.resolve())
        # Newer loaders prefer VK_DRIVER_FILES, so set both to be sure Kiln is the one loaded.
        env["VK_ICD_FILENAMES"] = manifest
        env["VK_DRIVER_FILES"] = manifest
    log_dir = args.output.resolve() / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    archive_dir = args.deqp_archive_dir.resolve() if args.deqp_archive_dir else None
    return DeqpConfig(binary=binary, log_dir=log_dir, timeout=args.timeout, env=env,
                      archive_dir=archive_dir, extra_args=args.deqp_args)


def run(args, expectations):
    """Runs the caselists; returns {test: status} including the tests skips.txt excluded."""
    tests = read_caselists(args.caselist)
    config = deqp_config(args)
    results = {test: SKIP for test in tests if expectations.is_skipped(test)}
    to_run = [test for test in tests if test not in results]
    results.update(run_tests(config, to_run, args.jobs, args.batch_size, args.progress_interval))
    if not args.no_flake_retry:
        results.update(retry_unexpected_failures(args, config, results, expectations))
    write_results_csv(args.output / "results.csv", results)
    return results


def retry_unexpected_failures(args, config, results, expectations):
    """Reruns the would-be regressions once; a test whose result changes is a Flake."""
    suspects = [test for test, _, _ in exp.compare(results, expectations).regressions]
    if not suspects:
        return {}
    print(f"[run-cts] rerunning {len(suspects)} unexpected failure(s) to detect flakes",
          file=sys.stderr, flush=True)
    rerun = run_tests(config, suspects, args.jobs, args.batch_size, args.progress_interval,
                      label="retry")
    return {test: FLAKE for test in suspects if rerun[test] != results[test]}


def print_report(comparison):
    if comparison.regressions:
        print(f"Regressions ({len(comparison.regressions)}):")
        for test, actual, expected in comparison.regressions:
            print(f"  {test},{actual} (expected {expected or 'Pass'})")
    if comparison.unexpected_passes:
        print(f"Unexpected passes ({len(comparison.unexpected_passes)}), "
              "remove them from fails.txt or use --update-expectations:")
        for test, expected in comparison.unexpected_passes:
            print(f"  {test} (expected {expected})")
    if comparison.flakes:
        print(f"Flakes ({len(comparison.flakes)}):")
        for test, actual in comparison.flakes:
            print(f"  {test},{actual}")


def main(argv):
    args = parse_args(argv)
    try:
        expectations = exp.Expectations.load(args.expectations)
        if args.compare_only is not None:
            results = read_results_csv(args.compare_only)
        else:
            results = run(args, expectations)
    except (OSError, ValueError) as error:
        print(f"run-cts: {error}", file=sys.stderr)
        return EXIT_USAGE
    results = exp.apply_skips(results, expectations)
    comparison = exp.compare(results, expectations)
    print_report(comparison)
    if args.compare_only is None:
        print(f"Results: {args.output / 'results.csv'}, deqp logs: {args.output / 'logs'}")
    exit_code = EXIT_REGRESSIONS if comparison.has_regressions else EXIT_OK
    if args.update_expectations:
        fails_path = args.expectations / exp.FAILS_FILE
        args.expectations.mkdir(parents=True, exist_ok=True)
        exp.write_fails(fails_path, exp.updated_fails(expectations.fails, results, expectations))
        print(f"Updated {fails_path}")
        exit_code = EXIT_OK
    print(summarize(results).line())
    return exit_code


def _interrupt(signum, frame):
    raise KeyboardInterrupt()


if __name__ == "__main__":
    # deqp-vk runs in its own session (so Ctrl-C reaches only us, not the test being recorded);
    # a CI cancel (SIGTERM) must therefore go through the same path that kills those processes.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
