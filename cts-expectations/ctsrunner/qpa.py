"""Follows a deqp .qpa log while deqp-vk writes it.

The .qpa log, not stdout, is the runner's source of truth: it carries deqp's exact StatusCode, and
deqp-vk flushes it when a test starts and when it ends (--deqp-log-flush=enable), so it is complete
up to the moment of a crash. A test whose `#beginTestCaseResult` has no matching end is therefore the
one that was running when deqp-vk died.

Log shape (framework/qphelper/qpTestLog.c):
    #beginTestCaseResult dEQP-VK.info.build
    <?xml ...?><TestCaseResult ...> ... <Result StatusCode="Pass">Details</Result></TestCaseResult>
    #endTestCaseResult
and, when deqp's own crash handler or watchdog fires:
    #terminateTestCaseResult Crash
"""

import re
from dataclasses import dataclass
from typing import Optional

from .results import from_deqp_status

_STATUS_CODE = re.compile(r'<Result StatusCode="([A-Za-z]+)"')


@dataclass
class CaseStarted:
    test: str


@dataclass
class CaseFinished:
    test: str
    status: str  # a runner status (results.py), already mapped from deqp's StatusCode


class QpaFollower:
    """Reads the part of a growing .qpa file written since the last poll() and turns it into events."""

    def __init__(self, path):
        self._path = path
        self._offset = 0
        self._partial_line = b""
        self._open_case: Optional[str] = None
        self._open_case_code: Optional[str] = None

    @property
    def open_case(self):
        """The test that has started and not yet finished, if any."""
        return self._open_case

    def poll(self):
        try:
            with open(self._path, "rb") as log:
                log.seek(self._offset)
                data = log.read()
        except FileNotFoundError:
            return []  # deqp-vk has not created the log yet
        self._offset += len(data)
        lines = (self._partial_line + data).split(b"\n")
        self._partial_line = lines.pop()  # incomplete until its newline arrives
        events = []
        for raw_line in lines:
            event = self._consume(raw_line.decode("utf-8", errors="replace"))
            if event is not None:
                events.append(event)
        return events

    def _consume(self, line):
        if line.startswith("#beginTestCaseResult "):
            self._open_case = line[len("#beginTestCaseResult "):].strip()
            self._open_case_code = None
            return CaseStarted(self._open_case)
        if self._open_case is None:
            return None
        if line.startswith("#endTestCaseResult"):
            return self._finish(from_deqp_status(self._open_case_code))
        if line.startswith("#terminateTestCaseResult"):
            words = line.split()
            return self._finish(from_deqp_status(words[1] if len(words) > 1 else "Crash"))
        # Test messages are XML-escaped, so only deqp's own <Result> element can match here.
        match = _STATUS_CODE.search(line)
        if match:
            self._open_case_code = match.group(1)
        return None

    def _finish(self, status):
        event = CaseFinished(self._open_case, status)
        self._open_case = None
        self._open_case_code = None
        return event
