"""The programs a test starts (`pbem serve`, `pbem receive`, a helper
interpreter, openssl): each in a process group of its own, so that the test
signals and counts only what it started, and whatever is still running
when the test ends is killed, group and all (a server's children too).

A test that takes the `processes` fixture is tiered `subprocess`
(tests/conftest.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Command = Sequence[str | Path]


class Processes:
    """Starts programs for one test and ends them with it."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[Any]] = []

    def env(self, **settings: str) -> dict[str, str]:
        """The tests' environment (no PBEM_ setting of the host's: see
        tests/conftest.py) with these PBEM_ settings: `web_port="8100"` is
        PBEM_WEB_PORT=8100."""
        return os.environ | {f"PBEM_{name.upper()}": value for name, value in settings.items()}

    def start(self, command: Command, **options: Any) -> subprocess.Popen[Any]:
        """`command` started in a session of its own (Popen's options)."""
        options.setdefault("env", self.env())
        process = subprocess.Popen(list(command), start_new_session=True, **options)
        self.started.append(process)
        return process

    def run(
        self, command: Command, *, timeout: float = 300, input: Any = None, **options: Any
    ) -> subprocess.CompletedProcess[Any]:
        """`command` run to its end, as subprocess.run (output captured unless
        told otherwise); past `timeout` its whole group is killed."""
        if input is not None:
            options["stdin"] = subprocess.PIPE
        if "stdout" not in options and "stderr" not in options:
            options["stdout"] = options["stderr"] = subprocess.PIPE
        check = options.pop("check", False)
        process = self.start(command, **options)
        try:
            out, err = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill(process)
            raise
        done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
        if check:
            done.check_returncode()
        return done

    def signal(self, process: subprocess.Popen[Any], number: int = signal.SIGTERM) -> None:
        """Send `number` to `process`'s group: the program and what it started."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, number)

    def kill(self, process: subprocess.Popen[Any]) -> None:
        """SIGKILL to the group, and wait for the program."""
        self.signal(process, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(30)

    def close(self) -> None:
        """Kill every group this test started that still has a process (the
        program may have ended and left children behind)."""
        for process in self.started:
            self.kill(process)
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
