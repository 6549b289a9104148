"""Large bodies are refused before they are read: announced or streamed."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi.testclient import TestClient

from pbem.server import Server
from pbem.settings import Settings
from pbem.web import create_app
from pbem.web.limits import MAX_BODY_BYTES
from tests.web.test_pages import server  # noqa: F401 (a fixture)


def test_a_body_over_the_limit_is_refused(server: Server) -> None:  # noqa: F811
    client = TestClient(create_app(server, Settings(secret_key="k" * 40)))
    big = b"{" + b" " * (MAX_BODY_BYTES + 10) + b"}"
    answer = client.post("/api/command", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "too large" in answer.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: streamed
        for _ in range(40):
            yield b"x" * 65536

    form = {"content-type": "application/x-www-form-urlencoded"}
    streamed = client.post("/login", content=chunks(), headers=form)
    assert streamed.status_code == 413
    assert client.post("/login", data={"userid": "a", "password": "b"}).status_code == 403  # csrf
