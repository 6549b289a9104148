"""The web door never does blocking work on its event loop: while forms that
run slow work (argon2, the database, drawings) are in flight, other pages
are served at once. The slow work is stood in for by a command that sleeps,
on a real uvicorn server."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import httpx2 as httpx
import pytest

from pbem.server import Server, listings
from pbem.web.app import THREADS_PER_PROCESS
from tests.web.browser import LiveSite

SLOW = 1.5  # seconds each slow command takes


def form_token(client: httpx.Client, path: str) -> str:
    page = client.get(path).text
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


@pytest.mark.parametrize("form", ["signup", "login"])
def test_pages_are_served_while_slow_forms_run(
    live: LiveSite, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    live.server.handle("ann@example.org", "signup ann annpass1")
    real_handle, real_login = Server.handle, Server.check_login

    def slow_handle(self: Server, *args: object, **kwargs: object) -> object:
        time.sleep(SLOW)
        return real_handle(self, *args, **kwargs)  # type: ignore[arg-type]

    def slow_login(self: Server, userid: str, password: str, source: str = "") -> str:
        time.sleep(SLOW)
        return real_login(self, userid, password, source)

    monkeypatch.setattr(Server, "handle", slow_handle)
    monkeypatch.setattr(Server, "check_login", slow_login)

    def post(number: int) -> None:
        with httpx.Client(base_url=live.url, timeout=30) as client:
            token = form_token(client, f"/{form}")
            fields = {"csrf": token, "password": "annpass1", "userid": "ann"}  # (logs in)
            if form == "signup":
                fields = {"csrf": token, "password": "secret12", "userid": f"new{number}"}
                fields["address"] = f"new{number}@example.org"
            answers.append(client.post(f"/{form}", data=fields).status_code)

    pages = ("/static/pbem.css", "/vasco", "/")
    with httpx.Client(base_url=live.url, timeout=30) as client:
        for path in pages:  # each page's first drawing (the home page's pictures) done
            assert client.get(path).status_code == 200
    answers: list[int] = []
    posts = [threading.Thread(target=post, args=(n,)) for n in range(2)]
    for thread in posts:
        thread.start()
    time.sleep(0.3)  # both forms are now in their slow work
    with httpx.Client(base_url=live.url, timeout=30) as client:
        for path in pages:
            start = time.monotonic()
            assert client.get(path).status_code == 200
            assert time.monotonic() - start < SLOW / 3, path
    for thread in posts:
        thread.join(30)
    assert answers == [303, 303], answers  # both forms did their (slow) work and went on


def test_a_web_process_runs_a_bounded_number_of_requests_in_threads(
    live: LiveSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More slow pages than THREADS_PER_PROCESS at once: that many run
    together, the rest wait for a thread (the interpreter lock is shared
    among a few, not forty), and every one is answered."""
    running, most = 0, 0
    lock = threading.Lock()
    real_boards = listings.boards

    def slow_boards(*args: Any, **kwargs: Any) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.5)
        with lock:
            running -= 1
        return real_boards(*args, **kwargs)

    monkeypatch.setattr(listings, "boards", slow_boards)
    statuses: list[int] = []

    def ask() -> None:
        with httpx.Client(base_url=live.url, timeout=60) as client:
            statuses.append(client.get("/vasco").status_code)

    threads = [threading.Thread(target=ask) for _ in range(THREADS_PER_PROCESS + 4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert most == THREADS_PER_PROCESS
    assert statuses == [200] * (THREADS_PER_PROCESS + 4)
