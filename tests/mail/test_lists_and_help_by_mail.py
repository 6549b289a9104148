"""The mailed lists and help, through `pbem receive` (a mail with a
Message-ID piped in, the answer read from the outbox), on SQLite and
PostgreSQL: `GAME games` says who won each finished board and how, with
its last move's number; `help` mails start with how to play by mail and
read as plain text."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from email.utils import make_msgid
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.games import get_game
from pbem.server import Server
from pbem.store import OutboxMessage, make_engine, session_factory
from tests.processes import Processes

ADDRESS = "pbem@games.test"
ANN, BOB, CAROL = "ann@example.org", "bob@example.org", "carol@example.org"


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    engine = make_engine(database_url)
    server = Server(session_factory(engine))
    for name, address in (("ann", ANN), ("bob", BOB), ("carol", CAROL)):
        server.handle(address, f"signup {name} {name}pass1")
    yield server
    engine.dispose()


def receive(server: Server, tmp_path: Path, sender: str, subject: str) -> list[OutboxMessage]:
    """Pipe a mail into `pbem receive`; the replies it queued."""
    url = server.sessions.kw["bind"].url.render_as_string(hide_password=False)
    with server.sessions() as session:
        before = session.scalar(select(OutboxMessage.id).order_by(OutboxMessage.id.desc())) or 0
    raw = (
        f"From: {sender}\r\nTo: {ADDRESS}\r\nSubject: {subject}\r\n"
        f"Message-ID: {make_msgid(domain='example.org')}\r\n\r\nThanks.\r\n"
    ).encode()
    processes = Processes()
    try:
        done = processes.run(
            [sys.executable, "-m", "pbem.cli", "receive"],
            input=raw,
            env=processes.env(database_url=url, address=ADDRESS),
            cwd=tmp_path,
            timeout=120,
        )
    finally:
        processes.close()
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    with server.sessions() as session:
        return list(
            session.scalars(
                select(OutboxMessage).where(OutboxMessage.id > before).order_by(OutboxMessage.id)
            )
        )


def play_to_the_end(server: Server, board: int, seed: int) -> str:
    """Random moves by the players to move until the game ends by the rules
    (seed 22 on a size-12 Vasco board: red closes a loop of 6 tiles in five
    moves); the rules' own words for the ending."""
    rules = get_game("vasco")
    state = rules.new_state(rules.parse_options(["-size=12"]))
    chooser = random.Random(seed)
    names = {0: ("bob", BOB), 1: ("ann", ANN)}
    while state.result is None:
        assert state.to_move is not None
        name, address = names[state.to_move]
        move = state.move_text(chooser.choice(state.legal_moves()))
        server.handle(address, f"vasco move {board} {name} {name}pass1 {move}")
        state = state.play_text(move)
    assert state.result.winner == 0
    return state.result.reason


def test_games_says_who_won_each_finished_board_and_its_last_move(
    server: Server, tmp_path: Path
) -> None:
    server.handle(BOB, "vasco challenge bob ann -size=12")  # 1: won by the rules
    reason = play_to_the_end(server, 1, 22)
    assert reason == "O (red) closed a loop of 6 tiles"  # the rules name a colour
    server.handle(ANN, "vasco challenge ann bob")  # 2: resigned
    server.handle(ANN, "vasco move 2 ann annpass1 a0,0")
    server.handle(BOB, "vasco move 2 bob bobpass1 b1,0")
    server.handle(ANN, "vasco resign 2 ann annpass1")
    server.handle(ANN, "vasco challenge ann carol")  # 3: drawn by agreement
    server.handle(ANN, "vasco move 3 ann annpass1 a0,0")
    server.handle(ANN, "vasco propose 3 ann annpass1")
    server.handle(CAROL, "vasco accept 3 carol carolpass1")
    server.handle(CAROL, "vasco challenge carol bob")  # 4: declined by bob
    server.handle(BOB, "vasco resign 4 bob bobpass1")
    server.handle(ANN, "vasco challenge ann bob")  # 5: still being played
    [listed] = receive(server, tmp_path, CAROL, "vasco games")
    assert listed.subject == "Vasco games"
    lines = listed.body.splitlines()
    assert lines[0] == "Vasco boards:"
    assert lines[1:6] == [
        "      1  bob against ann  bob won: closed a loop of 6 tiles (5 moves).",
        "      2  ann against bob  bob won: ann resigned (2 moves).",
        "      3  ann against carol  Drawn by agreement (1 move).",
        "      4  carol against bob  Declined: bob declined the challenge; not rated (no moves).",
        "      5  ann against bob  Move 1: ann to move.",
    ]
    assert "(red)" not in listed.body and "Game over" not in listed.body


@pytest.mark.parametrize("game", ["vasco", "trugo", "vacu", "convacu"])
def test_a_games_help_starts_with_how_to_play_by_mail_in_plain_text(
    server: Server, tmp_path: Path, game: str
) -> None:
    [helped] = receive(server, tmp_path, CAROL, f"{game} help")
    title = get_game(game).title
    assert helped.subject == f"{title} help"
    text = helped.body
    lines = text.splitlines()
    assert lines[:2] == [f"{title} by mail", "=" * len(f"{title} by mail")]
    # how to write a move comes next, not hundreds of lines down
    assert lines.index("Writing a move") < 30, lines[:40]
    # plain text: no Markdown marks outside the boards drawn in text (indented)
    prose = [line for line in lines if not line.startswith("    ")]
    assert not [line for line in prose if "`" in line or "**" in line or line.startswith("#")]
    # nothing for programs: the JSON form stays on the web's rules page
    assert "JSON" not in text
    # every example command of the opening block is taken as written
    examples = [line.split("  ")[1] for line in lines[5:10]]
    assert examples[0] == "signup alice secret1" and examples[1].startswith(game)
    sent = {"alice": "alice@example.org"}
    for command in examples:
        done = server.handle(sent["alice"], command)
        assert done.ok and not any("error" in mail.subject for mail in done.mails), (
            command,
            [mail.body for mail in done.mails],
        )


def test_the_command_list_has_no_markdown(server: Server, tmp_path: Path) -> None:
    [helped] = receive(server, tmp_path, CAROL, "help")
    assert helped.subject == "pbem help"
    assert "`" not in helped.body and "'pbem send'" in helped.body
