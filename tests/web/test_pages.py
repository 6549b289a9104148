"""The web door's pages and forms, route by route, on a real database:
every page, and every way a form can be refused (not logged in, wrong
user, stale move number, illegal move, missing CSRF token)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from pbem.server import Server
from pbem.settings import Settings
from pbem.store import ApiToken, Board, OutboxMessage, User, make_engine, session_factory
from pbem.web import create_app
from tests.databases import upgraded_sqlite
from tests.server.test_commands import Clock

PERSON = User.bot_level.is_(None)  # the database's own bots are no one's signup


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    engine = make_engine(upgraded_sqlite(tmp_path / "web.sqlite3"))
    yield Server(session_factory(engine), Clock())
    engine.dispose()


def browser(server: Server) -> TestClient:
    return TestClient(create_app(server, Settings(secret_key="k" * 40)))


def csrf(client: TestClient, path: str = "/") -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert match, path
    return match.group(1)


def flashes(html: str) -> list[str]:
    found = re.findall(r'class="flash[^"]*"[^>]*>([^<]*)<', html)
    return [" ".join(unescape(text).split()) for text in found]


def text(response: object) -> str:
    """A page's text with HTML's escapes undone, to look for sentences in."""
    return unescape(response.text)  # type: ignore[attr-defined]


def signed_up(server: Server, name: str) -> TestClient:
    client = browser(server)
    response = client.post(
        "/signup",
        data={
            "csrf": csrf(client, "/signup"),
            "userid": name,
            "password": f"pw-{name}",
            "address": f"{name}@example.org",
        },
    )
    assert response.status_code == 200 and str(response.url).endswith("/account")
    return client


@pytest.fixture
def alice(server: Server) -> TestClient:
    return signed_up(server, "alice")


@pytest.fixture
def bob(server: Server) -> TestClient:
    return signed_up(server, "bob")


def vasco_board(alice: TestClient, bob: TestClient) -> str:
    response = alice.post(
        "/vasco/challenge",
        data={"csrf": csrf(alice), "first": "alice", "second": "bob", "options": "-size=12"},
    )
    assert str(response.url).endswith("/vasco/1"), flashes(response.text)
    return "/vasco/1"


def outbox_subjects(server: Server) -> list[str]:
    with server.sessions() as session:
        return list(session.scalars(select(OutboxMessage.subject).order_by(OutboxMessage.id)))


def board_row(server: Server) -> Board:
    with server.sessions() as session:
        return session.get_one(Board, 1)


def test_the_pages_anyone_can_see(server: Server, alice: TestClient, bob: TestClient) -> None:
    vasco_board(alice, bob)
    visitor = browser(server)
    home = visitor.get("/")
    assert home.status_code == 200
    assert all(title in home.text for title in ("Vasco", "Trugo", "Vacu", "Convacu"))
    assert home.text.count("<svg") >= 4 and 'href="/vasco/1"' in home.text
    game = visitor.get("/vasco")
    assert game.status_code == 200 and "alice" in game.text and 'id="rules"' in game.text
    assert "<h2" in game.text.split('id="rules"')[1]  # the rules, rendered
    assert "Log in</a> to challenge" in game.text
    assert visitor.get("/vasco?show=finished").text.count('href="/vasco/1"') == 0
    assert visitor.get("/convacu").status_code == 200
    assert visitor.get("/vasco/standings").status_code == 200
    page = visitor.get("/vasco/1")
    assert (
        page.status_code == 200
        and "<svg" in page.text
        and "<strong>alice to move.</strong>" in page.text
    )
    assert 'id="move-form"' not in page.text  # not a player: no move entry
    assert visitor.get("/players/ALICE").status_code == 200
    assert "Awaiting alice" in visitor.get("/players/alice").text
    assert visitor.get("/static/htmx.min.js").status_code == 200


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/chess", "There is no game called 'chess' here."),
        ("/vasco/99", "There is no Vasco board 99."),
        ("/trugo/1", "There is no Trugo board 1."),
        ("/players/nobody", "No player is called 'nobody'."),
        ("/vasco/1?at=x", "The request was not understood"),
    ],
)
def test_what_is_not_there_is_said_plainly(
    server: Server, alice: TestClient, bob: TestClient, path: str, words: str
) -> None:
    vasco_board(alice, bob)
    response = browser(server).get(path)
    assert response.status_code in (404, 422)
    assert words in text(response)


def test_signup_and_login_errors(server: Server, alice: TestClient) -> None:
    client = browser(server)
    token = csrf(client, "/signup")
    taken = client.post(
        "/signup",
        data={"csrf": token, "userid": "Alice", "password": "x1y2z3", "address": "a@b.org"},
    )
    assert taken.status_code == 422 and "is taken" in taken.text
    spaces = client.post(
        "/signup", data={"csrf": token, "userid": "carol", "password": "a b", "address": "c@d.org"}
    )
    assert "no spaces" in spaces.text
    wrong = client.post(
        "/login", data={"csrf": csrf(client, "/login"), "userid": "alice", "password": "nope"}
    )
    assert wrong.status_code == 403 and "do not match" in wrong.text
    ok = client.post(
        "/login",
        data={
            "csrf": csrf(client, "/login"),
            "userid": "ALICE",
            "password": "pw-alice",
            "next": "//evil.example/",
        },
    )
    assert str(ok.url) == "http://testserver/" and "Logged in as alice." in flashes(ok.text)
    out = client.post("/logout", data={"csrf": csrf(client)})
    assert "log in" in out.text and client.get("/account").status_code == 403


def test_every_form_needs_the_csrf_token(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    vasco_board(alice, bob)
    for path in (
        "/signup",
        "/login",
        "/logout",
        "/vasco/challenge",
        "/vasco/1/move",
        "/vasco/1/preview",
        "/vasco/1/special",
        "/account/mail",
        "/account/token",
    ):
        response = alice.post(path, data={"move": "a0,0", "what": "resign", "confirm": "yes"})
        assert response.status_code == 403, path
        assert "did not come from this site" in response.text
    assert board_row(server).status == "active"


def test_moves_from_the_page(server: Server, alice: TestClient, bob: TestClient) -> None:
    vasco_board(alice, bob)
    page = alice.get("/vasco/1")
    assert 'id="move-form"' in page.text and "Your move." in page.text
    token = csrf(alice, "/vasco/1")
    preview = alice.post("/vasco/1/preview", data={"csrf": token, "move": "a0,0"})
    assert "After a0,0" in preview.text and "<svg" in preview.text
    bad = alice.post("/vasco/1/preview", data={"csrf": token, "move": "z9,9"})
    assert "cannot be played" in bad.text
    assert board_row(server).version == 0  # a preview plays nothing
    played = alice.post(
        "/vasco/1/move", data={"csrf": token, "move": "a0,0", "number": "1", "comment": "hi!"}
    )
    assert "Played a0,0." in flashes(played.text)
    assert board_row(server).version == 1
    assert outbox_subjects(server)[-2:] == ["Vasco Board 1 bob **", "Vasco Board 1 bob **"]
    again = alice.post("/vasco/1/move", data={"csrf": token, "move": "b1,0", "number": "1"})
    assert "this mail was for move 1: it is stale or came twice" in flashes(again.text)[0]
    turn = alice.post("/vasco/1/move", data={"csrf": token, "move": "b1,0", "number": "2"})
    assert flashes(turn.text) == ["It is not your move on board 1: bob is to move."]
    btoken = csrf(bob, "/vasco/1")
    illegal = bob.post("/vasco/1/move", data={"csrf": btoken, "move": "a5,5", "number": "2"})
    assert any("cannot be played on board 1" in f for f in flashes(illegal.text))
    assert board_row(server).version == 1
    history = bob.get("/vasco/1?at=0")
    assert "after move 0 of 1" in history.text and 'id="move-form"' not in history.text


def test_only_players_act_and_only_when_logged_in(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    vasco_board(alice, bob)
    carol = signed_up(server, "carol")
    token = csrf(carol, "/vasco/1")
    refused = carol.post("/vasco/1/move", data={"csrf": token, "move": "a0,0", "number": "1"})
    assert any("carol does not play on board 1" in f for f in flashes(refused.text))
    visitor = browser(server)
    anonymous = visitor.post("/vasco/1/move", data={"csrf": csrf(visitor), "move": "a0,0"})
    assert anonymous.status_code == 403 and "Log in first" in anonymous.text
    assert board_row(server).version == 0


def test_the_menu_draw_resign_queue_and_chat(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    vasco_board(alice, bob)
    token, btoken = csrf(alice, "/vasco/1"), csrf(bob, "/vasco/1")
    alice.post("/vasco/1/move", data={"csrf": token, "move": "a0,0", "number": "1"})
    queued = alice.post(
        "/vasco/1/special", data={"csrf": token, "what": "queue", "move": "a2,1", "answer": "b1,0"}
    )
    assert "The move is queued." in flashes(queued.text)
    chat = bob.post("/vasco/1/special", data={"csrf": btoken, "what": "chat", "comment": "gg?"})
    assert "Your message was sent." in flashes(chat.text)
    assert "Vasco Board 1 chat from bob" in outbox_subjects(server)
    alice.post("/vasco/1/special", data={"csrf": token, "what": "draw"})
    unconfirmed = bob.post("/vasco/1/special", data={"csrf": btoken, "what": "resign"})
    assert "Tick the box to confirm" in flashes(unconfirmed.text)[0]
    odd = bob.post("/vasco/1/special", data={"csrf": btoken, "what": "dance"})
    assert odd.status_code == 422
    accepted = bob.post("/vasco/1/special", data={"csrf": btoken, "what": "accept"})
    assert "Everyone agreed: the game is drawn." in flashes(accepted.text)
    assert board_row(server).result == "drawn by agreement"
    over = bob.post("/vasco/1/special", data={"csrf": btoken, "what": "resign", "confirm": "yes"})
    assert any("Board 1 is over" in f for f in flashes(over.text))


def test_resigning_from_the_menu(server: Server, alice: TestClient, bob: TestClient) -> None:
    vasco_board(alice, bob)
    token = csrf(alice, "/vasco/1")
    alice.post("/vasco/1/move", data={"csrf": token, "move": "a0,0", "number": "1"})
    alice.post("/vasco/1/special", data={"csrf": token, "what": "resign", "confirm": "yes"})
    assert board_row(server).status == "active"  # out of turn: waits for the turn
    btoken = csrf(bob, "/vasco/1")
    bob.post("/vasco/1/move", data={"csrf": btoken, "move": "b1,0", "number": "2"})
    assert board_row(server).result == "alice resigned; bob wins"
    page = bob.get("/vasco/1")
    assert "Game over.</strong> bob won: alice resigned." in page.text
    assert "/poll" not in page.text


def test_an_open_page_learns_of_the_opponents_move(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    vasco_board(alice, bob)
    found = re.search(
        r'hx-get="/vasco/1/poll\?version=0&amp;revision=(\d+)&amp;active=true"',
        bob.get("/vasco/1").text,
    )
    assert found, "the page polls with its version and revision"
    revision = int(found[1])
    assert bob.get(f"/vasco/1/poll?version=0&revision={revision}&active=true").status_code == 204
    # Chat: the record and the poller come anew, swapped in without a reload.
    alice.post(
        "/vasco/1/special",
        data={"csrf": csrf(alice, "/vasco/1"), "what": "chat", "comment": "Hi <b>bob</b>"},
    )
    chatted = bob.get(f"/vasco/1/poll?version=0&revision={revision}&active=true")
    assert chatted.status_code == 200 and "HX-Refresh" not in chatted.headers
    assert '<section id="record" hx-swap-oob="true">' in chatted.text
    assert "Hi &lt;b&gt;bob&lt;/b&gt;" in chatted.text  # escaped, never markup
    newer = re.search(r"revision=(\d+)", chatted.text)
    assert newer and int(newer[1]) > revision and 'id="poller" hx-swap-oob="true"' in chatted.text
    quiet = bob.get(f"/vasco/1/poll?version=0&revision={newer[1]}&active=true")
    assert quiet.status_code == 204
    alice.post("/vasco/1/move", data={"csrf": csrf(alice, "/vasco/1"), "move": "a0,0"})
    changed = bob.get(f"/vasco/1/poll?version=0&revision={newer[1]}&active=true")
    assert changed.headers.get("HX-Refresh") == "true"


def test_a_challenge_from_the_game_page(server: Server, alice: TestClient, bob: TestClient) -> None:
    token = csrf(alice, "/vacu")
    made = alice.post(
        "/vacu/challenge",
        data={"csrf": token, "first": "alice", "second": "bob", "options": "-size=9",
              "nagtime": "3", "forfeittime": "10"},
    )  # fmt: skip
    assert str(made.url).endswith("/vacu/1") and "Board 1 started." in flashes(made.text)
    with server.sessions() as session:
        board = session.get_one(Board, 1)
        assert (board.nag_days, board.forfeit_days, board.options["size"]) == (3, 10, 9)
    refused = alice.post(
        "/vacu/challenge", data={"csrf": token, "first": "alice", "second": "nobody"}
    )
    assert str(refused.url).endswith("/vacu#challenge")
    assert any("nobody" in f for f in flashes(refused.text))
    days = alice.post(
        "/vacu/challenge",
        data={"csrf": token, "first": "alice", "second": "bob", "nagtime": "soon"},
    )
    assert str(days.url).endswith("/vacu#challenge")
    assert any("The nagtime is a number of days, like 7" in f for f in flashes(days.text))
    with server.sessions() as session:
        assert session.get(Board, 2) is None


def test_a_stranger_cannot_challenge_from_the_web(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    stranger = browser(server)
    token = csrf(stranger, "/vasco")
    sent = stranger.post(
        "/vasco/challenge", data={"csrf": token, "first": "alice", "second": "bob"}
    )
    assert "/login" in str(sent.url) and any("Log in to challenge" in f for f in flashes(sent.text))
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Board)) == 0


def test_logging_out_and_a_new_password_end_every_session(
    server: Server, alice: TestClient
) -> None:
    copied = browser(server)  # the same cookie, stolen or in another browser
    copied.cookies.update(alice.cookies)
    assert copied.get("/account").status_code == 200
    alice.post("/logout", data={"csrf": csrf(alice, "/account")})
    assert copied.get("/account").status_code == 403  # the copy died with the log-out
    again = browser(server)
    token = csrf(again, "/login")
    again.post("/login", data={"csrf": token, "userid": "alice", "password": "pw-alice"})
    other = browser(server)
    other.cookies.update(again.cookies)
    assert other.get("/account").status_code == 200
    token = csrf(again, "/account")
    again.post("/account/password", data={"csrf": token, "current": "pw-alice", "new": "newpass1"})
    assert again.get("/account").status_code == 200  # the one that changed it goes on
    assert other.get("/account").status_code == 403  # every other session ended


def test_a_new_token_never_sits_in_the_session_cookie(server: Server, alice: TestClient) -> None:
    import base64

    made = alice.post(
        "/account/token",
        data={"csrf": csrf(alice, "/account"), "label": "x"},
        follow_redirects=False,  # the answer itself shows it: no redirect through the cookie
    )
    shown = re.search(r'id="new-token">(pbem_[^<]+)<', made.text)
    assert made.status_code == 200 and shown
    for cookie in made.headers.get_list("set-cookie"):
        value = cookie.split(";")[0].partition("=")[2]
        payload = base64.b64decode(value.split(".")[0] + "==").decode("utf-8", "replace")
        assert shown.group(1) not in payload and "new_token" not in payload


def test_the_account_page(server: Server, alice: TestClient) -> None:
    token = csrf(alice, "/account")
    alice.post("/account/mail", data={"csrf": token, "preference": "digest"})
    alice.post("/account/vacation", data={"csrf": token, "state": "on"})
    page = alice.get("/account")
    assert 'value="digest" checked' in page.text and "You are on vacation" in page.text
    wrong = alice.post(
        "/account/password", data={"csrf": token, "current": "bad", "new": "newpass1"}
    )
    assert any("do not match" in f for f in flashes(wrong.text))
    right = alice.post(
        "/account/password", data={"csrf": token, "current": "pw-alice", "new": "newpass1"}
    )
    assert any("Your password is changed" in f for f in flashes(right.text))
    moved = alice.post(
        "/account/addresses",
        data={"csrf": token, "current": "newpass1", "addresses": "a2@example.org"},
    )
    assert "Saved." in flashes(moved.text) and "a2@example.org" in moved.text
    made = alice.post("/account/token", data={"csrf": token, "label": "my bot"})
    shown = re.search(r'id="new-token">(pbem_[^<]+)<', made.text)
    assert shown and "my bot" in made.text
    assert "pbem_" not in alice.get("/account").text  # shown once only
    with server.sessions() as session:
        row = session.scalars(select(ApiToken)).one()
        assert shown.group(1) not in row.token_hash and len(row.token_hash) == 64
        user = session.scalars(select(User).where(PERSON)).one()
        assert (user.mail_preference, user.vacation) == ("digest", True)
    alice.post(f"/account/token/{row.id}/delete", data={"csrf": token})
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(ApiToken)) == 0
    assert alice.post("/account/token/99/delete", data={"csrf": token}).status_code == 404
    assert alice.post("/account/nonsense", data={"csrf": token}).status_code == 404


def test_proposals_show_and_out_of_turn_resignations_say_so(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    vasco_board(alice, bob)
    token, btoken = csrf(alice, "/vasco/1"), csrf(bob, "/vasco/1")
    assert "Accept what is proposed" not in bob.get("/vasco/1").text
    alice.post("/vasco/1/move", data={"csrf": token, "move": "a0,0", "number": "1"})
    voted = alice.post("/vasco/1/special", data={"csrf": token, "what": "draw"})
    assert "Your vote is in; the others have been asked." in flashes(voted.text)
    page = bob.get("/vasco/1")
    assert "alice proposed a draw; waiting for bob." in text(page)
    assert "Accept what is proposed" in page.text
    rejected = bob.post("/vasco/1/special", data={"csrf": btoken, "what": "reject"})
    assert "The proposal is rejected; play goes on." in flashes(rejected.text)
    queued = alice.post(
        "/vasco/1/special", data={"csrf": token, "what": "resign", "confirm": "yes"}
    )
    assert "you resign when your turn comes" in flashes(queued.text)[0]


def test_preview_without_javascript_is_a_page_to_send_from(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    vasco_board(alice, bob)
    token = csrf(alice, "/vasco/1")
    page = alice.post(
        "/vasco/1/preview", data={"csrf": token, "move": "a0,0", "number": "1", "comment": "hi"}
    )
    assert "<h1>Vasco board 1: preview</h1>" in page.text and "<svg" in page.text
    assert 'name="move" value="a0,0"' in page.text and ">hi</textarea>" in page.text
    fragment = alice.post(
        "/vasco/1/preview", data={"csrf": token, "move": "a0,0"}, headers={"HX-Request": "true"}
    )
    assert "<h1>" not in fragment.text and "After a0,0" in fragment.text
    assert board_row(server).version == 0


def test_a_challenge_finds_its_board_when_nobody_wants_board_mail(
    server: Server, alice: TestClient, bob: TestClient
) -> None:
    for client in (alice, bob):
        token = csrf(client, "/account")
        client.post("/account/mail", data={"csrf": token, "preference": "digest"})
    made = alice.post(
        "/vasco/challenge", data={"csrf": csrf(alice), "first": "alice", "second": "bob"}
    )
    assert str(made.url).endswith("/vasco/1") and "Board 1 started." in flashes(made.text)
