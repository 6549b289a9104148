"""A board's records to download from its page: the text record (moves,
comments and chat in order), SGF for Vacu and Convacu (read back with
sgfmill, it replays to the board's position), the API's JSON, and the board
at any move as SVG and PNG; a game without SGF says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sgfmill import sgf

from pbem.server import Server
from pbem.settings import Settings
from pbem.store import make_engine, session_factory
from pbem.web import create_app
from tests.databases import upgraded_sqlite
from tests.games.test_vacu_sgf import replayed_from_sgf
from tests.server.test_commands import Clock


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    engine = make_engine(upgraded_sqlite(tmp_path / "records.sqlite3"))
    server = Server(session_factory(engine), Clock())
    for name in ("ann", "bob"):
        server.handle(f"{name}@example.org", f"signup {name} pw-{name}")
    yield server
    engine.dispose()


def client(server: Server) -> TestClient:
    return TestClient(create_app(server, Settings(secret_key="k" * 40)))


def play(server: Server, game: str, moves: list[str], options: str = "") -> int:
    sent = server.handle("ann@example.org", f"{game} challenge ann bob {options}", as_user="ann")
    board = sent.board
    assert board is not None
    for number, move in enumerate(moves):
        name = ("ann", "bob")[number % 2]
        server.handle(f"{name}@example.org", f"{game} move {board} {name} pw-{name} {move}")
    return board


def test_the_text_record_has_the_moves_comments_and_chat_in_order(server: Server) -> None:
    board = play(server, "vasco", ["a0,0"])
    server.handle("bob@example.org", f"vasco chat {board} bob pw-bob", "Nice start.\nMy turn.")
    server.handle("bob@example.org", f"vasco move {board} bob pw-bob a-1,-1", "Your go")
    response = client(server).get(f"/vasco/{board}/record.txt")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="vasco-{board}.txt"'
    lines = response.text.splitlines()
    assert lines[:3] == [f"Vasco board {board}", "Red (O): ann", "Blue (X): bob"]
    assert "Options: the defaults" in lines
    first = next(i for i, line in enumerate(lines) if line.startswith("   1. a0,0 by ann"))
    assert lines[first + 1].startswith("    bob says (")
    assert lines[first + 2 : first + 4] == ["      | Nice start.", "      | My turn."]
    assert lines[first + 4].startswith("   2. a-1,-1 (auto ") and " by bob, " in lines[first + 4]
    assert lines[first + 5] == "      > Your go"


@pytest.mark.parametrize("game", ["vacu", "convacu"])
def test_the_sgf_replays_to_the_boards_position(server: Server, game: str) -> None:
    moves = ["komi5", "white", "D4", "button", "C3", "E5", "D3"]
    board = play(server, game, moves, "-size=7")
    response = client(server).get(f"/{game}/{board}/record.sgf")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-go-sgf")
    root = sgf.Sgf_game.from_bytes(response.content).get_root()
    assert (root.get("PB"), root.get("PW"), root.get("KM")) == ("ann", "bob", 5)  # bob chose white
    view = server.views.get(board)
    assert view is not None
    again = replayed_from_sgf(response.text, game, ["-size=7"], ("ann", "bob"))
    assert again.text_board() == view.state().text_board()


def test_a_game_without_sgf_says_so_and_the_pictures_and_json_come(server: Server) -> None:
    board = play(server, "trugo", [])
    web = client(server)
    refused = web.get(f"/trugo/{board}/record.sgf")
    assert refused.status_code == 404 and "Trugo has no SGF record" in refused.text
    board = play(server, "vasco", ["a0,0", "a-1,-1"])
    view = server.views.get(board)
    assert view is not None
    svg = web.get(f"/vasco/{board}/board.svg?at=1")
    assert svg.status_code == 200 and svg.text == view.svg(1)
    assert f'filename="vasco-{board}-move1.svg"' in svg.headers["content-disposition"]
    png = web.get(f"/vasco/{board}/board.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert (
        web.get(f"/vasco/{board}/record.json").json()
        == web.get(f"/api/vasco/boards/{board}").json()
    )
    page = web.get(f"/vasco/{board}").text
    for link in ("record.txt", "record.json", "board.svg?at=2", "board.png?at=2"):
        assert f'href="/vasco/{board}/{link}"' in page
    assert "record.sgf" not in page
    vacu = play(server, "vacu", [])
    assert f'href="/vacu/{vacu}/record.sgf"' in web.get(f"/vacu/{vacu}").text
