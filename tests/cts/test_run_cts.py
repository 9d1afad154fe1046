"""Tests of the CTS runner (cts-expectations/run-cts.py) and make-caselist.py.

Comparison is tested on recorded fixtures (fixtures/results.csv + fixtures/expectations/); running,
crash and timeout isolation on fake_deqp_vk.py, a stand-in for deqp-vk. Run with
`python3 -m unittest -v test_run_cts` from this directory, or `ctest -R cts`.
"""

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
CTS_DIR = HERE.parent.parent / "cts-expectations"
RUN_CTS = CTS_DIR / "run-cts.py"
MAKE_CASELIST = CTS_DIR / "make-caselist.py"
FIXTURES = HERE / "fixtures"

sys.dont_write_bytecode = True
sys.path.insert(0, str(CTS_DIR))
from ctsrunner.qpa import CaseFinished, CaseStarted, QpaFollower  # noqa: E402


def run_script(script, *args, env=None):
    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=120)


def section(stdout, title):
    """The indented lines under the report heading that starts with `title`."""
    lines = stdout.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(title):
            body = []
            for entry in lines[index + 1:]:
                if not entry.startswith("  "):
                    break
                body.append(entry.strip())
            return body
    return []


def make_temp_dir(test_case):
    path = Path(tempfile.mkdtemp(prefix="kiln-cts-test-"))
    test_case.addCleanup(shutil.rmtree, path)
    return path


class CompareOnlyTests(unittest.TestCase):
    """run-cts.py --compare-only on fixtures/results.csv against fixtures/expectations/."""

    def compare(self, results=FIXTURES / "results.csv", expectations=FIXTURES / "expectations",
                *extra):
        return run_script(RUN_CTS, "--compare-only", results, "--expectations", expectations, *extra)

    def test_regressions_fail_the_run(self):
        run = self.compare()
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertEqual(section(run.stdout, "Regressions"), [
            "dEQP-VK.api.expected_fail_now_crashes,Crash (expected Fail)",
            "dEQP-VK.api.new_fail,Fail (expected Pass)",
            "dEQP-VK.api.new_timeout,Timeout (expected Pass)",
        ])

    def test_unexpected_pass_is_reported(self):
        run = self.compare()
        self.assertEqual(section(run.stdout, "Unexpected passes"),
                         ["dEQP-VK.api.expected_fail_now_passes (expected Fail)"])

    def test_flake_regex_and_flake_status_are_not_regressions(self):
        run = self.compare()
        self.assertEqual(section(run.stdout, "Flakes"), [
            "dEQP-VK.memory.allocation.flaky_1,Fail",
            "dEQP-VK.synchronization.basic.retried,Flake",
        ])

    def test_skip_regex_hides_a_crash(self):
        run = self.compare()
        self.assertNotIn("dEQP-VK.wsi.surface.crashes", run.stdout)

    def test_summary_is_the_last_line(self):
        # passed: Pass x2 + Warn; skipped: NotSupported + the skips.txt match; failed: the other 7.
        run = self.compare()
        self.assertEqual(run.stdout.splitlines()[-1], "3 passed, 7 failed, 2 skipped")

    def test_only_unexpected_passes_exit_zero(self):
        results = make_temp_dir(self) / "results.csv"
        kept = [line for line in (FIXTURES / "results.csv").read_text().splitlines()
                if "new_" not in line and "now_crashes" not in line]
        results.write_text("\n".join(kept) + "\n")
        run = self.compare(results)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(section(run.stdout, "Regressions"), [])
        self.assertEqual(len(section(run.stdout, "Unexpected passes")), 1)
        self.assertEqual(run.stdout.splitlines()[-1], "3 passed, 4 failed, 2 skipped")

    def test_update_expectations_makes_the_run_the_baseline(self):
        expectations = make_temp_dir(self) / "expectations"
        shutil.copytree(FIXTURES / "expectations", expectations)
        run = self.compare(FIXTURES / "results.csv", expectations, "--update-expectations")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        fails = [line for line in (expectations / "fails.txt").read_text().splitlines()
                 if not line.startswith("#")]
        self.assertEqual(fails, [
            "dEQP-VK.api.expected_crash,Crash",
            "dEQP-VK.api.expected_fail,Fail",
            "dEQP-VK.api.expected_fail_now_crashes,Crash",
            "dEQP-VK.api.new_fail,Fail",
            "dEQP-VK.api.new_timeout,Timeout",
            "dEQP-VK.api.not_in_this_run,Timeout",  # not in this run: kept
        ])
        again = self.compare(FIXTURES / "results.csv", expectations)
        self.assertEqual(again.returncode, 0, again.stdout)
        self.assertEqual(section(again.stdout, "Unexpected passes"), [])

    def test_malformed_results_are_a_usage_error(self):
        results = make_temp_dir(self) / "results.csv"
        results.write_text("dEQP-VK.api.a,Passed\n")
        run = self.compare(results)
        self.assertEqual(run.returncode, 2)
        self.assertIn("results.csv:1", run.stderr)

    def test_malformed_fails_txt_is_a_usage_error(self):
        expectations = make_temp_dir(self)
        (expectations / "fails.txt").write_text("dEQP-VK.api.a,Pass\n")
        run = self.compare(FIXTURES / "results.csv", expectations)
        self.assertEqual(run.returncode, 2)
        self.assertIn("fails.txt:1", run.stderr)


class FakeDeqpRunTests(unittest.TestCase):
    """run-cts.py running fake_deqp_vk.py, installed as <tmp>/deqp-build/deqp-vk."""

    def setUp(self):
        self.tmp = make_temp_dir(self)
        self.deqp = self.tmp / "deqp-build" / "deqp-vk"
        self.deqp.parent.mkdir()
        shutil.copy(HERE / "fake_deqp_vk.py", self.deqp)
        self.deqp.chmod(self.deqp.stat().st_mode | stat.S_IXUSR)
        self.expectations = self.tmp / "expectations"
        self.expectations.mkdir()
        self.output = self.tmp / "out"
        self.record = self.tmp / "invocations.jsonl"
        state = self.tmp / "state"
        state.mkdir()
        self.env = dict(os.environ, FAKE_DEQP_STATE_DIR=str(state), FAKE_DEQP_RECORD=str(self.record))
        self.env.pop("KILN_DEQP_VK", None)

    def run_cts(self, tests, *extra, env=None, use_deqp_option=True):
        caselist = self.tmp / "caselist.txt"
        caselist.write_text("# comment lines and blank lines are allowed\n\n" + "\n".join(tests))
        deqp = ["--deqp", self.deqp] if use_deqp_option else []
        return run_script(RUN_CTS, *deqp, "--caselist", caselist, "--output", self.output,
                          "--expectations", self.expectations, "--progress-interval", "0",
                          *extra, env=env or self.env)

    def results(self):
        lines = (self.output / "results.csv").read_text().splitlines()
        return dict(line.rsplit(",", 1) for line in lines)

    def invocations(self):
        return [json.loads(line) for line in self.record.read_text().splitlines()]

    def test_crash_is_recorded_and_the_rest_still_runs(self):
        tests = ["dEQP-VK.c.pass_2", "dEQP-VK.a.pass_1", "dEQP-VK.b.crash_1", "dEQP-VK.c.fail_1",
                 "dEQP-VK.d.unsupported_1", "dEQP-VK.d.warn_1", "dEQP-VK.d.internal_1"]
        run = self.run_cts(tests, "--jobs", "1", "--no-flake-retry")
        self.assertEqual(self.results(), {
            "dEQP-VK.a.pass_1": "Pass", "dEQP-VK.b.crash_1": "Crash", "dEQP-VK.c.fail_1": "Fail",
            "dEQP-VK.c.pass_2": "Pass", "dEQP-VK.d.unsupported_1": "Skip",
            "dEQP-VK.d.warn_1": "Warn", "dEQP-VK.d.internal_1": "Fail"})
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stdout.splitlines()[-1], "3 passed, 3 failed, 1 skipped")
        # The fake runs tests sorted, like deqp: a.pass_1 passed, b.crash_1 killed the process;
        # the restart got exactly the tests that had not run.
        invocations = self.invocations()
        self.assertEqual(len(invocations), 2)
        resumed_list = next(arg.split("=", 1)[1] for arg in invocations[1]["argv"]
                            if arg.startswith("--deqp-caselist-file="))
        self.assertEqual(sorted(Path(resumed_list).read_text().split("\n")),
                         ["dEQP-VK.c.fail_1", "dEQP-VK.c.pass_2", "dEQP-VK.d.internal_1",
                          "dEQP-VK.d.unsupported_1", "dEQP-VK.d.warn_1"])

    def test_hang_is_a_timeout_and_the_rest_still_runs(self):
        run = self.run_cts(["dEQP-VK.a.pass_1", "dEQP-VK.b.hang_1", "dEQP-VK.c.pass_2"],
                           "--jobs", "1", "--timeout", "1", "--no-flake-retry")
        self.assertEqual(self.results(), {"dEQP-VK.a.pass_1": "Pass", "dEQP-VK.b.hang_1": "Timeout",
                                          "dEQP-VK.c.pass_2": "Pass"})
        self.assertEqual(run.returncode, 1)
        self.assertIn("dEQP-VK.b.hang_1,Timeout (expected Pass)", run.stdout)

    def test_expected_crash_is_not_a_regression(self):
        (self.expectations / "fails.txt").write_text("dEQP-VK.b.crash_1,Crash\n")
        run = self.run_cts(["dEQP-VK.a.pass_1", "dEQP-VK.b.crash_1"], "--jobs", "1")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(run.stdout.splitlines()[-1], "1 passed, 1 failed, 0 skipped")

    def test_retry_turns_flaky_failure_into_flake_but_keeps_repeatable_crash(self):
        run = self.run_cts(["dEQP-VK.a.flaky_1", "dEQP-VK.b.crash_1", "dEQP-VK.c.pass_1"])
        self.assertEqual(self.results(), {"dEQP-VK.a.flaky_1": "Flake", "dEQP-VK.b.crash_1": "Crash",
                                          "dEQP-VK.c.pass_1": "Pass"})
        self.assertEqual(section(run.stdout, "Regressions"),
                         ["dEQP-VK.b.crash_1,Crash (expected Pass)"])
        self.assertEqual(run.returncode, 1)

    def test_without_retry_a_flaky_failure_is_a_regression(self):
        run = self.run_cts(["dEQP-VK.a.flaky_1"], "--no-flake-retry")
        self.assertEqual(self.results(), {"dEQP-VK.a.flaky_1": "Fail"})
        self.assertEqual(run.returncode, 1)

    def test_flakes_txt_excuses_a_failure(self):
        (self.expectations / "flakes.txt").write_text(r"^dEQP-VK\.a\.fail_" + "\n")
        run = self.run_cts(["dEQP-VK.a.fail_1", "dEQP-VK.a.pass_1"])
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(section(run.stdout, "Flakes"), ["dEQP-VK.a.fail_1,Fail"])

    def test_skips_txt_tests_are_not_run(self):
        (self.expectations / "skips.txt").write_text("crash_\n")
        run = self.run_cts(["dEQP-VK.a.pass_1", "dEQP-VK.b.crash_1"], "--jobs", "1")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(self.results(), {"dEQP-VK.a.pass_1": "Pass", "dEQP-VK.b.crash_1": "Skip"})
        self.assertEqual(len(self.invocations()), 1)
        self.assertEqual(run.stdout.splitlines()[-1], "1 passed, 0 failed, 1 skipped")

    def test_tests_unknown_to_deqp_are_missing(self):
        run = self.run_cts(["dEQP-VK.a.pass_1", "dEQP-VK.b.unknown_1"], "--jobs", "1",
                           "--no-flake-retry")
        self.assertEqual(self.results(), {"dEQP-VK.a.pass_1": "Pass", "dEQP-VK.b.unknown_1": "Missing"})
        self.assertEqual(run.returncode, 1)

    def test_deqp_failing_at_start_up_crashes_every_test_once(self):
        env = dict(self.env, FAKE_DEQP_FAIL_START="1")
        run = self.run_cts(["dEQP-VK.a.pass_1", "dEQP-VK.a.pass_2"], "--jobs", "1",
                           "--no-flake-retry", env=env)
        self.assertEqual(self.results(), {"dEQP-VK.a.pass_1": "Crash", "dEQP-VK.a.pass_2": "Crash"})
        self.assertEqual(len(self.invocations()), 1)
        self.assertEqual(run.returncode, 1)

    def test_parallel_batches_cover_every_test_once(self):
        tests = [f"dEQP-VK.group{i % 3}.pass_{i}" for i in range(20)]
        run = self.run_cts(tests, "--jobs", "2", "--batch-size", "3")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(self.results(), dict.fromkeys(tests, "Pass"))
        self.assertEqual(len(self.invocations()), 7)  # ceil(20 / 3) batches
        self.assertEqual(run.stdout.splitlines()[-1], "20 passed, 0 failed, 0 skipped")

    def test_deqp_environment_working_directory_and_arguments(self):
        manifest = self.tmp / "kiln_icd.json"
        archive = self.tmp / "archive"
        env = dict(self.env, KILN_DEQP_VK=str(self.deqp))
        run = self.run_cts(["dEQP-VK.a.pass_1"], "--icd", manifest, "--deqp-archive-dir", archive,
                           "--", "--deqp-vk-device-id=2", env=env, use_deqp_option=False)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        [invocation] = self.invocations()
        self.assertEqual(invocation["cwd"], str(self.deqp.parent))
        self.assertEqual(invocation["icd"], str(manifest))
        self.assertIn(f"--deqp-archive-dir={archive}", invocation["argv"])
        self.assertIn("--deqp-vk-device-id=2", invocation["argv"])
        self.assertIn("--deqp-log-images=disable", invocation["argv"])

    def test_cancelled_run_leaves_no_deqp_running(self):
        caselist = self.tmp / "caselist.txt"
        caselist.write_text("dEQP-VK.a.hang_1")
        runner = subprocess.Popen([sys.executable, str(RUN_CTS), "--deqp", str(self.deqp),
                                   "--caselist", str(caselist), "--output", str(self.output),
                                   "--expectations", str(self.expectations)],
                                  env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not (self.output / "logs" / "batch-0000.1.qpa").exists():  # the hang has started
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)
        runner.send_signal(signal.SIGTERM)  # what a CI system sends when a job is cancelled
        self.assertEqual(runner.wait(timeout=30), 130)
        [invocation] = self.invocations()
        with self.assertRaises(ProcessLookupError):
            os.kill(invocation["pid"], 0)

    def test_wildcard_caselist_line_is_rejected(self):
        run = self.run_cts(["dEQP-VK.api.*"])
        self.assertEqual(run.returncode, 2)
        self.assertIn("not a test name", run.stderr)
        self.assertFalse(self.record.exists())


class QpaFollowerTests(unittest.TestCase):
    def test_events_arrive_only_for_complete_lines(self):
        qpa = make_temp_dir(self) / "log.qpa"
        follower = QpaFollower(qpa)
        self.assertEqual(follower.poll(), [])  # not created yet
        with open(qpa, "w") as log:
            log.write("#beginSession\n\n#beginTestCaseResult dEQP-VK.a.b\n<Result StatusCo")
            log.flush()
            self.assertEqual(follower.poll(), [CaseStarted("dEQP-VK.a.b")])
            self.assertEqual(follower.open_case, "dEQP-VK.a.b")
            log.write('de="NotSupported">x</Result>\n\n#endTestCaseRes')
            log.flush()
            self.assertEqual(follower.poll(), [])
            log.write("ult\n\n#beginTestCaseResult dEQP-VK.a.c\n#terminateTestCaseResult Timeout\n")
            log.flush()
            self.assertEqual(follower.poll(), [CaseFinished("dEQP-VK.a.b", "Skip"),
                                               CaseStarted("dEQP-VK.a.c"),
                                               CaseFinished("dEQP-VK.a.c", "Timeout")])
        self.assertIsNone(follower.open_case)


class MakeCaselistTests(unittest.TestCase):
    def setUp(self):
        self.tmp = make_temp_dir(self)
        (self.tmp / "vk-default").mkdir()
        (self.tmp / "vk-default" / "api.txt").write_text(
            "dEQP-VK.api.smoke.create_sampler\ndEQP-VK.api.smoke.triangle\n"
            "dEQP-VK.api.smokey.other\ndEQP-VK.api.info.format\n")
        (self.tmp / "vk-default" / "info.txt").write_text("dEQP-VK.info.build\ndEQP-VK.info.device\n")
        (self.tmp / "vk-default.txt").write_text("vk-default/info.txt\nvk-default/api.txt\n")

    def test_index_file_is_followed_and_groups_filtered(self):
        run = run_script(MAKE_CASELIST, self.tmp / "vk-default.txt",
                         "-p", "dEQP-VK.api.smoke.*", "dEQP-VK.info.")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.splitlines(), [
            "dEQP-VK.info.build", "dEQP-VK.info.device",
            "dEQP-VK.api.smoke.create_sampler", "dEQP-VK.api.smoke.triangle"])

    def test_deqp_txt_caselist_dump_is_accepted(self):
        dump = self.tmp / "dEQP-VK-cases.txt"
        dump.write_text("GROUP: dEQP-VK\nGROUP: dEQP-VK.info\nTEST: dEQP-VK.info.build\n"
                        "GROUP: dEQP-VK.api\nTEST: dEQP-VK.api.info.format\n")
        output = self.tmp / "out.txt"
        run = run_script(MAKE_CASELIST, dump, "-p", "dEQP-VK.api.info", "-o", output)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(output.read_text(), "dEQP-VK.api.info.format\n")

    def test_exclusion_globs_apply_like_the_mustpass(self):
        exclusions = self.tmp / "android-tests.txt"
        exclusions.write_text("# Android only\ndEQP-VK.api.smoke.create_*\n")
        run = run_script(MAKE_CASELIST, self.tmp / "vk-default.txt", "-p", "dEQP-VK.api.smoke",
                         "-x", exclusions)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.splitlines(), ["dEQP-VK.api.smoke.triangle"])

    def test_group_without_tests_is_an_error(self):
        run = run_script(MAKE_CASELIST, self.tmp / "vk-default.txt", "-p", "dEQP-VK.info",
                         "dEQP-VK.synchronization.basic")
        self.assertEqual(run.returncode, 1)
        self.assertEqual(run.stdout, "")
        self.assertIn("dEQP-VK.synchronization.basic", run.stderr)

    def test_missing_listed_file_is_reported(self):
        (self.tmp / "vk-default.txt").write_text("vk-default/image.txt\n")
        run = run_script(MAKE_CASELIST, self.tmp / "vk-default.txt", "-p", "dEQP-VK.image")
        self.assertEqual(run.returncode, 2)
        self.assertIn("image.txt does not exist", run.stderr)


if __name__ == "__main__":
    unittest.main()
