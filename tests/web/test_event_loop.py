"""The web door never does blocking work on its event loop: while forms that
run slow work (argon2, the database, drawings) are in flight, other pages
are served at once. The slow work is stood in for by a command held until
the test releases it, on a real uvicorn server: a page that had to wait for
it would wait past the client's timeout."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import httpx2 as httpx
import pytest

from pbem.server import Server
from pbem.server.players import passwords
from pbem.server.views import listings
from pbem.web.app import THREADS_PER_PROCESS
from pbem.web.password_lane import PASSWORD_THREADS
from tests.web.browser import LiveSite
from tests.web.test_api import bearer, make_token

HELD = 30.0  # seconds at most that held work waits for the test to release it
PAGE_TIMEOUT = 10.0  # a page served while the work is held answers well within it


class Held:
    """Work held until released: counts how many are in it, and the most at once."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.released = False
        self.running = self.most = 0

    def hold(self) -> None:
        with self.condition:
            self.running += 1
            self.most = max(self.most, self.running)
            self.condition.notify_all()
            self.condition.wait_for(lambda: self.released, HELD)
            self.running -= 1

    def wait_for_running(self, count: int) -> None:
        with self.condition:
            assert self.condition.wait_for(lambda: self.running >= count, HELD), self.running

    def release(self) -> None:
        with self.condition:
            self.released = True
            self.condition.notify_all()


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
    real_execute, real_login = Server.execute, Server.check_login
    held = Held()

    def slow_execute(self: Server, *args: object, **kwargs: object) -> object:
        held.hold()
        return real_execute(self, *args, **kwargs)  # type: ignore[arg-type]

    def slow_login(self: Server, userid: str, password: str, source: str = "") -> str:
        held.hold()
        return real_login(self, userid, password, source)

    monkeypatch.setattr(Server, "execute", slow_execute)  # (a sign-up)
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
    held.wait_for_running(2)  # both forms are in their slow work
    try:
        with httpx.Client(base_url=live.url, timeout=PAGE_TIMEOUT) as client:
            for path in pages:
                assert client.get(path).status_code == 200, path
    finally:
        held.release()
    for thread in posts:
        thread.join(30)
    assert answers == [303, 303], answers  # both forms did their (slow) work and went on


def test_a_web_process_runs_a_bounded_number_of_requests_in_threads(
    live: LiveSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More slow pages than THREADS_PER_PROCESS at once: that many run
    together, the rest wait for a thread (the interpreter lock is shared
    among a few, not forty), and every one is answered."""
    held = Held()
    real_boards = listings.boards

    def slow_boards(*args: Any, **kwargs: Any) -> Any:
        held.hold()
        return real_boards(*args, **kwargs)

    monkeypatch.setattr(listings, "boards", slow_boards)
    statuses: list[int] = []

    def ask() -> None:
        with httpx.Client(base_url=live.url, timeout=60) as client:
            statuses.append(client.get("/vasco").status_code)

    threads = [threading.Thread(target=ask) for _ in range(THREADS_PER_PROCESS + 4)]
    for thread in threads:
        thread.start()
    try:
        held.wait_for_running(THREADS_PER_PROCESS)
        time.sleep(0.5)  # (time for the other four to come in, were there threads for them)
    finally:
        held.release()
    for thread in threads:
        thread.join(60)
    assert held.most == THREADS_PER_PROCESS
    assert statuses == [200] * (THREADS_PER_PROCESS + 4)


@pytest.mark.parametrize("door", ["login form", "API command"])
def test_first_password_checks_leave_the_request_threads_free(
    live: LiveSite, monkeypatch: pytest.MonkeyPatch, door: str
) -> None:
    """More first password checks at once than a process has request
    threads, by log-in form or by the API's commands that still ask for the
    password (`change password`): their argon2 work (a sleep stands in for
    it) runs in the password lane, at most PASSWORD_THREADS at once, while a
    page that needs a request thread is served at once; every one then goes
    through."""
    count = THREADS_PER_PROCESS + 2
    tokens = [make_token(live.server, f"p{number}") for number in range(count)]
    monkeypatch.setattr(passwords, "VERDICTS", passwords.Verdicts())  # (none checked yet)
    held = Held()
    real_do = passwords.PasswordWork.do

    def slow_do(work: passwords.PasswordWork) -> None:
        held.hold()
        real_do(work)

    monkeypatch.setattr(passwords.PasswordWork, "do", slow_do)
    answers: list[int] = []

    def check_password(number: int) -> None:
        with httpx.Client(base_url=live.url, timeout=60) as client:
            if door == "API command":
                line = f"change password p{number} pw-p{number} new-pw-p{number}"
                sent = client.post(
                    "/api/command", json={"command": line}, headers=bearer(tokens[number])
                )
                answers.append(sent.status_code)
                return
            token = form_token(client, "/login")
            fields = {"csrf": token, "userid": f"p{number}", "password": f"pw-p{number}"}
            answers.append(client.post("/login", data=fields).status_code)

    with httpx.Client(base_url=live.url, timeout=30) as client:
        assert client.get("/vasco").status_code == 200  # (its first drawing done)
    checking = [threading.Thread(target=check_password, args=(n,)) for n in range(count)]
    for thread in checking:
        thread.start()
    held.wait_for_running(PASSWORD_THREADS)  # the lane is full; the other checks wait for it
    try:
        with httpx.Client(base_url=live.url, timeout=PAGE_TIMEOUT) as client:
            assert client.get("/vasco").status_code == 200  # (a page run in a request thread)
    finally:
        held.release()
    for thread in checking:
        thread.join(60)
    assert answers == [200 if door == "API command" else 303] * count
    assert held.most == PASSWORD_THREADS
