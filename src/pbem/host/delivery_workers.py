"""Outbox delivery in processes of its own, at a lower CPU priority.

Delivering a board mail is mostly drawing its picture and writing its MIME
parts: tens of milliseconds of Python and libvips per mail, which in the
main process would hold the interpreter the SMTP listener answers from, and
on a busy machine would take cores the web door needs. So `pbem serve`
delivers from `delivery_processes` child processes (one per CPU by
default), each `nice`d by DELIVERY_NICENESS, the lowest priority: when the
doors are busy they get the CPU first and the outbox waits; when they are
idle the outbox drains on every core (a nice value orders processes within
their scheduling group only: docs/operations.md). Each process claims its mails one at a time with a
lease (delivery.py), so they never send a mail twice.

The listener and the tick wake them when they queued mail, by a byte down a
pipe to each: unlike a shared lock or semaphore, a pipe cannot be left
locked by a process killed while it waited, and a dead reader costs the
writer nothing. Only the parent holds a pipe's writing end, so its end of
file means the parent is gone: the process waiting on it ends (it used to
find the pipe always ready and spin, a quarter of a core each). A process
also dies with its parent at once (processes.py); the pipe is the second
guard.
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

from ..settings import Settings
from .processes import SPAWN, ChildProcesses, name_this_process

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
        """Whether woken before `timeout`; raises SystemExit at the pipe's
        end of file: the parent, which alone writes to it, is gone."""
        self.waiting = True
        try:
            ready, _, _ = select.select([self.reader.fileno()], [], [], timeout)
            if ready:
                with contextlib.suppress(BlockingIOError):
                    if not os.read(self.reader.fileno(), 4096):  # (every wake-up so far)
                        log.warning("the parent process is gone: delivery process ends")
                        raise SystemExit(0)
        finally:
            self.waiting = False
        return bool(ready)

    def clear(self) -> None:
        """(wait() has taken the wake-ups already)"""


class Stopping:
    """Whether the parent or a SIGTERM asked this process to stop (delivery.StopSignal)."""

    def __init__(self, shared: Any) -> None:
        self.shared = shared  # a byte in shared memory, no lock: a kill cannot wedge it
        self.signalled = False

    def is_set(self) -> bool:
        return self.signalled or bool(self.shared.value)


def run_delivery(settings: Settings, url: str, stop_flag: Any, reader: Connection) -> None:
    """One delivery process: drain the outbox until stopped."""
    from ..mail.delivery import delivery_loop
    from ..server import utc_now
    from ..store import make_engine, session_factory
    from .logs import configure

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
    pipes: dict[int, tuple[Connection, Connection]] = field(default_factory=dict)
    children: ChildProcesses = field(init=False)

    def __post_init__(self) -> None:
        self.children = ChildProcesses("pbem-delivery", self.count, run_delivery, self._args)

    def _args(self, index: int) -> tuple[Any, ...]:
        """A new pipe for the `index`-th process (the one it replaces had
        its own): the process reads one end, set() writes the other."""
        for end in self.pipes.pop(index, ()):
            end.close()
        reader, writer = SPAWN.Pipe(duplex=False)
        os.set_blocking(writer.fileno(), False)
        self.pipes[index] = (reader, writer)
        return self.settings, self.url, self.stop_flag, reader

    def start(self) -> None:
        self.children.start()
        log.info("outgoing mail is delivered by %d processes", self.count)

    def set(self) -> None:
        """Wake every delivery process: mail was queued."""
        for _, writer in list(self.pipes.values()):
            with contextlib.suppress(BlockingIOError, BrokenPipeError):
                os.write(writer.fileno(), b"\0")  # (a full pipe is a wake-up already waiting)

    def keep_running(self) -> None:
        """Replace a process that died, with a pipe of its own."""
        if not self.stop_flag.value:
            self.children.keep_running()

    def stop(self, timeout: float = 30.0) -> None:
        """Let each process finish the mail in hand, then end it (a lease
        left behind by one killed only delays its mail)."""
        self.stop_flag.value = 1
        self.set()
        self.children.stop(timeout, terminate=False)
        for reader, writer in self.pipes.values():
            reader.close()
            writer.close()
        self.pipes.clear()
