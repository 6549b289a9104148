"""Child processes of `pbem serve`: started fresh (spawn), named, kept
running, stopped, and ended with it. The web door (web_workers.py) and the
outbox delivery (delivery_workers.py) each run in a few of them, the bots'
searches in one or more (bots/worker.py, given SPAWN by serve.py).

Every process started by SPAWN dies with the process that started it,
however that one ends (kill -9 included): the kernel sends it SIGKILL
(prctl's parent-death signal, `die_with_parent`). Left running, an orphaned
web process kept the web port, so a restart could not listen on it."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import logging
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.context import SpawnContext, SpawnProcess
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("pbem.serve")
_PR_SET_NAME = 15  # prctl(2): the thread's name, which ps, top and /proc/PID/comm show
_PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies
WATCH_SECONDS = 0.5  # how often a process without prctl looks whether its parent is gone


def name_this_process(name: str) -> None:
    """Show `name` (at most 15 bytes) for this process in ps and top, so a
    host tells a web process from a delivery process; where the system has
    no prctl, nothing changes."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        _libc().prctl(_PR_SET_NAME, name.encode()[:15], 0, 0, 0)


@functools.cache
def _libc() -> Any:
    """The C library (this program's own symbols: no search, no ldconfig run)."""
    return ctypes.CDLL(None, use_errno=True)


def die_with_parent(parent: int) -> None:
    """End this process (SIGKILL) as soon as process `parent`, which started
    it, is gone, however it ended. The kernel sends the signal when the
    *thread* that started this process ends, so SPAWN starts processes from
    threads that last as long as their process (`_from_a_lasting_thread`).
    A parent already gone before this was set is seen by its pid: this
    process has been given another parent. Where there is no prctl, a
    thread looks at the parent every WATCH_SECONDS instead."""
    try:
        libc = _libc()
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    except (OSError, AttributeError, TypeError):
        threading.Thread(
            target=_watch_parent, args=(parent,), name="parent-watch", daemon=True
        ).start()
    if os.getppid() != parent:  # gone while this process started
        os.kill(os.getpid(), signal.SIGKILL)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)


_starts: queue.SimpleQueue[tuple[Callable[[], None], Future[None]]] = queue.SimpleQueue()
_starter: threading.Thread | None = None
_starter_lock = threading.Lock()


def _from_a_lasting_thread(start: Callable[[], None]) -> None:
    """Run `start` (a process's start) in the main thread or in one thread
    kept for starting processes, never in a thread that may end before the
    process does: the parent-death signal would end the child with it (the
    bots' searches are started from the bot worker's threads)."""
    global _starter
    current = threading.current_thread()
    if current is threading.main_thread() or current is _starter:
        start()
        return
    with _starter_lock:
        if _starter is None or not _starter.is_alive():
            _starter = threading.Thread(target=_start_forever, name="process-starter", daemon=True)
            _starter.start()
    done: Future[None] = Future()
    _starts.put((start, done))
    done.result()


def _start_forever() -> None:
    while True:
        start, done = _starts.get()
        try:
            start()
        except BaseException as error:  # (the caller raises it)
            done.set_exception(error)
        else:
            done.set_result(None)


class DyingProcess(SpawnProcess):
    """A spawned process that dies with the process that started it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.started_by = os.getpid()

    def start(self) -> None:
        _from_a_lasting_thread(super().start)

    def run(self) -> None:
        die_with_parent(self.started_by)
        super().run()


class DyingSpawnContext(SpawnContext):
    """multiprocessing's spawn context (a fresh interpreter: no threads or
    locks forked), whose processes die with their parent."""

    Process = DyingProcess


SPAWN = DyingSpawnContext()


def quieter_collector() -> None:
    """Fewer, cheaper pauses of the garbage collector in a long-running
    process of `pbem serve` (its main process, with the SMTP listener; each
    web process): what start-up made (modules, routes, the games' tables) is
    set aside for good (gc.freeze), and the youngest objects are collected
    after 20,000 allocations instead of 700, so a request or a mail is
    rarely paused by a collection, and an old-generation collection walks
    the caches less often (docs/performance.md has the figures). Only for
    a whole process: the tests' own interpreter keeps
    Python's defaults."""
    gc.freeze()
    gc.set_threshold(20_000, 50, 1_000)


@dataclass
class ChildProcesses:
    """`count` processes running `target(*args_for(index))`, each named
    `name`; `args_for` is asked again for a process that replaces one. Each
    dies with this process (SPAWN)."""

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
