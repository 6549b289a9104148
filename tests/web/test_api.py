"""The JSON API on a real SQLite database: every operation, its errors and
their status codes, tokens, and that acting through the API sends the same
mails as the mail commands. The tests of tokens and of playing run on
PostgreSQL too (`BOTH_ENGINES`): a token is read, checked and stamped with
its last use in plain SQL there as well."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, event, func, select

from pbem.games import get_game
from pbem.server import Server
from pbem.server.api_tokens import token_hash
from pbem.server.players import passwords
from pbem.server.players.accounts import find_user
from pbem.server.views.recent import Recent
from pbem.settings import Settings
from pbem.store import ApiToken, Board, OutboxMessage, make_engine, session_factory
from pbem.web import create_app
from pbem.web.api import status_for
from pbem.web.api_models import ActionResult
from tests.conftest import ENGINES, upgraded_database_url
from tests.server.test_commands import Clock

# For a test that runs on both engines: the `server` fixture's database.
BOTH_ENGINES = pytest.mark.parametrize("server", ENGINES, indirect=True)


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """The server on a new SQLite database, or on PostgreSQL for a test
    marked with BOTH_ENGINES."""
    kind = getattr(request, "param", "sqlite")
    engine = make_engine(upgraded_database_url(kind, request, tmp_path))
    yield Server(session_factory(engine), Clock())
    engine.dispose()


@pytest.fixture
def client(server: Server) -> TestClient:
    return TestClient(create_app(server, Settings(secret_key="k" * 32)))


def make_token(server: Server, name: str) -> str:
    """Sign `name` up (by the command layer) and give them an API token."""
    [reply] = server.handle(f"{name}@example.org", f"signup {name} pw-{name}").mails
    assert reply.error is None, reply.error
    token = "pbem_" + secrets.token_urlsafe(30)
    with server.sessions.begin() as session:
        user = find_user(session, name)
        assert user is not None
        session.add(
            ApiToken(
                user_id=user.id,
                label="test",
                token_hash=token_hash(token),
                created_at=server.clock(),
            )
        )
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def tokens(server: Server) -> dict[str, str]:
    return {name: make_token(server, name) for name in ("alice", "bob", "carol")}


def outbox(server: Server) -> list[OutboxMessage]:
    with server.sessions() as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def challenge(client: TestClient, token: str, game: str = "vasco", **extra: Any) -> dict[str, Any]:
    response = client.post(
        f"/api/{game}/boards",
        json={"first": "alice", "second": "bob", **extra},
        headers=bearer(token),
    )
    assert response.status_code == 201, response.text
    return response.json()


def move(
    client: TestClient,
    token: str,
    text: str,
    number: int | None = None,
    board: int = 1,
    **extra: Any,
) -> Any:
    body: dict[str, Any] = {"move": text, **extra}
    if number is not None:
        body["number"] = number
    return client.post(f"/api/vasco/boards/{board}/move", json=body, headers=bearer(token))


def refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert words in body["error"], body["error"]


# ------------------------------------------------------------------ reading


def test_games_list_their_seats_and_options_with_defaults(client: TestClient) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    games = {game["name"]: game for game in response.json()}
    assert list(games) == ["vasco", "trugo", "vacu", "convacu"]
    vasco = games["vasco"]
    assert vasco["title"] == "Vasco" and vasco["players"] == 2
    assert [side["name"] for side in vasco["sides"]] == ["Red", "Blue"]
    options = {option["name"]: option for option in vasco["options"]}
    assert options["size"]["default"] == 54 and options["size"]["kind"] == "number"
    assert options["strict"]["default"] is False and options["strict"]["kind"] == "flag"
    assert games["vacu"]["swap_move"] == "black" and games["vacu"]["can_pass"] is True
    assert options["size"]["minimum"] == 1


def test_a_board_reads_without_a_token(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    challenge(client, tokens["alice"], options=["size=30"], nagtime=3, forfeittime=10)
    move(client, tokens["alice"], "a0,0", 1, comment="Good luck")
    board = client.get("/api/vasco/boards/1").json()
    assert board["id"] == 1 and board["game"] == "vasco" and board["title"] == "Vasco"
    assert [(p["seat"], p["userid"], p["side"]) for p in board["players"]] == [
        (0, "alice", "Red (O)"),
        (1, "bob", "Blue (X)"),
    ]
    assert board["status"] == "active" and board["to_move"] == "bob"
    assert board["version"] == 1 and board["next_move"] == 2 and board["result"] is None
    assert board["options"] == {"size": 30, "strict": False}
    assert board["timing"] == {"nag_days": 3, "forfeit_days": 10, "total_days": None}
    [first] = board["moves"]
    assert first["number"] == 1 and first["player"] == "alice" and first["move"] == "a0,0"
    assert first["comment"] == "Good luck" and first["auto"] is False
    assert board["shown"] == 1 and board["status_line"] == "Move 2: Blue (X) to move."
    position = board["position"]
    assert position["game"] == "vasco" and position["moves"] == ["a0,0"]
    assert position["to_move"] == 1 and position["position"]["pool"] == 29
    assert position["legal_moves"]

    start = client.get("/api/vasco/boards/1", params={"at": 0}).json()
    assert start["shown"] == 0 and start["position"]["moves"] == []
    assert start["version"] == 1 and len(start["moves"]) == 1  # the record stays whole
    assert start["status_line"] == "Move 1: Red (O) to move."
    assert client.get("/api/vasco/boards/1", params={"at": 99}).json()["shown"] == 1


def test_the_svg_picture(client: TestClient, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"])
    move(client, tokens["alice"], "a0,0")
    response = client.get("/api/vasco/boards/1/svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in response.text
    empty = client.get("/api/vasco/boards/1/svg", params={"at": 0})
    assert empty.status_code == 200 and "<svg" in empty.text and empty.text != response.text
    refused(client.get("/api/vasco/boards/7/svg"), 404, "There is no Vasco board 7")
    refused(client.get("/api/chess/boards/1/svg"), 404, "No game called 'chess'")


def test_board_lists_by_filter(client: TestClient, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"])
    challenge(client, tokens["carol"], first="carol", second="bob", options=["-size=3"])
    move(client, tokens["carol"], "a0,0", board=2)
    move(client, tokens["bob"], "a-1,-1", board=2)  # board 2 is over: size 3

    def ids(show: str, token: str | None = None) -> list[int]:
        headers = bearer(token) if token else {}
        response = client.get("/api/vasco/boards", params={"show": show}, headers=headers)
        assert response.status_code == 200, response.text
        assert response.json()["show"] == show
        return [line["id"] for line in response.json()["boards"]]

    assert ids("active") == [1]
    assert ids("finished") == [2]
    assert ids("mine", tokens["alice"]) == [1]
    assert ids("mine", tokens["bob"]) == [2, 1]
    assert ids("awaiting", tokens["alice"]) == [1]
    assert ids("awaiting", tokens["bob"]) == []
    [line] = client.get("/api/vasco/boards").json()["boards"]
    assert line["players"] == ["alice", "bob"] and line["to_move"] == "alice"
    assert line["move"] == 1 and line["status"] == "alice to move" and not line["finished"]
    assert client.get("/api/trugo/boards").json()["boards"] == []
    refused(client.get("/api/vasco/boards", params={"show": "mine"}), 401, "needs an API token")
    refused(client.get("/api/vasco/boards", params={"show": "awaiting"}), 401, "Bearer")
    refused(client.get("/api/vasco/boards", params={"show": "mystery"}), 422, "show")
    refused(client.get("/api/nosuch/boards"), 404, "No game called 'nosuch'")


def test_standings_and_players(client: TestClient, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"], options=["-size=3"])
    move(client, tokens["alice"], "a0,0", 1)
    move(client, tokens["bob"], "a-1,-1", 2)  # bob wins: red's path is longer
    standings = client.get("/api/vasco/standings").json()
    assert standings["game"] == "vasco"
    sections = {section["name"]: section["players"] for section in standings["sections"]}
    assert list(sections) == ["Established", "Provisional", "Inactive"]
    [first, second] = sections["Provisional"]
    assert (first["rank"], first["userid"], first["wins"]) == (1, "bob", 1)
    assert (second["rank"], second["userid"], second["losses"]) == (2, "alice", 1)
    assert first["rating"] > second["rating"]
    refused(client.get("/api/chess/standings"), 404, "No game called 'chess'")

    challenge(client, tokens["carol"], first="carol", second="alice")
    alice = client.get("/api/players/ALICE").json()
    assert alice["userid"] == "alice" and alice["vacation"] is False
    [rating] = alice["ratings"]
    assert rating["game"] == "vasco" and rating["games"] == 1 and rating["losses"] == 1
    assert [line["id"] for line in alice["active"]] == [2]
    assert [line["id"] for line in alice["finished"]] == [1]
    assert alice["awaiting"] == []
    carol = client.get("/api/players/carol").json()
    assert [line["id"] for line in carol["awaiting"]] == [2]
    refused(client.get("/api/players/nobody"), 404, "There is no user 'nobody'")


def test_unknown_games_and_boards_are_404(client: TestClient, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"])
    refused(client.get("/api/vasco/boards/7"), 404, "There is no Vasco board 7")
    refused(client.get("/api/trugo/boards/1"), 404, "There is no Trugo board 1")
    refused(client.get("/api/chess/boards/1"), 404, "No game called 'chess'")
    refused(client.get("/api/vasco/boards/x"), 422, "board_id")
    refused(move(client, tokens["alice"], "a0,0", board=7), 404, "There is no Vasco board 7")
    response = client.post(
        "/api/chess/boards/1/move", json={"move": "a0,0"}, headers=bearer(tokens["alice"])
    )
    refused(response, 404, "No game called 'chess'")
    response = client.post("/api/vasco/boards/9/resign", headers=bearer(tokens["alice"]))
    refused(response, 404, "There is no Vasco board 9")
    refused(client.get("/api/nothing/here/at/all"), 404, "The API has no /api/nothing/here")
    wrong = client.get("/api/vasco/boards/1/move")
    refused(wrong, 405, "GET is not allowed on /api/vasco/boards/1/move: use POST")
    assert wrong.headers["allow"] == "POST"
    refused(client.delete("/api/games"), 405, "use GET")


# -------------------------------------------------------------------- tokens


@BOTH_ENGINES
def test_acting_needs_a_known_token(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    challenge(client, tokens["alice"])
    response = client.post("/api/vasco/boards/1/move", json={"move": "a0,0"})
    refused(response, 401, "This needs an API token: make one on your account page")
    assert response.headers["www-authenticate"] == "Bearer"
    response = move(client, "pbem_not-a-token", "a0,0")
    refused(response, 401, "not known (revoked, or mistyped): make one on your account page")
    assert "'Authorization: Bearer TOKEN'" in response.json()["error"]
    assert response.headers["www-authenticate"] == "Bearer"
    response = client.post(
        "/api/vasco/boards/1/move", json={"move": "a0,0"}, headers={"Authorization": "Basic eDp5"}
    )
    refused(response, 401, "not 'Bearer TOKEN'")
    refused(client.post("/api/command", json={"command": "list"}), 401, "API token")
    refused(client.post("/api/vasco/boards", json={"first": "a", "second": "b"}), 401, "token")
    refused(client.post("/api/vasco/boards/1/resign"), 401, "token")
    refused(client.get("/api/me"), 401, "token")
    # a wrong token is refused even where none is needed, rather than ignored
    refused(client.get("/api/vasco/boards", headers=bearer("pbem_x")), 401, "not known")
    with server.sessions() as session:
        assert session.scalar(select(Board.version)) == 0


@BOTH_ENGINES
def test_an_acting_request_takes_one_trip_to_the_thread_pool(
    client: TestClient, tokens: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The token is read from its header on the event loop and looked up in
    the endpoint's own thread: a dependency doing the lookup in a thread of
    its own made each move wait in the pool's queue twice under load."""
    challenge(client, tokens["alice"])
    trips: list[object] = []
    real = anyio.to_thread.run_sync

    async def counted(function: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(function)
        return await real(function, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    assert move(client, tokens["alice"], "a0,0", 1).status_code == 200
    assert len(trips) == 1
    refused(move(client, "pbem_not-a-token", "a1,0"), 401, "not known")
    assert len(trips) == 2
    chat = client.post(
        "/api/vasco/boards/1/chat", json={"comment": "hi"}, headers=bearer(tokens["bob"])
    )
    assert chat.status_code == 200, chat.text
    assert len(trips) == 3


@BOTH_ENGINES
def test_a_token_says_who_and_when_it_was_last_used(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    with server.sessions() as session:
        assert session.scalar(select(func.count()).where(ApiToken.last_used_at.is_not(None))) == 0
    me = client.get("/api/me", headers=bearer(tokens["bob"]))
    assert me.status_code == 200
    assert me.json() == {
        "userid": "bob",
        "addresses": ["bob@example.org"],
        "mail_preference": "every",
        "vacation": False,
    }
    first = server.clock()
    assert last_use(server, tokens["bob"]) == first
    clock = server.clock
    assert isinstance(clock, Clock)
    clock.advance(minutes=4)  # noted at most every five minutes: no write for each request
    assert client.get("/api/me", headers=bearer(tokens["bob"])).status_code == 200
    assert last_use(server, tokens["bob"]) == first
    clock.advance(minutes=1)
    assert client.get("/api/me", headers=bearer(tokens["bob"])).status_code == 200
    assert last_use(server, tokens["bob"]) == first + timedelta(minutes=5)


@BOTH_ENGINES
def test_a_plain_move_reads_its_token_with_its_board(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    """A move through the API looks its token up in the statement that reads
    the board's seats (quick_move.py), not in one of its own before it; a
    token whose use is due to be noted, or one revoked, goes the way every
    request goes: its own look-up, which notes the use or refuses."""
    challenge(client, tokens["alice"], "trugo")
    engine = server.sessions.kw["bind"]
    state = get_game("trugo").start()
    clock = server.clock
    assert isinstance(clock, Clock)

    def play(name: str) -> tuple[int, list[str]]:
        """Play the first legal move as `name`: the answer's status, and the
        statements that read or wrote a token."""
        nonlocal state
        text = state.move_text(state.legal_moves()[0])
        said: list[str] = []

        def note(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
            said.append(" ".join(statement.split()))

        body = {"move": text, "number": len(state.moves) + 1}
        event.listen(engine, "before_cursor_execute", note)
        try:
            response = client.post(
                "/api/trugo/boards/1/move", json=body, headers=bearer(tokens[name])
            )
        finally:
            event.remove(engine, "before_cursor_execute", note)
        if response.status_code == 200:
            state = state.play_text(text)
        return response.status_code, [line for line in said if "api_tokens" in line]

    def with_the_seats(lines: list[str]) -> bool:
        """The token read once, in the statement that reads the seats."""
        return len(lines) == 1 and "board_players" in lines[0]

    status, token_lines = play("alice")  # her token's use was noted by the challenge
    assert status == 200 and with_the_seats(token_lines)
    status, token_lines = play("bob")  # his token's first use: noted
    assert status == 200 and any(line.startswith("UPDATE api_tokens") for line in token_lines)
    assert last_use(server, tokens["bob"]) == clock()
    status, token_lines = play("alice")
    assert status == 200 and with_the_seats(token_lines)
    clock.advance(minutes=5)  # due to be noted again
    status, token_lines = play("bob")
    assert status == 200 and any(line.startswith("UPDATE api_tokens") for line in token_lines)
    assert last_use(server, tokens["bob"]) == clock()
    with server.sessions.begin() as session:
        session.execute(delete(ApiToken).where(ApiToken.token_hash == token_hash(tokens["alice"])))
    status, _ = play("alice")
    assert status == 401 and len(state.moves) == 4
    board = client.get("/api/trugo/boards/1").json()
    assert board["version"] == 4 and board["to_move"] == "alice"
    carol = client.post(
        "/api/trugo/boards/1/move", json={"move": "a0,0"}, headers=bearer(tokens["carol"])
    )
    refused(carol, 403, "carol does not play on board 1")
    unknown = client.post("/api/nogame/boards/1/move", json={"move": "a0,0"}, headers=bearer("x"))
    refused(unknown, 401, "not known")  # the token is refused before the game is looked up


def last_use(server: Server, token: str) -> datetime | None:
    with server.sessions() as session:
        return session.scalar(
            select(ApiToken.last_used_at).where(ApiToken.token_hash == token_hash(token))
        )


def test_a_token_made_on_the_account_page_works(client: TestClient) -> None:
    def csrf(path: str) -> str:
        found = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
        assert found, path
        return found.group(1)

    signup = {"userid": "dora", "password": "pw-dora", "address": "dora@example.org"}
    response = client.post("/signup", data={"csrf": csrf("/signup"), **signup})
    assert response.status_code == 200, response.text  # redirected to the account page
    page = client.post("/account/token", data={"csrf": csrf("/account"), "label": "bot"})
    shown = re.search(r"pbem_[A-Za-z0-9_-]{40}", page.text)  # after the redirect
    assert shown, "the new token is shown once"
    me = TestClient(client.app).get("/api/me", headers=bearer(shown.group(0)))
    assert me.status_code == 200 and me.json()["userid"] == "dora"


# ------------------------------------------------------------------- playing


@BOTH_ENGINES
def test_a_whole_vasco_game_through_the_api(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    made = challenge(client, tokens["carol"], options=["-size=3"])
    assert made["ok"] is True and made["board"]["id"] == 1
    assert made["board"]["to_move"] == "alice" and made["board"]["next_move"] == 1
    # the answer shows carol her own mail only; the players' went out all the same
    assert sorted(address for m in made["messages"] for address in m["to"]) == ["carol@example.org"]
    assert sent_to(server) == {"alice@example.org", "bob@example.org", "carol@example.org"}
    assert {m["subject"] for m in made["messages"]} == {"New Vasco Board 1 alice"}

    first = move(client, tokens["alice"], "a0,0", 1, comment="Hello Bob")
    assert first.status_code == 200, first.text
    result = first.json()
    assert result["ok"] is True and result["board"]["version"] == 1
    assert result["board"]["to_move"] == "bob"
    assert {tuple(m["to"]) for m in result["messages"]} == {("alice@example.org",)}
    assert sent_to(server, "Vasco Board 1 bob **") == {"alice@example.org", "bob@example.org"}
    assert all(m["subject"] == "Vasco Board 1 bob **" for m in result["messages"])
    assert all("Hello Bob" in m["body"] for m in result["messages"])

    last = move(client, tokens["bob"], "a-1,-1", 2).json()
    board = last["board"]
    assert board["status"] == "finished" and board["to_move"] is None
    assert board["result"]["winner"] == 1 and board["result"]["winner_userid"] == "bob"
    assert "red loses" in board["result"]["reason"]
    assert board["position"]["result"]["winner"] == 1
    assert [m["move"] for m in board["moves"]] == ["a0,0", "a-1,-1"]
    assert board["moves"][1]["note"] == "auto b-1,0"
    assert all(m["subject"] == "Vasco Board 1 game over" for m in last["messages"])

    refused(move(client, tokens["alice"], "a1,0"), 409, "Board 1 is over")
    subjects = [m.subject for m in outbox(server) if "Vasco Board 1" in m.subject]
    # carol, who challenged, gets the first board mail too; then the players
    expected = ["New Vasco Board 1 alice"] * 3 + ["Vasco Board 1 bob **"] * 2
    assert subjects == [*expected, "Vasco Board 1 game over", "Vasco Board 1 game over"]
    api_mail = [m for m in outbox(server) if m.subject == "Vasco Board 1 bob **"]
    assert sorted(r for m in api_mail for r in m.recipients) == [
        "alice@example.org",
        "bob@example.org",
    ]


@BOTH_ENGINES
def test_the_api_sends_what_the_mail_command_sends(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    """The same move by API and by mail (on two equal boards) sends mails
    that differ only in the board number."""
    challenge(client, tokens["alice"])
    challenge(client, tokens["alice"])
    by_api = move(client, tokens["alice"], "a0,0", 1, board=1).json()["messages"]
    by_mail = server.handle("alice@example.org", "vasco move 2 alice pw-alice a0,0#1")
    assert [(m["to"], m["subject"].replace(" 1 ", " 2 ")) for m in by_api] == [
        (list(m.to), m.subject) for m in by_mail.mails if m.to == ("alice@example.org",)
    ]  # (the API answers with alice's own mails; bob's went to the outbox alike)
    assert [m["body"].replace("board 1", "board 2") for m in by_api] == [
        m.body.replace("board 1", "board 2")
        for m in by_mail.mails
        if m.to == ("alice@example.org",)
    ]


@BOTH_ENGINES
def test_refused_moves_and_their_status(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    challenge(client, tokens["alice"])
    before = len(outbox(server))
    refused(move(client, tokens["bob"], "a0,0"), 409, "It is not your move on board 1: alice")
    refused(move(client, tokens["carol"], "a0,0"), 403, "carol does not play on board 1")
    refused(move(client, tokens["alice"], "a0,0", 2), 409, "this mail was for move 2")
    refused(move(client, tokens["alice"], "a5,5"), 409, "the first tile must be placed at 0,0")
    refused(move(client, tokens["alice"], "q9"), 422, "Move q9 cannot be played on board 1")
    # the refusals were answered here, not also by mail, and changed nothing
    assert outbox(server)[before:] == []
    board = client.get("/api/vasco/boards/1").json()
    assert board["version"] == 0 and board["moves"] == []

    # the body is checked before anything runs: no command, no mail
    refused(move(client, tokens["alice"], "a0,0 b1,0"), 422, "move")
    refused(move(client, tokens["alice"], "a0,0#1"), 422, "move")
    refused(move(client, tokens["alice"], ""), 422, "move")
    refused(move(client, tokens["alice"], "a0,0", 0), 422, "number")
    refused(
        client.post("/api/vasco/boards/1/move", json={}, headers=bearer(tokens["alice"])),
        422,
        "move",
    )
    assert len(outbox(server)) == before

    assert move(client, tokens["alice"], "a0,0", 1).status_code == 200
    refused(move(client, tokens["alice"], "a1,0", 1), 409, "this mail was for move 1")
    refused(move(client, tokens["alice"], "a1,0"), 409, "It is not your move on board 1: bob")


def test_preview_changes_nothing(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    challenge(client, tokens["alice"], options=["-size=3"])
    before = len(outbox(server))
    response = client.post("/api/vasco/boards/1/preview", json={"moves": ["A0,0"]})
    assert response.status_code == 200, response.text
    preview = response.json()
    assert preview["moves"] == ["a0,0"] and preview["to_move"] == "bob"
    assert preview["status_line"] == "Move 2: Blue (X) to move."
    assert preview["position"]["moves"] == ["a0,0"] and preview["svg"] is None
    over = client.post(
        "/api/vasco/boards/1/preview", json={"moves": ["a0,0", "a-1,-1"], "svg": True}
    ).json()
    assert over["to_move"] is None and over["result"]["winner"] == 1
    assert "<svg" in over["svg"]
    refused(
        client.post("/api/vasco/boards/1/preview", json={"moves": ["a0,0", "a0,0"]}),
        409,
        "Move 2 (a0,0) cannot be played",
    )
    refused(client.post("/api/vasco/boards/1/preview", json={"moves": ["zz"]}), 422, "Move 1 (zz)")
    refused(client.post("/api/vasco/boards/5/preview", json={"moves": []}), 404, "board 5")
    refused(client.post("/api/vasco/boards/1/preview", json={}), 422, "moves")
    board = client.get("/api/vasco/boards/1").json()
    assert board["version"] == 0 and board["status"] == "active"
    assert len(outbox(server)) == before  # nothing mailed

    move(client, tokens["alice"], "a0,0", 1)
    back = client.post("/api/vasco/boards/1/preview", json={"moves": ["b0,0"], "at": 0}).json()
    assert back["moves"] == ["b0,0"] and back["position"]["moves"] == ["b0,0"]
    assert client.get("/api/vasco/boards/1").json()["version"] == 1


# ------------------------------------------------------------------ actions


def action(
    client: TestClient, token: str, what: str, board: int = 1, game: str = "vasco", **body: Any
) -> Any:
    return client.post(
        f"/api/{game}/boards/{board}/{what}", json=body or None, headers=bearer(token)
    )


def test_draw_by_agreement(client: TestClient, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"])
    refused(action(client, tokens["alice"], "accept"), 409, "Nothing is proposed on board 1")
    proposed = action(client, tokens["alice"], "draw").json()
    assert proposed["board"]["proposals"] == {"draw": ["alice"]}
    assert {m["subject"] for m in proposed["messages"]} == {"Vasco Board 1 draw proposed"}
    refused(action(client, tokens["carol"], "accept"), 403, "carol does not play on board 1")
    done = action(client, tokens["bob"], "accept").json()
    assert done["board"]["status"] == "finished" and done["board"]["proposals"] == {}
    assert done["board"]["result"] == {
        "winner": None,
        "winner_userid": None,
        "reason": "drawn by agreement",
        "ending": "agreed draw",
    }
    refused(action(client, tokens["alice"], "propose"), 409, "Board 1 is over")


def test_undo_and_reject(client: TestClient, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"])
    refused(action(client, tokens["alice"], "undo"), 409, "no move to take back yet")
    move(client, tokens["alice"], "a0,0", 1)
    assert action(client, tokens["alice"], "undo").json()["board"]["proposals"] == {
        "undo": ["alice"]
    }
    rejected = action(client, tokens["bob"], "reject").json()
    assert rejected["board"]["proposals"] == {} and rejected["board"]["version"] == 1
    assert "bob rejects taking back the last move" in rejected["messages"][0]["body"]
    action(client, tokens["bob"], "undo")
    undone = action(client, tokens["alice"], "accept").json()["board"]
    assert undone["version"] == 0 and undone["moves"] == [] and undone["to_move"] == "alice"


def test_resign_chat_and_queue(client: TestClient, server: Server, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"])
    chat = action(client, tokens["bob"], "chat", comment="Ready when you are")
    assert chat.status_code == 200, chat.text
    # bob sees his receipt; the chat itself went to alice
    assert [m["subject"] for m in chat.json()["messages"]] == ["Vasco Board 1 chat sent"]
    assert "alice@example.org" in sent_to(server, "Vasco Board 1 chat from bob")
    refused(action(client, tokens["bob"], "chat"), 422, "A chat needs a message")

    refused(action(client, tokens["bob"], "queue"), 422, "Give the move to queue")
    refused(
        action(client, tokens["alice"], "queue", move="a0,0", **{"if": "b1,0"}),
        409,
        "It is your move",
    )
    queued = action(client, tokens["bob"], "queue", move="a-1,-1", **{"if": "a0,0"})
    assert queued.status_code == 200, queued.text
    refused(action(client, tokens["bob"], "queue", move="a1,0", **{"if": "zz"}), 409, "zz")
    played = move(client, tokens["alice"], "a0,0", 1, comment="go").json()["board"]
    assert [(m["move"], m["auto"]) for m in played["moves"]] == [("a0,0", False), ("a-1,-1", True)]
    assert played["to_move"] == "alice"

    refused(action(client, tokens["alice"], "swap"), 422, "Vasco has no swap step")
    refused(action(client, tokens["alice"], "pass"), 422, "Vasco has no passing")
    refused(action(client, tokens["alice"], "dance"), 422, "action")

    resigned = action(client, tokens["alice"], "resign").json()["board"]
    assert resigned["status"] == "finished"
    assert resigned["result"]["winner_userid"] == "bob"
    assert resigned["result"]["reason"] == "alice resigned; bob wins"
    refused(action(client, tokens["bob"], "resign"), 409, "Board 1 is over")


def test_swap_and_pass_in_vacu(client: TestClient, tokens: dict[str, str]) -> None:
    challenge(client, tokens["alice"], game="vacu")
    played = client.post(
        "/api/vacu/boards/1/move",
        json={"move": "komi5", "number": 1},
        headers=bearer(tokens["alice"]),
    )
    assert played.status_code == 200, played.text
    refused(action(client, tokens["bob"], "swap", game="vacu", number=1), 409, "for move 1")
    swapped = action(client, tokens["bob"], "swap", game="vacu", number=2).json()["board"]
    assert swapped["moves"][-1]["move"] == "black" and swapped["to_move"] == "bob"
    refused(action(client, tokens["bob"], "swap", game="vacu"), 409, "is past it")
    refused(action(client, tokens["bob"], "pass", game="vacu"), 409, "button is untaken")
    client.post("/api/vacu/boards/1/move", json={"move": "button"}, headers=bearer(tokens["bob"]))
    passed = action(client, tokens["alice"], "pass", game="vacu", number=4, comment="pass!")
    assert passed.status_code == 200, passed.text
    last = passed.json()["board"]["moves"][-1]
    assert (last["move"], last["comment"]) == ("pass", "pass!")


def test_challenge_errors(client: TestClient, tokens: dict[str, str]) -> None:
    def attempt(**body: Any) -> Any:
        return client.post(
            "/api/vasco/boards",
            json={"first": "alice", "second": "bob", **body},
            headers=bearer(tokens["carol"]),
        )

    refused(attempt(second="nobody"), 404, "There is no user 'nobody'")
    refused(attempt(second="alice"), 422, "only on a board they start themselves")
    refused(attempt(options=["-colour=red"]), 422, "Unknown option -colour for Vasco")
    refused(attempt(options=["-size=0"]), 422, "too small")
    refused(attempt(nagtime=10, forfeittime=5), 422, "must be longer than the nag time")
    refused(attempt(nagtime=0), 422, "nagtime")
    refused(attempt(first="two words"), 422, "first")
    refused(
        client.post(
            "/api/chess/boards", json={"first": "a", "second": "b"}, headers=bearer(tokens["carol"])
        ),
        404,
        "No game called 'chess'",
    )
    made = attempt(options=["strict", "-size=20"], totaltime=30)
    assert made.status_code == 201
    assert made.json()["board"]["options"] == {"size": 20, "strict": True}
    assert made.json()["board"]["timing"]["total_days"] == 30


def test_challenge_finds_its_board_when_no_one_wants_board_mail(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    for name in ("alice", "bob"):
        server.handle(f"{name}@example.org", f"mail {name} pw-{name} none")
    challenge(client, tokens["carol"])
    made = client.post(
        "/api/vasco/boards",
        json={"first": "alice", "second": "bob"},
        headers=bearer(tokens["alice"]),
    )
    assert made.status_code == 201 and made.json()["board"]["id"] == 2
    assert made.json()["messages"] == []


# ------------------------------------------------------------ the escape hatch


def test_any_command_through_the_api(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    challenge(client, tokens["alice"])

    def command(line: str, token: str = tokens["carol"], body: str = "") -> Any:
        return client.post(
            "/api/command", json={"command": line, "body": body}, headers=bearer(token)
        )

    subscribed = command("vasco subscribe carol - 1")
    assert subscribed.status_code == 200, subscribed.text
    assert subscribed.json()["ok"] is True
    assert subscribed.json()["messages"][0]["to"] == ["carol@example.org"]
    shown = command("vasco show 1").json()["messages"]
    assert shown[0]["subject"] == "Vasco Board 1 alice"
    moved = move(client, tokens["alice"], "a0,0", 1).json()["messages"]
    assert all(m["to"] == ["alice@example.org"] for m in moved)
    assert "carol@example.org" in sent_to(server, "Vasco Board 1 bob")  # the subscriber's copy
    assert command("mail carol - digest").status_code == 200
    assert (
        client.get("/api/me", headers=bearer(tokens["carol"])).json()["mail_preference"] == "digest"
    )
    message = command("message carol - bob", body="Hi Bob").json()["messages"]
    assert all(m["to"] == ["carol@example.org"] for m in message)
    assert "bob@example.org" in sent_to(server)

    refused(command("vasco subscribe alice - 1"), 403, "do not match")
    refused(command("vasco move 1 carol - a1,0"), 403, "carol does not play on board 1")
    refused(command("vasco move 1 bob - a1,0", tokens["bob"]), 409, "cannot be played on board 1")
    refused(command("vasco move 1 bob - a1,0#1", tokens["bob"]), 409, "this mail was for move 1")
    refused(command("vasco move 9 bob - a1,0", tokens["bob"]), 404, "There is no Vasco board 9")
    refused(command("chess move 1 bob - a1,0"), 422, "'chess' is no command or game")
    refused(command("vasco dance"), 422, "'dance' is no Vasco command")
    refused(command("vasco limit carol - lots"), 422, "Write a number of boards")
    refused(command("signup alice secret"), 409, "The userid 'alice' is taken")
    refused(command("multiple", body="list"), 422, "'multiple' is for mail")
    refused(command("   "), 422, "empty")
    refused(client.post("/api/command", json={}, headers=bearer(tokens["carol"])), 422, "command")


@BOTH_ENGINES
def test_a_password_the_api_still_asks_for_is_checked_once_in_the_lane(
    client: TestClient, server: Server, tokens: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`change password` asks for the password even with a token: its argon2
    work (checking the old one, hashing the new one) is handed out to the
    password lane and the command runs again (web/password_lane.py). A wrong
    one is refused and changes nothing; a right one changes it once, with
    one mail."""
    monkeypatch.setattr(passwords, "VERDICTS", passwords.Verdicts())  # (none checked yet)
    checks: list[str] = []
    real_do = passwords.PasswordWork.do

    def counted(work: passwords.PasswordWork) -> None:
        checks.append("hash" if work.hashing else "check")
        real_do(work)

    monkeypatch.setattr(passwords.PasswordWork, "do", counted)

    def command(line: str) -> Any:
        return client.post("/api/command", json={"command": line}, headers=bearer(tokens["carol"]))

    refused(command("change password carol wrong-pw new-pw-1"), 403, "do not match")
    changed = command("change password carol pw-carol new-pw-1")
    assert changed.status_code == 200, changed.text
    assert [m["subject"] for m in changed.json()["messages"]] == ["pbem change password carol"]
    refused(command("change password carol pw-carol new-pw-2"), 403, "do not match")
    assert command("change password carol new-pw-1 new-pw-2").status_code == 200
    # each argon2 work once: a check for each password met for the first time
    # (the new one's verdict is remembered with its fresh hash), a hash for each change
    assert checks == ["check", "check", "hash", "check", "hash"]
    mails = [row.subject for row in outbox(server) if row.subject == "pbem change password carol"]
    assert len(mails) == 2


def test_status_mapping_of_the_kinds_of_refusal() -> None:
    assert [status_for(kind) for kind in ("forbidden", "not_found", "conflict")] == [403, 404, 409]
    assert status_for("malformed") == 422 and status_for(None) == 422


# ------------------------------------------------------------------- the docs


def test_the_openapi_document_lists_every_operation(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    operations = {
        (method.upper(), path)
        for path, item in document["paths"].items()
        if path.startswith("/api/")
        for method in item
    }
    assert operations == {
        ("GET", "/api/games"),
        ("GET", "/api/me"),
        ("POST", "/api/command"),
        ("GET", "/api/players/{userid}"),
        ("GET", "/api/{game}/standings"),
        ("GET", "/api/{game}/boards"),
        ("POST", "/api/{game}/boards"),
        ("GET", "/api/{game}/boards/{board_id}"),
        ("GET", "/api/{game}/boards/{board_id}/svg"),
        ("GET", "/api/{game}/boards/{board_id}/hint"),
        ("POST", "/api/{game}/boards/{board_id}/move"),
        ("POST", "/api/{game}/boards/{board_id}/preview"),
        ("POST", "/api/{game}/boards/{board_id}/{action}"),
        ("GET", "/api/{game}/open"),
        ("POST", "/api/{game}/open"),
        ("POST", "/api/{game}/open/{number}/take"),
        ("DELETE", "/api/{game}/open/{number}"),
    }
    assert not [p for p in document["paths"] if not p.startswith("/api/")]  # pages stay out
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert operation.get("description"), (method, path)
            assert operation.get("summary"), (method, path)
    schemas = document["components"]["schemas"]
    for name in (
        "ErrorBody",
        "GameInfo",
        "BoardDetail",
        "BoardList",
        "MoveRequest",
        "PreviewRequest",
        "PreviewResult",
        "ActionRequest",
        "ActionResult",
        "ChallengeRequest",
        "CommandRequest",
        "CommandResult",
        "Standings",
        "PlayerInfo",
    ):
        assert name in schemas, name
    assert set(schemas["MoveRequest"]["properties"]) == {"move", "number", "comment"}
    assert "if" in schemas["ActionRequest"]["properties"]
    move_op = document["paths"]["/api/{game}/boards/{board_id}/move"]["post"]
    assert {"401", "403", "404", "409", "422"} <= set(move_op["responses"])
    assert move_op["security"] == [{"HTTPBearer": []}]
    assert document["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    action = document["paths"]["/api/{game}/boards/{board_id}/{action}"]["post"]
    [path_action] = [p for p in action["parameters"] if p["name"] == "action"]
    assert path_action["schema"]
    assert set(schemas["Action"]["enum"]) == {
        "resign", "propose", "draw", "undo", "accept", "reject", "swap", "pass", "chat", "queue",
        "hint",
    }  # fmt: skip
    svg = document["paths"]["/api/{game}/boards/{board_id}/svg"]["get"]
    assert "image/svg+xml" in svg["responses"]["200"]["content"]


def test_the_docs_page_serves(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    assert "swagger" in response.text.lower() and "/openapi.json" in response.text
    assert "https://" not in response.text  # no CDN: the files are ours
    for asset in ("/static/swagger/swagger-ui-bundle.js", "/static/swagger/swagger-ui.css"):
        assert asset in response.text and client.get(asset).status_code == 200


def test_the_board_json_is_never_stale(
    server: Server, client: TestClient, tokens: dict[str, str]
) -> None:
    """The board's JSON is kept by what it shows; each change is seen at once
    (and another process, which has not kept it, answers the same)."""

    def fresh() -> dict[str, Any]:
        kept = client.get("/api/vasco/boards/1").json()
        client.app.state.board_json = Recent[bytes](16)  # as another process would
        assert client.get("/api/vasco/boards/1").json() == kept
        return kept

    challenge(client, tokens["alice"])
    alice, bob = bearer(tokens["alice"]), bearer(tokens["bob"])
    assert move(client, tokens["alice"], "a0,0", 1).status_code == 200
    assert fresh()["moves"][0]["move"] == "a0,0"
    client.post("/api/vasco/boards/1/undo", headers=alice)
    assert fresh()["proposals"] == {"undo": ["alice"]}
    client.post("/api/vasco/boards/1/accept", headers=bob)
    assert fresh()["version"] == 0 and fresh()["proposals"] == {}
    assert move(client, tokens["alice"], "b0,0", 1).status_code == 200  # move 1 again, another
    assert [m["move"] for m in fresh()["moves"]] == ["b0,0"]
    assert fresh()["position"]["position"]["tiles"][0]["orientation"] == "b"
    client.post("/api/vasco/boards/1/resign", headers=bob)  # before bob's first move: declined
    assert fresh()["status"] == "finished" and "declined" in fresh()["result"]["reason"]


def sent_to(server: Server, subject: str | None = None) -> set[str]:
    """Every address the outbox holds mail for (with that subject)."""
    with server.sessions() as session:
        rows = session.scalars(select(OutboxMessage)).all()
    return {to for row in rows if subject in (None, row.subject) for to in row.recipients}


def test_an_answer_never_shows_another_players_address_or_mail(
    client: TestClient, server: Server, tokens: dict[str, str]
) -> None:
    """Challenge, queue, chat, message and move: each actor sees their own
    mails only, never another player's address or queued move."""
    challenge(client, tokens["alice"])
    seen = [("alice", challenge(client, tokens["alice"])["messages"])]
    queued = action(client, tokens["bob"], "queue", move="c-1,-1", **{"if": "b0,0"})
    assert queued.status_code == 200, queued.text
    seen.append(("bob", queued.json()["messages"]))
    seen.append(("bob", action(client, tokens["bob"], "chat", comment="hi").json()["messages"]))
    command = client.post(
        "/api/command",
        json={"command": "message alice - carol", "body": "hi"},
        headers=bearer(tokens["alice"]),
    )
    assert command.status_code == 200, command.text
    seen.append(("alice", command.json()["messages"]))
    seen.append(("alice", move(client, tokens["alice"], "a0,0", 1).json()["messages"]))
    for actor, messages in seen:
        others = {"alice", "bob", "carol"} - {actor}
        assert all(f"{name}@example.org" not in str(messages) for name in others), messages
    # alice played otherwise: bob's queue is dropped, and only bob is told
    assert "c-1,-1" not in str(seen[-1][1])
    assert any("c-1,-1" in body for body in bodies_to(server, "bob@example.org"))
    assert sent_to(server) >= {"alice@example.org", "bob@example.org", "carol@example.org"}


def bodies_to(server: Server, address: str) -> list[str]:
    with server.sessions() as session:
        rows = session.scalars(select(OutboxMessage)).all()
    return [row.body for row in rows if address in row.recipients]


def test_an_action_answers_the_board_as_a_fresh_read_shows_it(
    client: TestClient, tokens: dict[str, str]
) -> None:
    """A quick move hands its board back to the answer instead of reading it
    again; the answer is still an ActionResult whose board is what a fresh
    read of the board (in another process, with nothing kept) shows."""
    challenge(client, tokens["alice"])
    for number, text, token in ((1, "a0,0", "alice"), (2, "b1,0", "bob")):
        answer = move(client, tokens[token], text, number)
        assert answer.status_code == 200, answer.text
        result = ActionResult.model_validate_json(answer.content)
        client.app.state.board_json = Recent[bytes](16)  # as another process would
        assert result.board.model_dump(mode="json") == client.get("/api/vasco/boards/1").json()
        assert result.board.version == number and result.messages


def clocks_of(client: TestClient, board: int = 1) -> list[tuple[str, int, int]]:
    """A board's clocks as the API gives them: (userid, used, left) by seat,
    in hours; and the same in a read with nothing kept (another process)."""
    body = client.get(f"/api/vasco/boards/{board}").json()
    client.app.state.board_json = Recent[bytes](16)
    assert client.get(f"/api/vasco/boards/{board}").json() == body
    assert [clock["seat"] for clock in body["clocks"]] == list(range(len(body["clocks"])))
    return [
        (clock["userid"], clock["used_seconds"] // 3600, clock["left_seconds"] // 3600)
        for clock in body["clocks"]
    ]


@BOTH_ENGINES
def test_a_totaltime_boards_json_has_each_players_time_used_and_left_as_of_now(
    server: Server, client: TestClient, tokens: dict[str, str]
) -> None:
    """Issue 49, item 24: while the board is played, as of the request (the
    wait of the player to move counts as theirs), though the board did not
    change; once over, as at its end (the clock run out: all of it used,
    the wait until the tick ended the board counted as the loser's, as the
    game-over mail counts it)."""
    clock = server.clock
    assert isinstance(clock, Clock)
    challenge(client, tokens["alice"], totaltime=10)
    assert clocks_of(client) == [("alice", 0, 240), ("bob", 0, 240)]
    clock.advance(hours=5)
    assert move(client, tokens["alice"], "a0,0", 1).json()["board"]["clocks"] == [
        {"seat": 0, "userid": "alice", "used_seconds": 5 * 3600, "left_seconds": 235 * 3600},
        {"seat": 1, "userid": "bob", "used_seconds": 0, "left_seconds": 240 * 3600},
    ]
    clock.advance(hours=2)
    assert clocks_of(client) == [("alice", 5, 235), ("bob", 2, 238)]
    clock.advance(days=1)  # nothing changed on the board but the time
    assert clocks_of(client) == [("alice", 5, 235), ("bob", 26, 214)]
    assert move(client, tokens["bob"], "b1,0", 2).status_code == 200
    clock.advance(hours=236)  # alice's ten days are up: the tick ends the board
    server.tick()
    over = client.get("/api/vasco/boards/1").json()
    assert over["result"]["ending"] == "out of time", over["result"]
    assert clocks_of(client) == [("alice", 241, 0), ("bob", 26, 214)]
    clock.advance(days=3)  # a finished board's clocks stand still
    assert clocks_of(client) == [("alice", 241, 0), ("bob", 26, 214)]
    # a board without a total time has none, and the schema says what they are
    challenge(client, tokens["alice"])
    assert client.get("/api/vasco/boards/2").json()["clocks"] == []
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert "as of the request" in schema["BoardDetail"]["properties"]["clocks"]["description"]
    assert set(schema["ClockInfo"]["properties"]) == {
        "seat", "userid", "used_seconds", "left_seconds",
    }  # fmt: skip
