"""Runs one batch of tests through deqp-vk, surviving crashes and hangs.

deqp-vk runs a whole case list in one process, so one crashing test would take the rest of the
list with it. run_batch() therefore restarts deqp-vk on the tests that have no result yet until
every test of the batch has one: the test that was open in the .qpa log when the process died is
recorded as Crash (or Timeout when we killed it for running too long).
"""

import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from .qpa import CaseFinished, QpaFollower
from .results import CRASH, MISSING, TIMEOUT

_POLL_SECONDS = 0.05


@dataclass
class DeqpConfig:
    binary: Path                  # deqp-vk; it runs with its own directory as cwd to find its data
    log_dir: Path                 # receives each attempt's case list, .qpa log and console output
    timeout: float                # seconds one test may run before it is killed and called Timeout
    env: dict                     # environment for deqp-vk (VK_ICD_FILENAMES etc.)
    archive_dir: Optional[Path] = None
    extra_args: list = field(default_factory=list)


class Cancelled(Exception):
    """The run was interrupted (Ctrl-C); the running deqp-vk has been killed."""


def _deqp_command(config, case_list, qpa_log, shader_cache):
    command = [
        str(config.binary),
        f"--deqp-caselist-file={case_list}",
        f"--deqp-log-filename={qpa_log}",
        "--deqp-log-flush=enable",          # the crash detection relies on it (see qpa.py)
        "--deqp-log-images=disable",
        "--deqp-log-shader-sources=disable",
        # Parallel deqp-vk processes must not share the default ./shadercache.bin.
        f"--deqp-shadercache-filename={shader_cache}",
    ]
    if config.archive_dir is not None:
        command.append(f"--deqp-archive-dir={config.archive_dir}")
    return command + list(config.extra_args)


def _kill(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)  # its own session: takes any children along
    except ProcessLookupError:
        pass
    process.wait()


def run_batch(config, batch_name, tests, record: Callable[[str, str], None], cancel_event, worker_id):
    """Runs `tests` (names) until each has been passed to record(test, status) exactly once."""
    remaining = list(dict.fromkeys(tests))
    attempt = 0
    while remaining:
        attempt += 1
        stem = f"{batch_name}.{attempt}"
        case_list = config.log_dir / f"{stem}.caselist.txt"
        # One name per line and nothing else: deqp's list parser rejects empty lines.
        case_list.write_text("\n".join(remaining))
        qpa_log = config.log_dir / f"{stem}.qpa"
        console_log = config.log_dir / f"{stem}.log"
        command = _deqp_command(config, case_list, qpa_log,
                                config.log_dir / f"shadercache-{worker_id}.bin")
        finished, open_case, killed_for_timeout, exit_code = _run_attempt(
            config, command, console_log, qpa_log, cancel_event)

        pending = set(remaining)
        for test, status in finished:
            if test in pending:  # ignore anything deqp-vk ran that we did not ask for
                pending.discard(test)
                record(test, status)
        if open_case in pending:
            pending.discard(open_case)
            record(open_case, TIMEOUT if killed_for_timeout else CRASH)
        elif len(pending) == len(remaining):
            # No test started or finished: deqp-vk cannot run these tests at all. A clean exit means
            # it does not know their names; otherwise it failed during start-up (see console_log).
            if exit_code == 0:
                status = MISSING
            else:
                status = TIMEOUT if killed_for_timeout else CRASH
            for test in remaining:
                record(test, status)
            pending.clear()
        remaining = [test for test in remaining if test in pending]


def _run_attempt(config, command, console_log, qpa_log, cancel_event):
    """One deqp-vk process. Returns (finished [(test, status)], open_case, killed_for_timeout, exit_code)."""
    follower = QpaFollower(qpa_log)
    finished = []
    with open(console_log, "wb") as console:
        process = subprocess.Popen(command, cwd=config.binary.parent, env=config.env,
                                   stdin=subprocess.DEVNULL, stdout=console,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        # A hang outside any test (start-up, teardown) is bounded by the same timeout.
        last_progress = time.monotonic()
        killed_for_timeout = False
        while True:
            exit_code = process.poll()
            # Read the log after process.poll(): if it has exited, all it wrote is visible now.
            for event in follower.poll():
                # Each started or finished test restarts the clock, so the timeout is per test.
                last_progress = time.monotonic()
                if isinstance(event, CaseFinished):
                    finished.append((event.test, event.status))
            if exit_code is not None:
                break
            if cancel_event.is_set():
                _kill(process)
                raise Cancelled()
            if time.monotonic() - last_progress > config.timeout:
                _kill(process)
                killed_for_timeout = True
                exit_code = process.returncode
                break
            time.sleep(_POLL_SECONDS)
    return finished, follower.open_case, killed_for_timeout, exit_code
