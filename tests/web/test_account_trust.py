"""Tokens end with the account's trust (issue 50, finding 5), through the
real doors on SQLite and PostgreSQL: a new password, by mail, by the API or
on the account page, ends every web session and revokes every API token but
the one it came with (and says so); "Log out everywhere" on the account
page ends every session, its own too, and revokes every token."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pbem.server import Server
from pbem.settings import Settings
from pbem.store import make_engine, session_factory
from pbem.web import create_app
from tests.conftest import ENGINES, upgraded_database_url
from tests.server.test_commands import Clock


@pytest.fixture(params=ENGINES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    engine = make_engine(upgraded_database_url(request.param, request, tmp_path))
    yield Server(session_factory(engine), Clock())
    engine.dispose()


def browser(server: Server) -> TestClient:
    return TestClient(create_app(server, Settings(secret_key="k" * 40)))


def csrf(client: TestClient, path: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert match, path
    return match.group(1)


def flashes(html: str) -> list[str]:
    found = re.findall(r'class="flash[^"]*"[^>]*>([^<]*)<', html)
    return [" ".join(unescape(text).split()) for text in found]


def logged_in(server: Server, userid: str, password: str) -> TestClient:
    client = browser(server)
    sent = client.post(
        "/login",
        data={"csrf": csrf(client, "/login"), "userid": userid, "password": password},
    )
    assert sent.status_code == 200 and client.get("/account").status_code == 200
    return client


def token_made(client: TestClient, label: str) -> str:
    made = client.post("/account/token", data={"csrf": csrf(client, "/account"), "label": label})
    shown = re.search(r'id="new-token">(pbem_[^<]+)<', made.text)
    assert made.status_code == 200 and shown
    return shown.group(1)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def works(api: TestClient, token: str) -> bool:
    answer = api.get("/api/me", headers=bearer(token))
    assert answer.status_code in (200, 401), answer.text
    return answer.status_code == 200


def api_command(api: TestClient, token: str, line: str) -> Any:
    return api.post("/api/command", json={"command": line}, headers=bearer(token))


def test_a_new_password_ends_every_session_and_token_but_the_one_in_use(server: Server) -> None:
    [signed] = server.handle("alice@example.org", "signup alice pw-alice").mails
    assert signed.error is None
    here = logged_in(server, "alice", "pw-alice")
    elsewhere = logged_in(server, "alice", "pw-alice")
    script, other, spare = (token_made(here, label) for label in ("script", "other", "spare"))
    api = browser(server)
    assert all(works(api, token) for token in (script, other, spare))

    # through the API, with the script's token: the others end, it goes on
    changed = api_command(api, script, "change password alice pw-alice new-pw-1")
    assert changed.status_code == 200, changed.text
    [told] = changed.json()["messages"]
    assert told["subject"] == "pbem change password alice"
    assert "2 API tokens revoked" in told["body"]
    assert "The API token this command came with still works." in told["body"]
    assert "Every web session logged in with the old password is logged out." in told["body"]
    assert works(api, script)
    assert not works(api, other) and not works(api, spare)
    assert api.get("/api/me", headers=bearer(other)).status_code == 401
    assert here.get("/account").status_code == 403
    assert elsewhere.get("/account").status_code == 403

    # by mail: no token is in use, so the script's ends too
    [mailed] = server.handle("alice@example.org", "change password alice new-pw-1 new-pw-2").mails
    assert mailed.error is None
    assert "1 API token revoked" in mailed.body and "still works" not in mailed.body
    assert not works(api, script)

    # on the account page: this session goes on, every other one and every token end
    here = logged_in(server, "alice", "new-pw-2")
    elsewhere = logged_in(server, "alice", "new-pw-2")
    kept = token_made(here, "again")
    answer = here.post(
        "/account/password",
        data={"csrf": csrf(here, "/account"), "current": "new-pw-2", "new": "new-pw-3"},
    )
    assert any("every API token revoked" in note for note in flashes(answer.text))
    assert here.get("/account").status_code == 200
    assert elsewhere.get("/account").status_code == 403
    assert not works(api, kept)
    assert 'id="tokens"' in answer.text and "/account/token/" not in answer.text  # none listed


def test_log_out_everywhere_ends_every_session_and_token(server: Server) -> None:
    [signed] = server.handle("bob@example.org", "signup bob pw-bob").mails
    assert signed.error is None
    here = logged_in(server, "bob", "pw-bob")
    elsewhere = logged_in(server, "bob", "pw-bob")
    tokens = [token_made(here, label) for label in ("one", "two")]
    page = here.get("/account").text
    assert 'action="/logout/everywhere"' in page and "Log out everywhere" in page

    forged = here.post("/logout/everywhere", data={"csrf": "not-the-token"})
    assert forged.status_code == 403  # a form from elsewhere does nothing
    api = browser(server)
    assert all(works(api, token) for token in tokens)

    done = here.post("/logout/everywhere", data={"csrf": csrf(here, "/account")})
    assert done.status_code == 200 and str(done.url).endswith("/login")
    assert flashes(done.text) == [
        "Logged out everywhere: every session of bob has ended, this one too, "
        "and 2 API tokens revoked."
    ]
    assert here.get("/account").status_code == 403
    assert elsewhere.get("/account").status_code == 403
    assert not any(works(api, token) for token in tokens)
    # the password still works: a new session starts with no tokens
    again = logged_in(server, "bob", "pw-bob")
    assert "/account/token/" not in again.get("/account").text
