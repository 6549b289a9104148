"""Numbers in URLs beyond what the database holds (a board, an open
challenge, an API token): refused with a 422 that names the bound, on SQLite
and PostgreSQL, by every route that takes one. Before, PostgreSQL failed
with a 500 from 2**31 on (its integer ids) and SQLite from 2**63 on."""

from __future__ import annotations

import re

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pbem.server import Server
from pbem.settings import Settings
from pbem.store import MAX_ID, session_factory
from pbem.web import create_app
from tests.server.test_commands import Clock
from tests.web.test_api import bearer, make_token

NUMBERED = ("board_id", "number", "token_id")
TOO_LARGE = (MAX_ID + 1, 2**63, 10**30)


@pytest.fixture
def client(engine: Engine) -> tuple[TestClient, dict[str, str]]:
    server = Server(session_factory(engine), Clock())
    app = create_app(server, Settings(secret_key="k" * 32))
    client = TestClient(app, raise_server_exceptions=False)
    return client, bearer(make_token(server, "alice"))


def numbered_routes(web: TestClient) -> list[tuple[str, str]]:
    """(method, path) of every route of the app that names a row by
    number, the other parts of the path filled in."""
    found = []
    routes = list(web.app.routes)  # type: ignore[attr-defined]
    while routes:
        route = routes.pop()
        if hasattr(route, "original_router"):  # an included router
            routes.extend(route.original_router.routes)
            continue
        if not isinstance(route, APIRoute):
            continue
        names = re.findall(r"{(\w+)}", route.path)
        if not any(name in NUMBERED for name in names):
            continue
        path = route.path.replace("{game}", "vasco").replace("{game_name}", "vasco")
        path = path.replace("{action}", "resign").replace("{what}", "tokens")
        found.extend((method, path) for method in sorted(route.methods))
    return found


def test_every_numbered_route_refuses_a_number_beyond_the_ids(
    client: tuple[TestClient, dict[str, str]],
) -> None:
    web, token = client
    routes = numbered_routes(web)
    assert len(routes) >= 25  # (the board's pages, its API, open challenges, tokens)
    for method, path in routes:
        for number in TOO_LARGE:
            filled = re.sub(r"{(board_id|number|token_id)}", str(number), path)
            answer = web.request(method, filled, headers=token, json={"move": "a0,0"})
            assert answer.status_code != 500, (method, filled, answer.text[:200])
            assert answer.status_code in (403, 422), (method, filled, answer.status_code)


def test_the_refusal_says_what_is_wrong(client: tuple[TestClient, dict[str, str]]) -> None:
    web, token = client
    answer = web.get(f"/api/vasco/boards/{2**40}", headers=token)
    assert answer.status_code == 422
    assert answer.json() == {"error": f"board_id: Input should be less than or equal to {MAX_ID}"}
    page = web.get(f"/vasco/{2**40}")
    assert page.status_code == 422 and f"less than or equal to {MAX_ID}" in page.text
    moved = web.post(f"/api/vasco/boards/{2**63}/move", headers=token, json={"move": "a0,0"})
    assert moved.status_code == 422
    # The largest id is a board like any other: not there, so a 404.
    assert web.get(f"/api/vasco/boards/{MAX_ID}", headers=token).status_code == 404
    assert web.get(f"/vasco/{MAX_ID}").status_code == 404
