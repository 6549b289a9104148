"""Child processes of `pbem serve`: started fresh (spawn), named, kept
running, stopped. The web door (web_workers.py) and the outbox delivery
(mail/delivery_workers.py) each run in a few of them."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import logging
import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("pbem.serve")
SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads or locks forked
_PR_SET_NAME = 15  # prctl(2): the thread's name, which ps, top and /proc/PID/comm show


def name_this_process(name: str) -> None:
    """Show `name` (at most 15 bytes) for this process in ps and top, so a
    host tells a web process from a delivery process; where the system has
    no prctl, nothing changes."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_NAME, name.encode()[:15], 0, 0, 0)


def quieter_collector() -> None:
    """Fewer, cheaper pauses of the garbage collector in a long-running
    process of `pbem serve` (its main process, with the SMTP listener; each
    web process): what start-up made (modules, routes, the games' tables) is
    set aside for good (gc.freeze), and the youngest objects are collected
    after 20,000 allocations instead of 700, so a request or a mail is
    rarely paused by a collection, and an old-generation collection walks
    the caches less often. Measured with bench.load's moves (SQLite,
    interleaved runs): p99 about 210 ms against 265 ms before; on the main
    process, bench.load's burst of 200 mails (PostgreSQL, two pairs of
    runs): the last acknowledged after 1.08 and 1.31 s against 1.30 and
    1.36 s. Only for a whole process: the tests' own interpreter keeps
    Python's defaults."""
    gc.freeze()
    gc.set_threshold(20_000, 50, 1_000)


@dataclass
class ChildProcesses:
    """`count` processes running `target(*args_for(index))`, each named
    `name`; `args_for` is asked again for a process that replaces one."""

    name: str
    count: int
    target: Callable[..., None]
    args_for: Callable[[int], tuple[Any, ...]]
    processes: list[BaseProcess] = field(default_factory=list)

    def _start_one(self, index: int) -> BaseProcess:
        process = SPAWN.Process(target=self.target, args=self.args_for(index), name=self.name)
        process.start()
        return process

    def start(self) -> None:
        self.processes = [self._start_one(index) for index in range(self.count)]

    def keep_running(self) -> None:
        """Replace any process that died (a crash must not take its work down)."""
        for index, process in enumerate(self.processes):
            if not process.is_alive():
                log.error(
                    "%s process %s ended (exit %s); starting another",
                    self.name,
                    process.pid,
                    process.exitcode,
                )
                self.processes[index] = self._start_one(index)

    def stop(self, timeout: float, *, terminate: bool) -> None:
        """Wait for every process to end (after SIGTERM, with `terminate`),
        killing those still there after `timeout` seconds."""
        if terminate:
            for process in self.processes:
                if process.is_alive():
                    process.terminate()
        for process in self.processes:
            process.join(timeout)
            if process.is_alive():
                process.kill()
                process.join(5)
