"""Whatever ends `pbem serve`, kill -9 included, ends every process it
started within a second or two: the web processes (which held the web port,
so a restart could not listen), the delivery processes (which spun on their
dead wake pipe), the bots' search process and multiprocessing's resource
tracker. A restart right after listens on the same ports at once.

The processes are those of the tree the test started, found from its pid
(/proc/PID/task/*/children), never by name: another `pbem serve` may run
on the machine."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from pathlib import Path

import pytest

from pbem.host.processes import SPAWN
from tests.host.test_web_workers import get, name_of, start, wait_for
from tests.mail.smtp_world import free_port
from tests.processes import Processes

TICK = os.sysconf("SC_CLK_TCK")


def stat_of(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the name (state first), or None once gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def tree_of(pid: int) -> dict[int, str]:
    """Every process below `pid` (its children, theirs, and so on), each
    with its start time, which tells it from a later process given the
    same pid."""
    found: dict[int, str] = {}
    pending = [pid]
    while pending:
        parent = pending.pop()
        for children in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                pids = [int(child) for child in children.read_text().split()]
            except OSError:
                continue  # (a thread ended meanwhile)
            for child in pids:
                fields = stat_of(child)
                if fields is not None and child not in found:
                    found[child] = fields[19]
                    pending.append(child)
    return found


def alive(pid: int, started: str) -> bool:
    """Whether process `pid`, started at `started`, still runs (a zombie
    waiting for init to reap it has ended)."""
    fields = stat_of(pid)
    return fields is not None and fields[19] == started and fields[0] not in ("Z", "X")


def cpu_seconds(pid: int) -> float:
    fields = stat_of(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / TICK


def kind_of(pid: int) -> str:
    """What a process of `pbem serve`'s tree is, for the test's messages."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "gone"
    if "resource_tracker" in command:
        return "resource tracker"
    return name_of(pid) or "gone"


def whole(tree: dict[int, str]) -> bool:
    """Whether the tree holds all `pbem serve` starts here: two web
    processes, two delivery processes, the resource tracker and one more,
    the bots' search process (started at once, ready for a first turn)."""
    named = sorted(kind_of(pid) for pid in tree)
    wanted = ["pbem-delivery"] * 2 + ["pbem-web"] * 2 + ["resource tracker"]
    return len(tree) == 6 and all(named.count(kind) == wanted.count(kind) for kind in wanted)


def answers(web_port: int, smtp_port: int) -> bool:
    """Whether the web door serves a page and the SMTP listener greets."""
    if get(f"http://127.0.0.1:{web_port}/")[0] != 200:
        return False
    with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
        return smtp.noop()[0] == 250


@pytest.mark.usefixtures("numba_cache")  # (the search process loads, not compiles)
def test_kill_9_of_pbem_serve_ends_every_child_and_a_restart_listens(
    processes: Processes, tmp_path: Path, database_url: str
) -> None:
    web_port, smtp_port = free_port(), free_port()
    settings = {
        "PBEM_DATABASE_URL": database_url,
        "PBEM_SMTP_PORT": str(smtp_port),
        "PBEM_DELIVERY_PROCESSES": "2",
        "PBEM_BOT_PROCESSES": "1",
    }
    server = start(processes, tmp_path, web_port, 2, settings=settings)
    wait_for(lambda: answers(web_port, smtp_port), seconds=120)
    wait_for(lambda: whole(tree_of(server.pid)), seconds=120)
    tree = tree_of(server.pid)

    server.kill()  # SIGKILL: no handler, no clean-up, no finally
    killed = time.monotonic()
    server.wait(30)
    left = dict(tree)
    while left and time.monotonic() - killed < 5:
        left = {pid: begun for pid, begun in left.items() if alive(pid, begun)}
        time.sleep(0.01)
    took = time.monotonic() - killed
    survivors = {pid: kind_of(pid) for pid in left}
    assert not survivors, f"alive 5 s after kill -9: {survivors}"
    print(f"every child of pbem serve ended {took:.2f} s after kill -9")

    # the same ports, started at once (no bots: their search is not the point)
    again = start(processes, tmp_path, web_port, 2, settings=settings | {"PBEM_BOT_PROCESSES": "0"})
    try:
        wait_for(lambda: answers(web_port, smtp_port) or again.poll() is not None, seconds=120)
        served = again.poll() is None and answers(web_port, smtp_port)  # (not one that ended)
    finally:
        again.send_signal(signal.SIGTERM)
        output, _ = again.communicate(timeout=90)
    assert served and again.returncode == 0, output
    assert "could not listen" not in output


# A delivery process whose parent is killed: started here without the
# parent-death signal, so only its wake pipe's end of file tells it.
ORPHAN = """
import multiprocessing, sys, time
from pbem.host.delivery_workers import run_delivery
from pbem.settings import load_settings

spawn = multiprocessing.get_context("spawn")
reader, writer = spawn.Pipe(duplex=False)
child = spawn.Process(
    target=run_delivery, args=(load_settings(), sys.argv[1], spawn.RawValue("b", 0), reader)
)
child.start()
print(child.pid, flush=True)
time.sleep(3600)
"""


def test_an_orphaned_delivery_process_ends_instead_of_spinning(
    processes: Processes, tmp_path: Path, database_url: str
) -> None:
    env = processes.env(maildir=str(tmp_path / "mail"), delivery_seconds="60")
    parent = processes.start(
        [sys.executable, "-c", ORPHAN, database_url],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    started = stat_of(child)
    assert started is not None
    wait_for(lambda: name_of(child) == "pbem-delivery", seconds=120)
    wait_for(lambda: (tmp_path / "mail" / "new").is_dir(), seconds=120)  # (its loop began)

    before = cpu_seconds(child)
    parent.kill()
    killed = time.monotonic()
    parent.wait(30)
    while alive(child, started[19]) and time.monotonic() - killed < 5:
        time.sleep(0.01)
    spent = cpu_seconds(child) - before
    assert not alive(child, started[19]), f"alive after 5 s, spending {spent:.2f} s of CPU"


def sleep_until_told(ready: Connection, told: Connection) -> None:
    """A child that says it started, then waits for a word."""
    ready.send(os.getpid())
    told.recv()


def test_a_process_started_from_a_thread_outlives_the_thread(spawn: SpawnContext) -> None:
    """The parent-death signal comes when the *thread* that started a
    process ends: the bots start their searches from threads of their own,
    which must not take the searches with them. SPAWN starts them from a
    thread that lasts."""
    ready_in, ready_out = SPAWN.Pipe(duplex=False)
    told_in, told_out = SPAWN.Pipe(duplex=False)
    child = SPAWN.Process(target=sleep_until_told, args=(ready_out, told_in))

    def start_and_wait() -> None:
        child.start()
        assert ready_in.recv() == child.pid  # (its parent-death signal is set)

    thread = threading.Thread(target=start_and_wait)
    thread.start()
    thread.join()
    time.sleep(1)  # (a signal sent when the thread ended would have ended it)
    assert child.is_alive()
    told_out.send("done")
    child.join(30)
    assert child.exitcode == 0
