"""Spreads a test list over parallel deqp-vk processes and reports progress.

The list is cut into batches that worker threads take from a shared queue, so a worker that drew
fast tests simply takes more batches (better balance than fixed shards when some groups are slow).
"""

import math
import queue
import sys
import threading
import time

from .deqp import Cancelled, run_batch
from .results import Summary


class _Progress:
    def __init__(self, total):
        self.total = total
        self.done = 0
        self.summary = Summary()
        self.results = {}
        self.lock = threading.Lock()

    def record(self, test, status):
        with self.lock:
            self.results[test] = status
            self.done += 1
            self.summary.add(status)

    def line(self, started_at):
        with self.lock:
            elapsed = int(time.monotonic() - started_at)
            return (f"[run-cts] {self.done}/{self.total} done ({self.summary.line()}), "
                    f"{elapsed // 60}m{elapsed % 60:02d}s")


def run_tests(config, tests, jobs, batch_size, progress_interval, label="batch"):
    """Runs `tests` over `jobs` deqp-vk processes; returns {test: status} for every test.

    Prints a progress line to stderr every `progress_interval` seconds (0 disables it).
    """
    tests = list(dict.fromkeys(tests))
    if not tests:
        return {}
    jobs = max(1, min(jobs, len(tests)))
    # Small lists still use every worker; large ones restart deqp-vk every batch_size tests.
    batch_size = max(1, min(batch_size, math.ceil(len(tests) / jobs)))
    batches = queue.Queue()
    for index, start in enumerate(range(0, len(tests), batch_size)):
        batches.put((f"{label}-{index:04d}", tests[start:start + batch_size]))

    progress = _Progress(len(tests))
    cancel_event = threading.Event()
    failures = []

    def worker(worker_id):
        try:
            while not cancel_event.is_set():
                try:
                    name, batch = batches.get_nowait()
                except queue.Empty:
                    return
                run_batch(config, name, batch, progress.record, cancel_event, worker_id)
        except Cancelled:
            pass
        except BaseException as error:  # surfaced in the main thread below
            failures.append(error)
            cancel_event.set()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(jobs)]
    started_at = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        next_report = started_at + progress_interval
        while any(thread.is_alive() for thread in threads):
            time.sleep(0.2)
            if progress_interval > 0 and time.monotonic() >= next_report:
                print(progress.line(started_at), file=sys.stderr, flush=True)
                next_report += progress_interval
    except KeyboardInterrupt:
        cancel_event.set()  # workers kill their deqp-vk (it runs in its own session)
        for thread in threads:
            thread.join()
        raise
    if failures:
        raise failures[0]
    return dict(progress.results)
