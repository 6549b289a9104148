"""The web processes take their shared socket's connections by load
(web_accept.py): the one holding fewest takes the next; a partner that
never takes one delays a connection by GRACE at most; a stopped acceptor
takes none; running out of files pauses accepting instead of failing; a
process holding two more than another lets one go, one at a time."""

from __future__ import annotations

import array
import asyncio
import errno
import logging
import resource
import socket
import threading
import time
from collections.abc import Callable

import pytest

from pbem.host import web_accept
from pbem.host.web_accept import GRACE, NOT_TAKING, SHED_PAUSE, FairAcceptor, Loads, shared_loads


class Held(asyncio.Protocol):
    """A connection, counted among `into` while it is open."""

    def __init__(self, into: set[Held]) -> None:
        self.into = into

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.into.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.into.discard(self)


def listener(kind: type[socket.socket] = socket.socket) -> socket.socket:
    sock = kind(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def acceptor(sock: socket.socket, loads: Loads, index: int) -> tuple[FairAcceptor, set[Held]]:
    held: set[Held] = set()
    taker = FairAcceptor(sock, loads, index, lambda: Held(held), lambda: len(held))
    taker.start()
    return taker, held


async def connect(sock: socket.socket, count: int) -> list[asyncio.StreamWriter]:
    port = sock.getsockname()[1]
    opened = [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]
    return [writer for _reader, writer in opened]


async def until(predicate: Callable[[], bool], seconds: float = 10) -> float:
    start = time.monotonic()
    while not predicate():
        assert time.monotonic() - start < seconds, "gave up waiting"
        await asyncio.sleep(0.005)
    return time.monotonic() - start


class Process(threading.Thread):
    """A web process's acceptor on a loop of its own (a thread stands in
    for the process: a loop watches a socket with one reader only)."""

    def __init__(self, sock: socket.socket, loads: Loads, index: int) -> None:
        super().__init__(daemon=True)
        self.sock, self.loads, self.index = sock, loads, index
        self.held: set[Held] = set()
        self.done = threading.Event()

    def run(self) -> None:
        async def serve() -> None:
            taker, self.held = acceptor(self.sock, self.loads, self.index)
            while not self.done.is_set():
                await asyncio.sleep(0.01)
            taker.stop()

        asyncio.run(serve())


async def taken(sock: socket.socket, loads: list[int], count: int) -> float:
    """Seconds from the first connection until process 0, among processes of
    `loads`, holds `count` connections opened at once on `sock` (then
    closed); the clock starts before the first is opened, since the process
    may be taking (and waiting) while the others are still being opened."""
    with sock:
        taker, held = acceptor(sock, array.array("i", loads), 0)
        start = time.monotonic()
        writers = await connect(sock, count)
        await until(lambda: len(held) == count)
        took = time.monotonic() - start
        taker.stop()
        for writer in writers:
            writer.close()
        return took


def test_two_processes_take_turns() -> None:
    """32 connections arriving together split 16 to 16 (the kernel's hash
    split them 20 to 12 as often as not)."""
    with listener() as sock:
        loads = shared_loads(2)  # (what pbem serve hands its web processes)
        assert [loads[i] for i in range(len(loads))] == [NOT_TAKING, NOT_TAKING]  # none started yet
        processes = [Process(sock, loads, 0), Process(sock, loads, 1)]
        for process in processes:
            process.start()
        deadline = time.monotonic() + 10  # both taking before any arrives (a busy machine
        while NOT_TAKING in loads:  # may start one thread late; the other takes all then)
            assert time.monotonic() < deadline, "an acceptor never started"
            time.sleep(0.01)
        clients = [socket.create_connection(sock.getsockname()) for _ in range(32)]
        try:
            deadline = time.monotonic() + 10
            while sum(len(process.held) for process in processes) < 32:
                assert time.monotonic() < deadline, [len(p.held) for p in processes]
                time.sleep(0.01)
            time.sleep(web_accept.REFRESH * 3)
            split = [len(process.held) for process in processes]
            published = [loads[i] for i in range(len(loads))]
        finally:
            for client in clients:
                client.close()
            for process in processes:
                process.done.set()
                process.join(10)
    assert abs(split[0] - split[1]) <= 2, split
    assert published == split  # what each publishes is what it holds


def test_a_partner_that_takes_nothing_delays_a_connection_by_the_grace_at_most() -> None:
    """A partner that is stuck or gone (its load stays 0) cannot stop the
    door: each connection waits GRACE for it, then this process takes it."""

    took = asyncio.run(taken(listener(), [0, 0], 5))  # (no process 1 runs)
    assert 4 * GRACE <= took < 4 * GRACE + 2  # the first at once, each of the others after GRACE


def test_nobody_waits_for_a_process_not_taking_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    """A partner not started yet, or stopped, is no reason to wait. (A long
    grace makes one wait stand out from a loaded machine's slowness: five
    connections taken at once take milliseconds, one wait a second.)"""

    monkeypatch.setattr(web_accept, "GRACE", 1.0)
    assert asyncio.run(taken(listener(), [0, NOT_TAKING], 5)) < 1.0
    assert asyncio.run(taken(listener(), [0, 0], 2)) >= 1.0  # (the same clock sees a wait)


def test_a_stopped_acceptor_takes_no_more() -> None:
    async def run() -> tuple[int, int]:
        with listener() as sock:
            loads = array.array("i", [0])
            taker, held = acceptor(sock, loads, 0)
            writers = await connect(sock, 2)
            await until(lambda: len(held) == 2)
            taker.stop()
            writers += await connect(sock, 2)  # (the kernel completes them in its queue)
            await asyncio.sleep(0.2)
            for writer in writers:
                writer.close()
            return len(held), loads[0]

    assert asyncio.run(run()) == (2, NOT_TAKING)  # (the others need not wait for it)


class OutOfFiles(socket.socket):
    """A listening socket whose first accept finds no file descriptor left."""

    failed = False

    def accept(self) -> tuple[socket.socket, object]:
        if not self.failed:
            self.failed = True
            raise OSError(errno.EMFILE, "Too many open files")
        return super().accept()


def test_out_of_files_pauses_accepting(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(web_accept, "FILES_PAUSE", 0.2)

    with caplog.at_level(logging.ERROR, "pbem.web"):
        took = asyncio.run(taken(listener(OutOfFiles), [0], 1))
    assert took >= 0.2
    assert "stops accepting for a second: [Errno 24] Too many open files" in caplog.text
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert f"may open {limit} files; raise that hard limit with LimitNOFILE=" in caplog.text


def test_a_process_holding_two_more_than_another_lets_one_go_at_a_time() -> None:
    """Over its share, a process lets one kept-alive connection go per
    SHED_PAUSE (connections.CappedHttp closes it after its answer); one
    more than another is as even as two processes can be."""

    async def run() -> list[bool]:
        with listener() as sock:
            loads = array.array("i", [5, 0])  # (as published)
            taker = FairAcceptor(sock, loads, 0, asyncio.Protocol, lambda: 5)
            answers = [taker.over_share(), taker.over_share()]  # 5 against 0; then too soon
            await asyncio.sleep(SHED_PAUSE)
            answers.append(taker.over_share())  # 5 against 0 again
            for partner in (4, 3, NOT_TAKING):  # (each after the pause)
                loads[1] = partner
                taker.next_shed = 0.0
                answers.append(taker.over_share())
            loads[1] = 0
            taker.stop()
            taker.next_shed = 0.0
            answers.append(taker.over_share())  # (stopped: it holds what it holds)
            return answers

    assert asyncio.run(run()) == [True, False, True, False, True, False, False]
