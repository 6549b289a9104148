"""Open challenges through the API and the pages (TestClient on a real
database): post, list (game page, home page, API), take (the board starts,
poster first), withdraw; every refusal is a clear error that changes
nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pbem.server import Server
from pbem.settings import Settings
from pbem.store import Board
from pbem.web import create_app
from tests.web.test_api import bearer, client, refused, server, tokens  # noqa: F401 (fixtures)
from tests.web.test_pages import csrf, flashes, signed_up


def test_the_api_posts_lists_takes_and_withdraws(
    client: TestClient,  # noqa: F811
    server: Server,  # noqa: F811
    tokens: dict[str, str],  # noqa: F811
) -> None:
    made = client.post(
        "/api/trugo/open",
        json={"options": ["size=20"], "min_rating": 1500, "days": 2, "comment": "hi"},
        headers=bearer(tokens["alice"]),
    )
    assert made.status_code == 201, made.text
    offer = made.json()
    assert offer["poster"] == "alice" and offer["options"] == ["-size=20"]
    assert offer["rated"] is True and offer["min_rating"] == 1500 and offer["max_rating"] is None
    listed = client.get("/api/trugo/open").json()  # no token needed to look
    assert [item["id"] for item in listed] == [offer["id"]]
    refused(client.post(f"/api/trugo/open/{offer['id']}/take"), 401, "token")
    refused(
        client.post(f"/api/trugo/open/{offer['id']}/take", headers=bearer(tokens["alice"])),
        409,
        "your own",
    )
    taken = client.post(f"/api/trugo/open/{offer['id']}/take", headers=bearer(tokens["bob"]))
    assert taken.status_code == 201, taken.text
    board = taken.json()["board"]
    assert board["players"][0]["userid"] == "alice" and board["players"][1]["userid"] == "bob"
    refused(
        client.post(f"/api/trugo/open/{offer['id']}/take", headers=bearer(tokens["carol"])),
        409,
        "was taken",
    )
    assert client.get("/api/trugo/open").json() == []
    second = client.post("/api/trugo/open", json={}, headers=bearer(tokens["carol"])).json()
    refused(
        client.delete(f"/api/trugo/open/{second['id']}", headers=bearer(tokens["bob"])),
        404,
        "no open Trugo challenge",
    )
    gone = client.delete(f"/api/trugo/open/{second['id']}", headers=bearer(tokens["carol"]))
    assert gone.status_code == 204
    assert client.get("/api/trugo/open").json() == []
    refused(
        client.post("/api/trugo/open", json={"days": 99}, headers=bearer(tokens["carol"])),
        422,
        "days",
    )


def test_the_pages_post_list_take_and_withdraw(server: Server) -> None:  # noqa: F811
    ann, bob = signed_up(server, "ann"), signed_up(server, "bob")
    empty = ann.get("/vacu").text
    assert "No open Vacu challenge now" in empty and 'action="/vacu/open"' in empty
    posted = ann.post(
        "/vacu/open",
        data={
            "csrf": csrf(ann, "/vacu"),
            "options": "size=9 komi=6",
            "min_rating": "",
            "max_rating": "1700",
            "unrated": "yes",
            "comment": "A friendly one",
        },
    )
    assert "Your open challenge is posted" in " ".join(flashes(posted.text))
    page = bob.get("/vacu").text
    assert "open challenge 1</strong> by" in page
    assert "-komi=6, unrated, ratings: up to 1700" in page  # (-size=9 is the default)
    assert 'action="/vacu/open/1/take"' in page and "A friendly one" in page
    assert 'action="/vacu/open/1/withdraw"' in ann.get("/vacu").text  # her own: withdraw
    assert 'action="/vacu/open/1/take"' in bob.get("/").text  # the home page lists it
    bad = ann.post("/vacu/open", data={"csrf": csrf(ann, "/vacu"), "max_rating": "lots"})
    assert "The highest rating is a whole number" in " ".join(flashes(bad.text))
    taken = bob.post("/vacu/open/1/take", data={"csrf": csrf(bob, "/vacu")})
    assert str(taken.url).endswith("/vacu/1")
    assert "Board 1 started: you took open challenge 1." in flashes(taken.text)
    again = ann.post("/vacu/open/1/withdraw", data={"csrf": csrf(ann, "/vacu")})
    assert "Open challenge 1 was taken: it became board 1." in flashes(again.text)
    stranger = TestClient(ann.app)
    out = stranger.post("/vacu/open/1/take", data={"csrf": csrf(stranger, "/vacu")})
    assert "Log in to take an open challenge" in " ".join(flashes(out.text))


def test_an_unrated_challenge_by_api_and_its_rematch_stay_unrated(
    client: TestClient,  # noqa: F811
    server: Server,  # noqa: F811
    tokens: dict[str, str],  # noqa: F811
) -> None:
    made = client.post(
        "/api/vasco/boards",
        json={"first": "alice", "second": "bob", "rated": False},
        headers=bearer(tokens["alice"]),
    )
    assert made.status_code == 201, made.text
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    server.handle("bob@example.org", "vasco move 1 bob pw-bob a-1,-1")
    server.handle("alice@example.org", "vasco resign 1 alice pw-alice")
    alice = signed_up_as(server, "alice")
    page = alice.get("/vasco/1").text
    assert "bob won" in page and "by resignation" in page and "Not rated." in page
    again = alice.post("/vasco/1/rematch", data={"csrf": csrf(alice, "/vasco/1")})
    assert "the rematch of board 1, seats swapped" in " ".join(flashes(again.text))
    with server.sessions() as session:
        rematch = session.get_one(Board, 2)
        assert rematch.unrated and [p.user.userid for p in rematch.players] == ["bob", "alice"]


def signed_up_as(server: Server, name: str) -> TestClient:  # noqa: F811
    """A browser logged in as a player who signed up by mail (pw-NAME)."""
    browser = TestClient(create_app(server, Settings(secret_key="k" * 32)))
    token = csrf(browser, "/login")
    browser.post("/login", data={"csrf": token, "userid": name, "password": f"pw-{name}"})
    return browser
