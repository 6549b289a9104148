"""Move entry by clicking (pbem.web.move_entry) on a real SQLite database:
the picker's choices and a Trugo piece's destinations are exactly the legal
moves, the move buttons follow each game's phase, a button with a number
(the komi) plays without JavaScript, and unknown boards are 404s. The same
routes serve every game: the game says what a click offers."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from pbem.games import get_game
from pbem.games.base import MoveButton, State
from pbem.games.trugo.board import MOVE, PASS_MOVE, PLACE
from pbem.games.trugo.geometry import (
    CORNER_DELTAS,
    CORNER_NAMES,
    cell_of,
    cell_text,
    point_of,
    vertex_name,
)
from pbem.games.trugo.state import TrugoState
from pbem.games.vasco.state import VascoState
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import Board, make_engine, session_factory
from pbem.store.boards import rebuild
from pbem.web import create_app, move_entry
from pbem.web.move_entry import move_buttons
from pbem.web.templating import TEMPLATES
from tests.databases import upgraded_sqlite

PASSWORDS = {"alice": "secret1", "bob": "secret2"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    engine = make_engine(upgraded_sqlite(tmp_path / "db.sqlite3"))
    server = Server(session_factory(engine))
    for name, password in PASSWORDS.items():
        server.handle(f"{name}@example.org", f"signup {name} {password}")
    yield server
    engine.dispose()


def with_move_entry(app: FastAPI) -> FastAPI:
    """The app with move_entry's routes first (ahead of the board page's
    `/{game}/{id}` routes), unless create_app already includes them."""
    if not any(getattr(route, "endpoint", None) is move_entry.destinations for route in app.routes):
        count = len(app.router.routes)
        app.include_router(move_entry.router)
        added = app.router.routes[count:]
        del app.router.routes[count:]
        app.router.routes[:0] = added
    return app


@pytest.fixture
def client(server: Server) -> TestClient:
    return TestClient(with_move_entry(create_app(server, Settings(secret_key="k" * 32))))


def logged_in(client: TestClient, name: str) -> str:
    """Log `client` in as `name`; returns the session's CSRF token."""
    response = client.post(
        "/login",
        data={
            "csrf": csrf_of(client.get("/login").text),
            "userid": name,
            "password": PASSWORDS[name],
        },
    )
    assert response.status_code == 200
    return csrf_of(response.text)


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match
    return match.group(1)


def new_board(server: Server, game: str, moves: list[str], options: str = "") -> int:
    """A board between alice (seat 0) and bob with `moves` played, each by
    the player to move."""
    out = server.handle("alice@example.org", f"{game} challenge alice bob {options}".strip())
    board_id = next(message.board.board_id for message in out.mails if message.board)
    for text in moves:
        who = ["alice", "bob"][state_of(server, board_id).to_move or 0]
        line = f"{game} move {board_id} {who} {PASSWORDS[who]} {text}"
        assert not [m.error for m in server.handle(f"{who}@example.org", line).mails if m.error]
    return board_id


def state_of(server: Server, board_id: int) -> State:
    with server.sessions() as session:
        board = session.get(Board, board_id)
        assert board is not None
        return rebuild(board)


def choice_moves(html: str) -> list[str]:
    return re.findall(r'<button type="button" class="choice" data-move="([^"]+)"', html)


def trugo_record(placements: int, want_piece_moves: bool, seed: int = 7) -> list[str]:
    """A Trugo record of at least `placements` random tile placements, and
    more until a piece can move if `want_piece_moves`."""
    game = get_game("trugo")
    state = game.new_state(game.parse_options([]))
    rng = random.Random(seed)
    moves: list[str] = []
    for _ in range(200):
        legal = state.legal_moves()
        if len(moves) >= placements and (
            not want_piece_moves or any(m.raw[0] == MOVE for m in legal)
        ):
            return moves
        move = rng.choice([m for m in legal if m.raw[0] == PLACE] or legal)
        moves.append(move.text)
        state = state.play(move)
    raise AssertionError("no such position found")


# -- Vasco choices ------------------------------------------------------------


def test_vasco_choices_are_the_legal_orientations_of_each_cell(
    server: Server, client: TestClient
) -> None:
    board_id = new_board(server, "vasco", ["a0,0", "b1,0", "a0,-1"])
    state = state_of(server, board_id)
    assert isinstance(state, VascoState)
    legal = state.legal_moves()
    cells = {move.cell for move in legal}
    assert cells
    for col, row in cells:
        response = client.get(f"/vasco/{board_id}/choices", params={"at": f"{col},{row}"})
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-store"
        expected = [move.text for move in legal if move.cell == (col, row)]
        assert choice_moves(response.text) == expected
        # Each choice pictured at 64 px and labelled in words.
        assert response.text.count('<svg xmlns="http://www.w3.org/2000/svg" width="64"') == len(
            expected
        )
        assert response.text.count('aria-label="Orientation ') == len(expected)


def test_vasco_choices_first_move_and_cells_without_moves(
    server: Server, client: TestClient
) -> None:
    board_id = new_board(server, "vasco", [])
    first = client.get(f"/vasco/{board_id}/choices?at=0,0")
    assert choice_moves(first.text) == [f"{letter}0,0" for letter in "abcdef"]
    elsewhere = client.get(f"/vasco/{board_id}/choices?at=3,-1")
    assert choice_moves(elsewhere.text) == []
    assert "Nothing can be played at 3,-1 now." in elsewhere.text
    assert client.get(f"/vasco/{board_id}/choices?at=x").status_code == 422
    assert client.get(f"/vasco/{board_id}/choices").status_code == 422


def test_vasco_choices_tell_auto_tiles(server: Server, client: TestClient) -> None:
    board_id = new_board(server, "vasco", ["a0,0", "b1,0"])
    state = state_of(server, board_id)
    assert isinstance(state, VascoState)
    for move in state.legal_moves():
        after = state.play(move)
        assert isinstance(after, VascoState)
        autos = len(after.last) - 1
        if autos:
            html = client.get(f"/vasco/{board_id}/choices?at={move.col},{move.row}").text
            assert f"<span>{move.text} +{autos} auto" in html
            return
    raise AssertionError("this position was chosen for a move with auto tiles; it has none")


# -- Trugo choices and targets ------------------------------------------------


def test_trugo_choices_are_the_three_rotations_of_each_position(
    server: Server, client: TestClient
) -> None:
    board_id = new_board(server, "trugo", trugo_record(5, want_piece_moves=False))
    state = state_of(server, board_id)
    assert isinstance(state, TrugoState) and state.phase == "waxing"
    places = [move for move in state.legal_moves() if move.raw[0] == PLACE]
    for cid in state.positions:
        where = cell_text(cid)
        response = client.get(f"/trugo/{board_id}/choices", params={"at": where})
        expected = [move.text for move in places if move.raw[1] == cid]
        assert len(expected) == 3
        assert choice_moves(response.text) == expected
        assert 'aria-label="Rotation a at' in response.text
    occupied = cell_text(state.board.order[0])
    assert choice_moves(client.get(f"/trugo/{board_id}/choices?at={occupied}").text) == []


def test_trugo_targets_are_the_legal_moves_of_the_piece(server: Server, client: TestClient) -> None:
    board_id = new_board(server, "trugo", trugo_record(9, want_piece_moves=True))
    state = state_of(server, board_id)
    assert isinstance(state, TrugoState)
    piece_moves = [move for move in state.legal_moves() if move.raw[0] == MOVE]
    assert piece_moves
    starts = {move.raw[1] for move in piece_moves}
    pieces = client.get(f"/trugo/{board_id}/movable").json()
    assert sorted(pieces) == sorted({vertex_name(vid) for vid in starts})
    for vid in state.board.stacks:
        expected = [move.text for move in piece_moves if move.raw[1] == vid]
        for name in names_of(vid):
            response = client.get(f"/trugo/{board_id}/destinations", params={"from": name})
            assert response.status_code == 200
            assert flat(response.json()) == sorted(expected), name
            for to, texts in response.json().items():  # each grouped by where it ends
                assert all(text.endswith(to) for text in texts)
    # A junction without a piece, and nonsense.
    assert client.get(f"/trugo/{board_id}/destinations?from=40,40e").json() == {}
    assert client.get(f"/trugo/{board_id}/destinations?from=0,0x").status_code == 422
    assert client.get(f"/trugo/{board_id}/destinations?from=99999,0e").status_code == 422
    assert client.get(f"/trugo/{board_id}/destinations").status_code == 422


def flat(destinations: dict[str, list[str]]) -> list[str]:
    return sorted(text for texts in destinations.values() for text in texts)


def names_of(vid: int) -> list[str]:
    """Every name of a junction: each of its three cells and that cell's corner."""
    names = []
    for corner, delta in zip(CORNER_NAMES, CORNER_DELTAS, strict=True):
        cid = vid - delta
        if point_of(cid)[0] % 3 == 0:
            col, row = cell_of(cid)
            names.append(f"{col},{row}{corner}")
    assert len(names) == 3
    return names


WANING = ["b0,0", "b1,0", "b0,-1", "c1,-2", "c2,1", "b0,1", "b-1,0", "b1,-1", "a-1,1", "b2,0"]


def test_trugo_waning_has_no_rotations_but_piece_targets(
    server: Server, client: TestClient
) -> None:
    board_id = new_board(server, "trugo", WANING, "-size=10")
    state = state_of(server, board_id)
    assert isinstance(state, TrugoState) and state.phase == "waning" and state.result is None
    for cid in state.board.tiles:
        assert choice_moves(client.get(f"/trugo/{board_id}/choices?at={cell_text(cid)}").text) == []
    piece_moves = [move for move in state.legal_moves() if move.raw[0] == MOVE]
    assert piece_moves
    for vid in {move.raw[1] for move in piece_moves}:
        found = client.get(f"/trugo/{board_id}/destinations?from={vertex_name(vid)}").json()
        assert flat(found) == sorted(move.text for move in piece_moves if move.raw[1] == vid)
    # Removals are clicks on the tiles themselves: their data-move is the move.
    svg = state.svg_board()
    removals = [move.text for move in state.legal_moves() if move.kind == "remove"]
    assert removals and sorted(re.findall(r'data-move="(x[^"]+)"', svg)) == sorted(removals)


# -- 404s ---------------------------------------------------------------------


def test_unknown_boards_and_boards_of_other_games_are_404(
    server: Server, client: TestClient
) -> None:
    vasco = new_board(server, "vasco", [])
    trugo = new_board(server, "trugo", [])
    for path in (
        "/vasco/999/choices?at=0,0",
        f"/vasco/{trugo}/choices?at=0,0",
        f"/trugo/{vasco}/choices?at=0,0",
        f"/trugo/{vasco}/destinations?from=0,0e",
        f"/trugo/{vasco}/movable",
        "/trugo/999/destinations?from=0,0e",
        "/chess/1/movable",
    ):
        assert client.get(path).status_code == 404, path
    assert client.get(f"/vasco/{vasco}").status_code == 200  # the board page still answers


# -- move buttons -------------------------------------------------------------


def labels(buttons: list[MoveButton]) -> list[tuple[str, str]]:
    return [(button.label, button.move) for button in buttons]


def test_vacu_buttons_follow_the_komi_step_and_the_button(server: Server) -> None:
    komi = move_buttons(state_of(server, new_board(server, "vacu", [])))
    assert labels(komi) == [("Offer komi", "komi")]
    assert komi[0].field == (-81, 81)
    small = move_buttons(state_of(server, new_board(server, "vacu", [], "-size=5")))
    assert small[0].field == (-25, 25)
    colour = move_buttons(state_of(server, new_board(server, "vacu", ["komi6"])))
    assert labels(colour) == [("Play Black", "black"), ("Play White", "white")]
    assert "komi of 6" in colour[0].hint
    untaken = move_buttons(state_of(server, new_board(server, "vacu", ["komi6", "black"])))
    assert labels(untaken) == [("Take the button", "button")]
    taken = move_buttons(state_of(server, new_board(server, "vacu", ["button"], "-komi=0")))
    assert labels(taken) == [("Pass", "pass")]
    with_options = move_buttons(state_of(server, new_board(server, "vacu", [], "-komi=3")))
    assert labels(with_options) == [("Take the button", "button")]


def test_every_button_is_a_legal_move(server: Server) -> None:
    for game, moves, options in (
        ("vacu", [], ""),
        ("vacu", ["komi-2"], ""),
        ("vacu", ["komi0", "white", "C3"], "-size=5"),
        ("vacu", ["button", "pass"], "-komi=0"),
        ("convacu", [], ""),
        ("convacu", ["komi1"], ""),
        ("convacu", ["C3"], "-komi=0 -size=5"),
    ):
        state = state_of(server, new_board(server, game, moves, options))
        for button in move_buttons(state):
            text = f"{button.move}{5 if button.field else ''}"
            state.play_text(text)  # raises if illegal


def test_convacu_passes_only_without_another_move(server: Server) -> None:
    state = state_of(server, new_board(server, "convacu", ["button"], "-komi=0 -size=5"))
    assert labels(move_buttons(state)) == []  # stones are legal, the button is taken


def test_trugo_pass_only_when_it_is_the_only_move(server: Server) -> None:
    state = state_of(server, new_board(server, "trugo", ["a0,0"]))
    assert isinstance(state, TrugoState)
    assert move_buttons(state) == []
    state.__dict__["_legal"] = [PASS_MOVE]  # a position with nothing else to do
    assert labels(move_buttons(state)) == [("Pass", "pass")]


def test_no_buttons_for_vasco_or_a_finished_game(server: Server) -> None:
    assert move_buttons(state_of(server, new_board(server, "vasco", ["a0,0"]))) == []
    over = state_of(server, new_board(server, "vasco", ["a0,0"], "-size=1"))
    assert over.result is not None
    assert move_buttons(over) == []


def test_the_buttons_template_posts_each_move_without_javascript() -> None:
    html = (
        TEMPLATES.env.get_template("_move_buttons.html")
        .render(
            buttons=[
                MoveButton("Offer komi", "komi", "name it", (-81, 81), "Komi for White"),
                MoveButton("Pass", "pass", "pass it"),
            ],
            game={"name": "vacu"},
            board_id=7,
            csrf="TOKEN",
            latest=0,
        )
        .replace("\n", " ")
    )
    komi, plain = re.findall(r"<form .*?</form>", html)
    assert 'action="/vacu/7/button"' in komi and 'data-move="komi"' in komi
    assert '<input type="hidden" name="move" value="komi">' in komi
    assert "Komi for White" in komi and 'name="value" min="-81" max="81"' in komi
    assert 'action="/vacu/7/move"' in plain
    assert '<input type="hidden" name="move" value="pass">' in plain
    for form in (komi, plain):
        assert 'name="csrf" value="TOKEN"' in form and 'name="number" value="1"' in form
    assert TEMPLATES.env.get_template("_move_buttons.html").render().strip() == ""


# -- a button with a number (the komi) ------------------------------------------------------------


def test_the_komi_form_plays_the_komi(server: Server, client: TestClient) -> None:
    board_id = new_board(server, "vacu", [])
    token = logged_in(client, "alice")
    response = client.post(
        f"/vacu/{board_id}/button",
        data={"csrf": token, "move": "komi", "value": "+6", "number": "1"},
    )
    assert response.status_code == 200 and str(response.url).endswith(f"/vacu/{board_id}")
    assert "Played komi6." in unescape(response.text)
    assert state_of(server, board_id).moves == ("komi6",)


def test_the_komi_form_refuses_what_it_should(server: Server, client: TestClient) -> None:
    board_id = new_board(server, "vacu", [])
    trugo = new_board(server, "trugo", [])
    url = f"/vacu/{board_id}/button"
    komi = {"move": "komi"}
    assert client.post(url, data={**komi, "value": "6"}).status_code == 403  # no CSRF token
    token = csrf_of(client.get("/login").text)
    logged_out = client.post(url, data={"csrf": token, **komi, "value": "6"})
    assert logged_out.status_code == 403
    token = logged_in(client, "alice")
    bad = client.post(url, data={"csrf": token, **komi, "value": "six", "number": "1"})
    assert "Komi for White is a whole number" in unescape(bad.text)
    stale = client.post(url, data={"csrf": token, **komi, "value": "6", "number": "3"})
    assert "nothing was played" in unescape(stale.text)
    far = client.post(url, data={"csrf": token, **komi, "value": "82", "number": "1"})
    assert "between -81 and 81" in unescape(far.text)
    # Only a button the position offers: no colour choice before the komi,
    # no komi on a Trugo board.
    early = client.post(url, data={"csrf": token, "move": "black", "value": "1", "number": "1"})
    assert "There is no 'black' to play on board" in unescape(early.text)
    assert state_of(server, board_id).moves == ()
    trugo_url = f"/trugo/{trugo}/button"
    none = client.post(trugo_url, data={"csrf": token, **komi, "value": "6", "number": "1"})
    assert "There is no 'komi' to play" in unescape(none.text)
    assert state_of(server, trugo).moves == ()
    missing = client.post("/vacu/999/button", data={"csrf": token, **komi, "value": "6"})
    assert missing.status_code == 404
    bob = TestClient(client.app)
    bob_token = logged_in(bob, "bob")
    wrong = bob.post(url, data={"csrf": bob_token, **komi, "value": "6", "number": "1"})
    assert state_of(server, board_id).moves == () and wrong.status_code == 200
