"""Hints and bots through the web door and the API: the challenge form's box,
the board page's button and the answer shown to the asker alone (the page's
poll reloads it once ready); the API's POST and GET .../hint; a bot's own page."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pbem.server import Server, bot_turns
from pbem.server.boards import hints as hint_rules
from tests.web.test_api import bearer, make_token
from tests.web.test_api import client as client
from tests.web.test_pages import browser, csrf, flashes, server, signed_up, text

__all__ = ["server"]


def answer_the_question(server: Server) -> None:
    """What the bot worker does, with a made-up analysis (its search is tested elsewhere)."""
    [question] = bot_turns.open_hints(server)
    assert bot_turns.claim_hint(server, question, 30)
    bot_turns.answer_hint(server, question, [hint_rules.Suggestion("C3", 0.7, 90)], 300)


def test_a_hint_on_the_board_page(server: Server) -> None:
    alice, bob = signed_up(server, "alice"), signed_up(server, "bob")
    without = alice.post(
        "/vacu/challenge",
        data={"csrf": csrf(alice), "first": "alice", "second": "bob", "options": "-size=5 -komi=3"},
    )
    assert "Ask the engine for a hint" not in without.text  # board 1: no hints
    page = alice.post(
        "/vacu/challenge",
        data={
            "csrf": csrf(alice),
            "first": "alice",
            "second": "bob",
            "options": "-size=5 -komi=3",
            "hints": "yes",
        },
    )
    assert str(page.url).endswith("/vacu/2") and "Ask the engine for a hint" in page.text
    asked = alice.post("/vacu/2/special", data={"csrf": csrf(alice, "/vacu/2"), "what": "hint"})
    assert "The engine is thinking" in " ".join(flashes(asked.text))
    assert "hint=pending" in asked.text  # the page polls until the answer is in
    assert alice.get("/vacu/2/poll", params={"version": 0, "hint": "pending"}).status_code == 204
    answer_the_question(server)
    poll = alice.get("/vacu/2/poll", params={"version": 0, "hint": "pending"})
    assert poll.headers.get("HX-Refresh") == "true"
    shown = text(alice.get("/vacu/2"))
    assert "1. C3: 70% to win (90 playouts)" in shown
    assert "C3: 70% to win" not in text(bob.get("/vacu/2"))  # bob sees only that hints are on
    assert "C3: 70% to win" not in text(browser(server).get("/vacu/2"))
    refused = alice.post("/vacu/1/special", data={"csrf": csrf(alice, "/vacu/1"), "what": "hint"})
    assert any("Hints are off on board 1" in line for line in flashes(refused.text))


def test_a_hint_through_the_api(server: Server, client: TestClient) -> None:
    alice, _ = make_token(server, "alice"), make_token(server, "bob")
    made = client.post(
        "/api/vacu/boards",
        json={"first": "alice", "second": "bob", "options": ["-size=5", "-komi=3"], "hints": True},
        headers=bearer(alice),
    )
    assert made.status_code == 201, made.text
    board = made.json()["board"]["id"]
    assert client.get(f"/api/vacu/boards/{board}/hint", headers=bearer(alice)).status_code == 404
    asked = client.post(f"/api/vacu/boards/{board}/hint", headers=bearer(alice))
    assert asked.status_code == 200, asked.text
    waiting = client.get(f"/api/vacu/boards/{board}/hint", headers=bearer(alice)).json()
    assert waiting == {"board": board, "version": 0, "ready": False, "text": ""}
    answer_the_question(server)
    ready = client.get(f"/api/vacu/boards/{board}/hint", headers=bearer(alice)).json()
    assert ready["ready"] and "1. C3: 70% to win" in ready["text"]


def test_a_bots_page_says_it_is_a_bot(server: Server) -> None:
    page = text(browser(server).get("/players/hardbot"))
    assert "hardbot is one of the server's built-in opponents (hard level)" in page
    assert "built-in opponents" not in text(signed_up(server, "alice").get("/players/alice"))
