"""Two servers on one database, as `pbem serve` on two machines sharing one
PostgreSQL (and, on one machine, one SQLite file): each is its own process
with its own engine, and both run the same script at once, step by step over
twelve simulated days: every mailed move is sent to both (the mail server
delivered it twice), both run the periodic job, both drain the outbox into
one Maildir.

Counted against one server running the same script alone: every move is
applied once, every nag and forfeit is queued once, a digest goes out at
most once a day, and every outbox mail reaches the Maildir exactly once."""

from __future__ import annotations

import itertools
import mailbox
import random
from collections import Counter
from datetime import datetime, timedelta
from multiprocessing.context import SpawnContext
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, select

from pbem.games import get_game
from pbem.mail.delivery import MaildirTransport, deliver_due
from pbem.settings import Settings
from pbem.store import Board, OutboxMessage, make_engine, session_factory
from tests.databases import upgraded_sqlite
from tests.server.test_commands import CheckedServer, signup

START = datetime(2026, 11, 21, 9, 0)
STEP = timedelta(hours=6)
STEPS = 4 * 12  # twelve days
PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay"]
BOARDS = 12
SETTINGS = Settings(address="pbem@example.org")


def records() -> list[list[str]]:
    """A random Vasco opening for each board (the same in every run)."""
    game = get_game("vasco")
    rng = random.Random(13)
    out = []
    for _ in range(BOARDS):
        state, moves = game.new_state(game.parse_options([])), []
        for _ in range(6):
            move = rng.choice(state.legal_moves())
            moves.append(state.move_text(move))
            state = state.play(move)
        out.append(moves)
    return out


def seats(board: int) -> tuple[str, str]:
    return PLAYERS[board % 6], PLAYERS[(board + 1 + board // 6) % 6]


def moves_at(step: int, openings: list[list[str]]) -> list[tuple[str, str]]:
    """The (sender, command) mails of a step: boards 1-8 play on, one move
    per board every day for their first days; boards 9-12 never move again,
    so they are nagged and then forfeit."""
    mails = []
    for board in range(1, BOARDS + 1):
        number = step // 4 + 1  # move `number` is played on day number - 1
        if step % 4 == board % 4 and board <= 8 and number <= min(board, 6):
            player = seats(board)[(number - 1) % 2]
            text = openings[board - 1][number - 1]
            mails.append(
                (
                    f"{player}@example.org",
                    f"vasco move {board} {player} pw-{player} {text}#{number}",
                )
            )
    return mails


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def run_script(url: str, maildir: str, barrier: Any = None) -> None:
    """One server's part: every step, the step's mails, the job, delivery."""
    engine = make_engine(url)
    clock = Clock()
    server = CheckedServer(session_factory(engine), clock)
    transport = MaildirTransport(maildir)
    openings = records()
    for step in range(STEPS):
        clock.now = START + step * STEP
        if barrier is not None:
            barrier.wait(120)  # both servers on the same step, at the same moment
        for sender, line in moves_at(step, openings):
            server.handle(sender, line, message_id=f"<{step}.{line.split()[2]}@example.org>")
        if barrier is not None:
            barrier.wait(120)  # the step's mails are in before either ticks, as when alone
        server.tick()
        deliver_due(server.sessions, SETTINGS, transport, clock.now)
    engine.dispose()


def set_up(url: str) -> None:
    engine = make_engine(url)
    server = CheckedServer(session_factory(engine), Clock())
    signup(server, *PLAYERS)
    for name in PLAYERS[::2]:
        server.handle(f"{name}@example.org", f"mail {name} pw-{name} digest")
    for board in range(1, BOARDS + 1):
        first, second = seats(board)
        server.handle(
            f"{first}@example.org", f"vasco challenge {first} {second} --nagtime=2 --forfeittime=6"
        )
    engine.dispose()


def kind_of(row: OutboxMessage) -> str:
    """Which of the job's mails a row is ('' for the others)."""
    if row.subject.endswith("(reminder)"):
        return "nag"
    if row.subject.startswith("pbem digest"):
        return "digest"
    ended = ("forfeited: no move", "never answered the challenge")
    return "forfeit" if any(words in row.body for words in ended) else ""


def outcome(url: str, maildir: Path) -> dict[str, Any]:
    """What a run left: the boards' records, the job's mails, the Maildir."""
    engine = create_engine(url)
    with session_factory(engine)() as session:
        boards = {
            board.id: (board.status, [move.text for move in board.moves])
            for board in session.scalars(select(Board))
        }
        rows = list(session.scalars(select(OutboxMessage)))
        job = Counter(
            (kind_of(row), row.subject, tuple(row.recipients))
            for row in rows
            if kind_of(row) in ("nag", "forfeit")
        )
        digests = Counter(
            (row.recipients[0], row.created_at) for row in rows if kind_of(row) == "digest"
        )
        unsent = [row.id for row in rows if row.sent_at is None]
        ids = {(row.message_id or "").strip("<>") for row in rows}
    engine.dispose()
    delivered = [message["Message-ID"].strip("<>") for message in mailbox.Maildir(maildir)]
    return {
        "boards": boards,
        "job": job,
        "digests": digests,
        "rows": len(rows),
        "unsent": unsent,
        "ids": ids,
        "delivered": delivered,
    }


def test_two_servers_on_one_database_do_each_thing_once(
    engine: Engine, database_url: str, tmp_path: Path, spawn: SpawnContext
) -> None:
    alone_url = upgraded_sqlite(tmp_path / "alone.sqlite3")
    set_up(alone_url)
    run_script(alone_url, str(tmp_path / "alone"))
    alone = outcome(alone_url, tmp_path / "alone")

    set_up(database_url)
    context = spawn
    barrier = context.Barrier(2)
    servers = [
        context.Process(target=run_script, args=(database_url, str(tmp_path / "both"), barrier))
        for _ in range(2)
    ]
    for process in servers:
        process.start()
    for process in servers:
        process.join(600)
    assert [process.exitcode for process in servers] == [0, 0]
    both = outcome(database_url, tmp_path / "both")

    # the script does exercise the job: nags, digests and forfeits happened
    kinds = Counter(kind for kind, _, _ in alone["job"].elements())
    assert kinds["nag"] >= 10 and kinds["forfeit"] >= 8 and len(alone["digests"]) >= 5, kinds
    assert any(status == "finished" for status, _ in alone["boards"].values())
    # every move applied once, every board ended the same way
    assert both["boards"] == alone["boards"]
    # every nag and forfeit queued once
    assert both["job"] == alone["job"]
    # a digest at most once a day to each player, and every one that went out
    # alone went out too (with two servers a digest may also list a board the
    # other server is forfeiting at that moment, where alone it came after)
    assert max(both["digests"].values()) == 1
    for player in PLAYERS[::2]:
        days = sorted(when for who, when in both["digests"] if who == f"{player}@example.org")
        assert all(b - a >= timedelta(days=1) for a, b in itertools.pairwise(days))
    assert set(alone["digests"]) <= set(both["digests"])
    # every mail delivered once: each outbox row is in the Maildir exactly once
    assert both["unsent"] == [] and alone["unsent"] == []
    assert len(both["delivered"]) == both["rows"]
    assert Counter(both["delivered"]) == Counter(dict.fromkeys(both["ids"], 1))
