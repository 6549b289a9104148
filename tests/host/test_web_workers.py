"""`pbem serve` with its web door in several processes: every worker serves
the same database and takes its share of the connections, a worker that
dies is replaced, a taken port is a clear error, and stopping the server
stops its workers."""

from __future__ import annotations

import contextlib
import gc
import http.client
import inspect
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.host.web_workers import run_worker, worker_count
from pbem.server import Server
from pbem.store import make_engine, session_factory
from tests.databases import upgraded_sqlite
from tests.mail.smtp_world import free_port
from tests.processes import Processes
from tests.server.test_commands import signup
from tests.server.test_password_cost import cost_of, stored_hash


def workers_of(pid: int) -> list[int]:
    """The web processes `pid` started (spawned interpreters, named so)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children if name_of(int(child)) == "pbem-web"]


def name_of(pid: int) -> str:
    """A process's name as ps shows it ('' once it is gone)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.read()


def start(
    processes: Processes,
    tmp_path: Path,
    web_port: int,
    workers: int,
    *,
    key: bool = True,
    settings: dict[str, str] | None = None,
) -> subprocess.Popen[str]:
    """`pbem serve` in `tmp_path` with `workers` web processes (and any
    other `settings`, PBEM_... variables), and no bots: their search
    process costs seconds of CPU at start, and no test here plays them."""
    env = processes.env(
        database_url=f"sqlite:///{tmp_path}/pbem.sqlite3",
        web_port=str(web_port),
        smtp_port=str(free_port()),
        web_workers=str(workers),
        bot_processes="0",
    )
    if key:
        env["PBEM_SECRET_KEY"] = "w" * 40
        env["PBEM_MAILDIR"] = str(tmp_path / "mail")
    env |= settings or {}
    # else the key and the Maildir go to var/, which nothing made beforehand
    # (the database is outside it, as a PostgreSQL one would be)
    return processes.start(
        [sys.executable, "-m", "pbem.cli", "serve"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_for(predicate, seconds: float = 60) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("gave up waiting")


def test_worker_count_reads_the_setting() -> None:
    assert worker_count(3) == 3
    assert 1 <= worker_count(0) <= 8
    assert worker_count(0) == min(8, len(os.sched_getaffinity(0)))


def test_two_web_processes_serve_one_database_and_a_dead_one_is_replaced(
    processes: Processes, tmp_path: Path
) -> None:
    web_port = free_port()
    server = start(processes, tmp_path, web_port, 2)
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_for(lambda: get(f"{base}/")[0] == 200)
        wait_for(lambda: len(workers_of(server.pid)) == 2)
        first = workers_of(server.pid)
        # a signup through the web lands in the one database every worker reads
        processes.run(
            [
                sys.executable,
                "-m",
                "pbem.cli",
                "send",
                "--from",
                "ann@example.org",
                "signup ann annpass",
            ],
            env=processes.env(database_url=f"sqlite:///{tmp_path}/pbem.sqlite3"),
            cwd=tmp_path,
            check=True,
        )
        pages = [get(f"{base}/players/ann") for _ in range(20)]
        assert all(status == 200 and b"ann" in body for status, body in pages)
        os.kill(first[0], signal.SIGKILL)
        wait_for(
            lambda: len(workers_of(server.pid)) == 2 and first[0] not in workers_of(server.pid)
        )
        assert first[1] in workers_of(server.pid)
        statuses = [get(f"{base}/api/games")[0] for _ in range(20)]
        assert statuses == [200] * 20
        json.loads(get(f"{base}/api/games")[1])
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=60)
    assert server.returncode == 0, output
    assert "the web door runs in 2 processes" in output
    for pid in first:
        assert (
            not Path(f"/proc/{pid}").exists()
            or b"zombie" in Path(f"/proc/{pid}/status").read_bytes()
        )


def test_a_taken_web_port_is_a_clear_error(processes: Processes, tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        server = start(processes, tmp_path, port, 2)
        output, _ = server.communicate(timeout=120)
    assert server.returncode != 0
    assert f"could not listen on 127.0.0.1:{port}" in output and "PBEM_WEB_PORT" in output


@pytest.mark.parametrize("workers", [1])
def test_one_worker_serves_from_a_thread(
    processes: Processes, tmp_path: Path, workers: int
) -> None:
    web_port = free_port()
    server = start(processes, tmp_path, web_port, workers)
    try:
        wait_for(lambda: get(f"http://127.0.0.1:{web_port}/")[0] == 200)
        assert workers_of(server.pid) == []
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=60)
    assert server.returncode == 0, output


def test_every_worker_reads_the_sessions_of_the_others(
    processes: Processes, tmp_path: Path
) -> None:
    """With no key set, one is made once for all workers: a form from one
    worker's page is accepted by whichever worker takes the post. A web
    process hashes a new password at the host's argon2 cost."""
    import http.cookiejar
    import re
    import urllib.error
    import urllib.parse

    web_port = free_port()
    cost = {"PBEM_ARGON2_TIME_COST": "2", "PBEM_ARGON2_MEMORY_KIB": "1024"}
    server = start(processes, tmp_path, web_port, 2, key=False, settings=cost)
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_for(lambda: get(f"{base}/")[0] == 200)
        wait_for(lambda: len(workers_of(server.pid)) == 2)
        browser = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        page = browser.open(f"{base}/login", timeout=30).read().decode()
        [token] = re.findall(r'name="csrf" value="([^"]+)"', page)
        form = urllib.parse.urlencode(
            {"csrf": token, "userid": "nobody", "password": "wrong"}
        ).encode()
        answers = []
        for _ in range(16):  # a new connection each time: both workers take some
            try:
                answers.append(browser.open(f"{base}/login", form, timeout=30).read())
            except urllib.error.HTTPError as error:
                answers.append(error.read())
        assert all(b"has expired" not in answer for answer in answers)
        assert all(b"nobody" in answer or b"password" in answer for answer in answers)
        page = browser.open(f"{base}/signup", timeout=30).read().decode()
        [token] = re.findall(r'name="csrf" value="([^"]+)"', page)
        fields = {"csrf": token, "userid": "cat", "password": "catpass1"}
        form = urllib.parse.urlencode(fields | {"address": "cat@example.org"}).encode()
        browser.open(f"{base}/signup", form, timeout=30).read()
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=60)
    assert server.returncode == 0, output
    assert (tmp_path / "var" / "secret_key").exists()
    assert (tmp_path / "var" / "mail" / "new").is_dir()
    stored = stored_hash(f"sqlite:///{tmp_path}/pbem.sqlite3", "cat")
    assert cost_of(stored) == (2, 1024, 1)  # (the parallelism: the tests' own)


def collector_after(processes: Processes, probe: str) -> tuple[int, int]:
    """The collector's youngest threshold and frozen count after `probe`
    runs in a fresh interpreter (the setting is the whole process's)."""
    probe += "; import gc; print(gc.get_threshold()[0], gc.get_freeze_count())"
    out = processes.run([sys.executable, "-c", probe], text=True, check=True).stdout.split()
    return int(out[-2]), int(out[-1])


def test_a_web_process_sets_its_start_up_aside_from_the_collector(processes: Processes) -> None:
    threshold, frozen = collector_after(
        processes, "from pbem.host.processes import quieter_collector; quieter_collector()"
    )
    assert threshold == 20_000 and frozen > 10_000  # start-up's objects, set aside
    assert "quieter_collector()" in inspect.getsource(run_worker)


def test_pbem_serve_quiets_the_collector_of_its_main_process(processes: Processes) -> None:
    """The main process (the SMTP listener, the tick) collects as the web
    processes do; the command sets it, not serve(), so a test that runs
    serve() in its own interpreter keeps Python's defaults."""
    default = gc.get_threshold()[0]
    threshold, frozen = collector_after(
        processes,
        "import pbem.host.serve; pbem.host.serve.serve = lambda *args, **kwargs: None; "
        "from pbem.cli import main; main(['serve'])",
    )
    assert threshold == 20_000 and frozen > 10_000
    assert default != 20_000  # (what the tests' own interpreter keeps)


def a_board(tmp_path: Path) -> None:
    """The database of `start(processes, tmp_path, ...)`, with vasco board 1 of ann and bob."""
    engine = make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    setup = Server(session_factory(engine))
    signup(setup, "ann", "bob")
    setup.handle("ann@example.org", "vasco challenge ann bob")
    engine.dispose()


def open_stream(web_port: int) -> tuple[socket.socket, bytes]:
    """A board page's live stream of vasco board 1, and its answer so far."""
    page = socket.create_connection(("127.0.0.1", web_port), timeout=30)
    page.sendall(
        b"GET /vasco/1/events?revision=0 HTTP/1.1\r\n"
        + f"Host: 127.0.0.1:{web_port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    head = page.recv(4096)
    assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head, head
    return page, head


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stop_does_not_wait_for_an_open_board_pages_stream(
    processes: Processes, tmp_path: Path, workers: int
) -> None:
    """A board page holds a live stream (web/live.py) for 25 s at a time;
    stopping the server ends it at once, so the stop takes seconds, not the
    stream's lifetime, and the page's connection is closed, not cut."""
    a_board(tmp_path)
    web_port = free_port()
    server = start(processes, tmp_path, web_port, workers)
    try:
        wait_for(lambda: get(f"http://127.0.0.1:{web_port}/vasco/1")[0] == 200)
        page, head = open_stream(web_port)
        with page:
            time.sleep(0.5)  # the stream is waiting for the board to change
            stopped = time.monotonic()
            server.send_signal(signal.SIGTERM)
            rest = b""
            while chunk := page.recv(4096):  # until the server closes the stream
                rest += chunk
            closed = time.monotonic() - stopped
        output, _ = server.communicate(timeout=60)
        took = time.monotonic() - stopped
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate(timeout=30)
    assert server.returncode == 0, output
    assert closed < 5, (closed, output)  # (held open, it lasted until the 10 s backstop)
    assert took < 20, (took, output)  # seconds, not the stream's 25 (CI's busiest: 8.7)
    assert b"0\r\n\r\n" in head + rest  # the chunked stream's proper end


@contextlib.contextmanager
def serving(
    processes: Processes, tmp_path: Path, web_port: int, workers: int, **options: Any
) -> Iterator[subprocess.Popen[str]]:
    """`start(...)`, stopped by SIGTERM at the end, which it must end cleanly."""
    server = start(processes, tmp_path, web_port, workers, **options)
    try:
        yield server
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=60)
    assert server.returncode == 0, output


def cpu_of(pid: int) -> float:
    """CPU seconds process `pid` has used (user and system, from /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_every_web_process_answers_a_proxys_connections(
    processes: Processes, tmp_path: Path
) -> None:
    """Each web process serves a socket of its own on the port (SO_REUSEPORT)
    and the kernel spreads new connections among them: a proxy's
    connections, a new one for each request or kept alive, keep both
    processes busy."""
    a_board(tmp_path)
    web_port = free_port()
    with serving(processes, tmp_path, web_port, 2) as server:
        wait_for(lambda: get(f"http://127.0.0.1:{web_port}/")[0] == 200)
        wait_for(lambda: len(workers_of(server.pid)) == 2)
        workers = workers_of(server.pid)
        before = {pid: cpu_of(pid) for pid in workers}

        def asks(kept_alive: bool) -> None:
            client = http.client.HTTPConnection("127.0.0.1", web_port, timeout=30)
            for _ in range(60):
                client.request("GET", "/vasco/1")
                answer = client.getresponse()
                assert answer.status == 200 and answer.read()
                if not kept_alive:
                    client.close()
            client.close()

        threads = [threading.Thread(target=asks, args=(n % 2 == 0,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        used = {pid: cpu_of(pid) - before[pid] for pid in workers}
    assert all(seconds > 0.1 * sum(used.values()) for seconds in used.values()), used


def test_a_second_server_on_the_same_port_is_a_clear_error(
    processes: Processes, tmp_path: Path
) -> None:
    """Another `pbem serve` started by mistake on the port stops with a clear
    error, and the first goes on serving."""
    web_port = free_port()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = start(processes, tmp_path / "a", web_port, 2)
    try:
        wait_for(lambda: get(f"http://127.0.0.1:{web_port}/")[0] == 200)
        second = start(processes, tmp_path / "b", web_port, 2)
        output, _ = second.communicate(timeout=120)
        assert second.returncode != 0
        assert f"could not listen on 127.0.0.1:{web_port} (in use)" in output, output
        assert get(f"http://127.0.0.1:{web_port}/")[0] == 200
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 0
