"""Outbox delivery in processes of its own, at a lower CPU priority.

Delivering a board mail is mostly drawing its picture and writing its MIME
parts: tens of milliseconds of Python and libvips per mail, which in the
main process would hold the interpreter the SMTP listener answers from, and
on a busy machine would take cores the web door needs. So `pbem serve`
delivers from `delivery_processes` child processes (one per CPU by
default), each `nice`d by DELIVERY_NICENESS (the most): when the doors are busy they
get the CPU first and the outbox waits; when they are idle the outbox
drains on every core. Each process claims its mails one at a time with a
lease (delivery.py), so they never send a mail twice.

The listener and the tick wake them when they queued mail, by a byte down a
pipe to each: unlike a shared lock or semaphore, a pipe cannot be left
locked by a process killed while it waited, and a dead reader costs the
writer nothing.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ..processes import SPAWN, ChildProcesses, name_this_process
from ..settings import Settings

log = logging.getLogger("pbem.serve")
DELIVERY_NICENESS = 19  # the doors' work wins the CPU; the outbox takes what is left


def process_count(setting: int) -> int:
    """How many delivery processes `delivery_processes` asks for: 0 means
    one per CPU this process may use (at most 4)."""
    if setting > 0:
        return setting
    return max(1, min(4, len(os.sched_getaffinity(0))))


class PipeWake:
    """A delivery process's end of its wake-up pipe (delivery.Wake)."""

    def __init__(self, reader: Connection) -> None:
        self.reader = reader
        self.waiting = False  # in wait(): SIGTERM may end the process at once

    def wait(self, timeout: float | None = None) -> bool:
        self.waiting = True
        try:
            ready, _, _ = select.select([self.reader.fileno()], [], [], timeout)
        finally:
            self.waiting = False
        if ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self.reader.fileno(), 4096)  # every wake-up so far is taken
        return bool(ready)

    def clear(self) -> None:
        """(wait() has taken the wake-ups already)"""


class Stopping:
    """Whether the parent or a SIGTERM asked this process to stop (delivery.Stop)."""

    def __init__(self, shared: Any) -> None:
        self.shared = shared  # a byte in shared memory, no lock: a kill cannot wedge it
        self.signalled = False

    def is_set(self) -> bool:
        return self.signalled or bool(self.shared.value)


def run_delivery(settings: Settings, url: str, stop_flag: Any, reader: Connection) -> None:
    """One delivery process: drain the outbox until stopped."""
    from ..logs import configure
    from ..server.service import utc_now
    from ..store import make_engine, session_factory
    from .delivery import delivery_loop

    name_this_process("pbem-delivery")
    with contextlib.suppress(OSError):
        os.nice(DELIVERY_NICENESS)
    wake, stop = PipeWake(reader), Stopping(stop_flag)

    def on_sigterm(_number: int, _frame: object) -> None:
        stop.signalled = True
        if wake.waiting:  # nothing in hand: go now
            raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_sigterm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent stops us, after the doors
    configure()
    engine = make_engine(url)
    try:
        delivery_loop(session_factory(engine), settings, stop, wake, utc_now)
    finally:
        engine.dispose()


@dataclass
class DeliveryWorkers:
    """The delivery processes, started, woken, kept running and stopped by
    `pbem serve`; `set()` wakes them all (delivery.Nudge)."""

    settings: Settings
    url: str
    count: int
    stop_flag: Any = field(default_factory=lambda: SPAWN.RawValue("b", 0))
    writers: list[int] = field(default_factory=list)  # the pipes' ends we write to
    children: list[ChildProcesses] = field(default_factory=list)

    def _child(self) -> tuple[ChildProcesses, int]:
        """A new delivery process, and the end of its pipe we write to."""
        reader, writer = SPAWN.Pipe(duplex=False)
        os.set_blocking(writer.fileno(), False)  # (the flag belongs to the pipe, not the fd)
        child = ChildProcesses(
            "pbem-delivery", 1, run_delivery, (self.settings, self.url, self.stop_flag, reader)
        )
        child.start()
        reader.close()  # (the child has its own copy)
        ours = os.dup(writer.fileno())
        writer.close()
        return child, ours

    def start(self) -> None:
        started = [self._child() for _ in range(self.count)]
        self.children = [child for child, _ in started]
        self.writers = [writer for _, writer in started]
        log.info("outgoing mail is delivered by %d processes", self.count)

    def set(self) -> None:
        """Wake every delivery process: mail was queued."""
        for writer in self.writers:
            with contextlib.suppress(BlockingIOError, BrokenPipeError):
                os.write(writer, b"\0")  # (a full pipe is a wake-up already waiting)

    def keep_running(self) -> None:
        """Replace a process that died, with a pipe of its own."""
        if self.stop_flag.value:
            return
        for index, child in enumerate(self.children):
            if not child.processes[0].is_alive():
                log.error(
                    "delivery process %s ended (exit %s); starting another",
                    child.processes[0].pid,
                    child.processes[0].exitcode,
                )
                os.close(self.writers[index])
                self.children[index], self.writers[index] = self._child()

    def stop(self, timeout: float = 30.0) -> None:
        """Let each process finish the mail in hand, then end it (a lease
        left behind by one killed only delays its mail)."""
        self.stop_flag.value = 1
        self.set()
        for child in self.children:
            child.stop(timeout, terminate=False)
        for writer in self.writers:
            os.close(writer)
        self.writers.clear()
