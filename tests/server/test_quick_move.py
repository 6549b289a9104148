"""The quick move (server/boards/quick_move.py) against the full move command, its
reference: random games of every game, played by the web's and the API's
command objects on two databases, one server taking the quick path and
one never, leave the same rows and send the same mails after every move.
So do the moves the quick path hands back (a subscriber, a queued or
submitted move, a proposal, a total clock, a refusal, a race)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select

from pbem.games import get_game
from pbem.server import Server
from pbem.server.boards import quick_move
from pbem.server.language import commands
from pbem.server.language.messages import Outcome
from pbem.server.views.board_view import read_view
from pbem.store import (
    Board,
    MoveRow,
    OutboxMessage,
    PendingMove,
    ProcessedMessage,
    QueuedMove,
    Vote,
    make_engine,
    session_factory,
)
from tests.conftest import ENGINES, upgraded_database_url
from tests.server.test_commands import CheckedServer, Clock, signup

TABLES = (Board, MoveRow, OutboxMessage, Vote, QueuedMove, PendingMove, ProcessedMessage)


@pytest.fixture(params=ENGINES)
def twins(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Server, Server, Clock]]:
    """A server taking the quick path and one that never does, each on a
    database of its own, on one clock."""
    clock = Clock()
    engines: list[Engine] = []
    servers = []
    for quick in (True, False):
        folder = tmp_path / ("quick" if quick else "full")
        folder.mkdir()
        engine = make_engine(upgraded_database_url(request.param, request, folder))
        engines.append(engine)
        servers.append(CheckedServer(session_factory(engine), clock, quick_moves=quick))
    yield servers[0], servers[1], clock
    for engine in engines:
        engine.dispose()


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each move the quick path was asked to play, it played."""
    seen: list[bool] = []
    real = quick_move.quick_move

    def counting(*args: Any, **kwargs: Any) -> Outcome | None:
        played = real(*args, **kwargs)
        seen.append(played is not None)
        return played

    monkeypatch.setattr("pbem.server.service.quick_move", counting)
    return seen


def rows(server: Server) -> dict[str, list[dict[str, Any]]]:
    with server.sessions() as session:
        return {
            table.__tablename__: [
                dict(row._mapping)
                for row in session.execute(
                    select(table.__table__).order_by(*table.__table__.primary_key)
                )
            ]
            for table in TABLES
        }


def mails(sent: Outcome) -> list[tuple[Any, ...]]:
    return [(m.to, m.subject, m.body, m.board, m.error, m.error_kind) for m in sent.mails]


def both(
    quick: Server, full: Server, command: commands.Command, as_user: str | None
) -> tuple[Outcome, Outcome]:
    """Run the command on both; their answers and their rows must agree."""
    one, other = quick.execute(command, as_user=as_user), full.execute(command, as_user=as_user)
    assert mails(one) == mails(other)
    assert one.effects == other.effects and one.actor == other.actor
    assert rows(quick) == rows(full)
    # the view the quick path kept for the doors is the board as read afresh
    with quick.reader.connect() as connection:
        assert quick.views.get(1) == read_view(connection, 1)
    return one, other


def start(servers: tuple[Server, Server], line: str) -> None:
    for server in servers:
        signup(server, "ann", "bob", "cy")
        server.handle("ann@example.org", "add ann pw-ann Ann@Elsewhere.example")
        server.handle("ann@example.org", line)


@pytest.mark.parametrize("name", ["vasco", "trugo", "vacu", "convacu"])
def test_random_games_leave_the_same_rows_both_ways(
    twins: tuple[Server, Server, Clock], taken: list[bool], name: str
) -> None:
    quick, full, clock = twins
    rng = random.Random(name)
    options = "-komi=5" if name in ("vacu", "convacu") else ""
    start((quick, full), f"{name} challenge ann bob {options}")
    if name == "trugo":  # one player wants only digests: no board mail for them
        for server in (quick, full):
            server.handle("bob@example.org", "mail bob pw-bob digest")
    state = get_game(name).start(options.split())
    players = ("ann", "bob")
    for number in range(1, 80):
        if state.result is not None:
            break
        assert state.to_move is not None
        mover = players[state.to_move]
        text = state.move_text(rng.choice(state.legal_moves()))
        move = commands.Move(
            game=name,
            board=1,
            userid=mover.upper() if rng.random() < 0.2 else mover,
            move=text,
            number=rng.choice([None, number]),
            comment=rng.choice(["", "", "good luck\r\nhave fun", "  "]),
        )
        clock.advance(minutes=rng.randint(1, 3000))
        if rng.random() < 0.1:  # refusals go the full way on both
            wrong = players[1 - state.to_move]
            both(quick, full, commands.Move(game=name, board=1, userid=wrong, move=text), wrong)
            stale = commands.Move(game=name, board=1, userid=mover, move=text, number=number + 1)
            both(quick, full, stale, mover)
        both(quick, full, move, mover)
        state = state.play_text(text)
    assert sum(taken) >= len(taken) * 0.6, "most moves should take the quick path"
    assert not all(taken) or state.result is None, "a game's end goes the full way"


def test_what_the_quick_path_hands_back_is_done_the_same(
    twins: tuple[Server, Server, Clock], taken: list[bool]
) -> None:
    quick, full, clock = twins
    start((quick, full), "trugo challenge ann bob")
    state = get_game("trugo").start()
    players = ("ann", "bob")

    def play(**extra: Any) -> None:
        nonlocal state
        assert state.to_move is not None
        text = state.move_text(state.legal_moves()[0])
        mover = players[state.to_move]
        clock.advance(hours=1)
        both(quick, full, commands.Move(game="trugo", board=1, userid=mover, move=text), mover)
        state = state.play_text(text)

    def say(line: str, sender: str) -> None:
        for server in (quick, full):
            server.handle(sender, line)

    play()
    say("trugo subscribe cy pw-cy 1", "cy@example.org")  # a watcher's copy
    play()
    assert taken == [True, False]
    say("trugo unsubscribe cy pw-cy 1", "cy@example.org")
    say("trugo propose 1 bob pw-bob", "bob@example.org")  # ann's move ends the proposal
    play()
    answer = state.play(state.legal_moves()[0]).legal_moves()[0]
    reply = state.play(state.legal_moves()[0]).move_text(answer)
    say(f"trugo queue 1 ann pw-ann {reply}", "ann@example.org")  # played after bob's move
    play()
    state = state.play_text(reply)
    text = state.move_text(state.legal_moves()[0])
    say(f"trugo submit 1 bob pw-bob {text}", "bob@example.org")  # a move waiting to confirm
    play()
    assert taken == [True, False, False, False, False]
    play()
    assert taken[-1]


@pytest.mark.parametrize(
    ("sender", "line", "check"),
    [
        # bob queues his answer: the full command plays ann's move, then it
        ("bob@example.org", "trugo queue 1 bob pw-bob {reply}", "queued"),
        # bob proposes a draw: ann's move withdraws the proposal
        ("bob@example.org", "trugo propose 1 bob pw-bob", "voted"),
        # cy subscribes: her copy of the board mail goes out
        ("cy@example.org", "trugo subscribe cy pw-cy 1", "watched"),
    ],
)
def test_a_board_changed_between_the_read_and_the_write_goes_the_full_way(
    twins: tuple[Server, Server, Clock],
    taken: list[bool],
    monkeypatch: pytest.MonkeyPatch,
    sender: str,
    line: str,
    check: str,
) -> None:
    """A command lands while ann's move is being worked out: the quick
    path's write turn sees what it changed and hands the move back, and
    the full command plays the move as the board now is."""
    quick, _, _ = twins
    start((quick,), "trugo challenge ann bob")
    state = get_game("trugo").start()
    first = state.move_text(state.legal_moves()[0])
    after = state.play_text(first)
    reply = after.move_text(after.legal_moves()[0])
    real = quick_move._plan

    def meanwhile(*args: Any) -> Any:
        planned = real(*args)
        answers = quick.handle(sender, line.format(reply=reply))
        assert answers and all(answer.error is None for answer in answers.mails)
        return planned

    monkeypatch.setattr(quick_move, "_plan", meanwhile)
    move = commands.Move(game="trugo", board=1, userid="ann", move=first)
    sent = quick.execute(move, as_user="ann")
    assert taken == [False]
    with quick.sessions() as session:
        board = session.get_one(Board, 1)
        moves = [m.text for m in board.moves]
        votes = session.scalars(select(Vote)).all()
    if check == "queued":
        assert board.version == 2 and moves == [first, reply]
    else:
        assert board.version == 1 and moves == [first]
    if check == "voted":
        assert votes == []
    if check == "watched":
        assert any("cy@example.org" in mail.to for mail in sent.mails)


def mailed_both(
    quick: Server, full: Server, sender: str, line: str, key: str | None, body: str = ""
) -> list[Any]:
    """A command mailed to both; their answers and their rows must agree."""
    one = quick.handle(sender, line, body, key, by_mail=True)
    other = full.handle(sender, line, body, key, by_mail=True)
    assert mails(one) == mails(other)
    assert one.effects == other.effects
    assert rows(quick) == rows(full)
    return mails(one)


@pytest.mark.parametrize("name", ["trugo", "vasco"])
def test_mailed_moves_leave_the_same_rows_both_ways(
    twins: tuple[Server, Server, Clock], taken: list[bool], name: str
) -> None:
    """By mail: a password checked before plays the quick way; a first
    check (argon2), a wrong password, a stranger's address, a mail seen
    before and everything the web's moves hand back go the full way."""
    quick, full, clock = twins
    rng = random.Random(f"mail {name}")
    start((quick, full), f"{name} challenge ann bob")
    state = get_game(name).start()
    players = ("ann", "bob")
    senders = {"ann": ["ann@example.org", "Ann@Elsewhere.example"], "bob": ["bob@example.org"]}
    played = 0
    for number in range(1, 50):
        if state.result is not None:
            break
        assert state.to_move is not None
        mover = players[state.to_move]
        text = state.move_text(rng.choice(state.legal_moves()))
        clock.advance(minutes=rng.randint(1, 3000))
        played += 1
        if rng.random() < 0.15:
            wrong = f"{name} move 1 {mover} not-the-password {text}"
            mailed_both(quick, full, senders[mover][0], wrong, f"<w{number}@t>")
            stranger = f"{name} move 1 {mover} pw-{mover} {text}#{number + 1}"
            mailed_both(quick, full, "someone@else.example", stranger, f"<s{number}@t>")
        key = rng.choice([None, f"<m{number}@t>"])
        line = f"{name} move 1 {mover} pw-{mover} {text}" + rng.choice(["", f"#{number}"])
        body = rng.choice(["", "nice one"])
        mailed_both(quick, full, rng.choice(senders[mover]), line, key, body)
        if key is not None:  # the same mail again: nothing runs, nothing is answered
            assert mailed_both(quick, full, senders[mover][0], line, key, body) == []
        state = state.play_text(text)
    # all but each player's first (argon2) and the last (the game's end)
    assert sum(taken) >= played - 4, "moves with a known password go the quick way"


def test_a_password_changed_before_the_write_turn_is_checked_again(
    twins: tuple[Server, Server, Clock], taken: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's password, checked before, is changed while her mailed move is
    worked out: the write turn sees a new hash, and the full command
    refuses the old password."""
    quick, _, _ = twins
    start((quick,), "trugo challenge ann bob")
    quick.handle("ann@example.org", "mail ann pw-ann every")  # her password is known now
    state = get_game("trugo").start()
    text = state.move_text(state.legal_moves()[0])
    real = quick_move._plan

    def meanwhile(*args: Any) -> Any:
        planned = real(*args)
        quick.handle("ann@example.org", "change password ann pw-ann newer-pw")
        return planned

    monkeypatch.setattr(quick_move, "_plan", meanwhile)
    (refusal,) = quick.handle("ann@example.org", f"trugo move 1 ann pw-ann {text}").mails
    assert taken == [False] and refusal.error_kind == "forbidden"
    with quick.sessions() as session:
        assert session.get_one(Board, 1).version == 0


def test_a_plain_move_is_two_round_trips_on_postgresql(
    twins: tuple[Server, Server, Clock], taken: list[bool]
) -> None:
    """A move from the web or the API: its board's stamp with its seats, and
    its claim, move and mails written as one statement, with no BEGIN or
    COMMIT around it (on PostgreSQL; it was eight round trips: the write
    turn was a transaction of three statements); and one statement more
    where this process does not keep the board's view at that stamp (the
    opponent moved through another process: the view was seven). SQLite
    writes in its shared turn."""
    quick, _, clock = twins
    start((quick,), "trugo challenge ann bob")
    state = get_game("trugo").start()
    engine = quick.sessions.kw["bind"]
    other = CheckedServer(session_factory(engine), clock, quick_moves=True)  # another process
    said: list[str] = []

    def note(connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        driver = connection.connection.driver_connection
        alone = engine.dialect.name == "postgresql" and driver.autocommit  # (no BEGIN sent)
        said.append(statement.split(None, 1)[0].upper() + ("" if alone else " in a transaction"))

    for server in (quick, other):
        server.views.get(1)  # (the doors have the board's view already: the page shows it)
    event.listen(engine, "before_cursor_execute", note)
    try:
        for server, mover in ((quick, "ann"), (other, "bob")):
            text = state.move_text(state.legal_moves()[0])
            sent = server.execute(
                commands.Move(game="trugo", board=1, userid=mover, move=text), as_user=mover
            )
            assert [mail.error for mail in sent.mails] == [None, None]
            state = state.play_text(text)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert taken == [True, True]
    if engine.dialect.name == "postgresql":
        assert said == ["SELECT", "WITH", "SELECT", "SELECT", "WITH"]
    else:
        assert said.count("UPDATE in a transaction") == 2
    with quick.sessions() as session:
        board = session.get_one(Board, 1)
        assert board.version == 2 and [move.seat for move in board.moves] == [0, 1]
        assert session.scalar(select(func.count()).select_from(OutboxMessage)) >= 4


def test_a_mailed_move_is_written_in_one_statement_on_postgresql(
    twins: tuple[Server, Server, Clock], taken: list[bool]
) -> None:
    """By mail, with a password checked before: the seats are read with the
    answers the sender had this hour, and the claim (proven by the password
    hash), the mail's Message-ID, the move and the mails are written as one
    statement on PostgreSQL (it was a transaction of six); the same mail
    again is seen and not answered. SQLite writes in its shared turn."""
    quick, _, _ = twins
    start((quick,), "trugo challenge ann bob")
    quick.handle("ann@example.org", "mail ann pw-ann every")  # her password is known now
    state = get_game("trugo").start()
    text = state.move_text(state.legal_moves()[0])
    engine = quick.sessions.kw["bind"]
    quick.views.get(1)
    said: list[str] = []

    def note(connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        driver = connection.connection.driver_connection
        alone = engine.dialect.name == "postgresql" and driver.autocommit
        said.append(statement.split(None, 1)[0].upper() + ("" if alone else " in a transaction"))

    line = f"trugo move 1 ann pw-ann {text}"
    event.listen(engine, "before_cursor_execute", note)
    try:
        sent = quick.handle("ann@example.org", line, "", "<one@t>", by_mail=True)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert taken == [True] and [mail.error for mail in sent.mails] == [None, None]
    if engine.dialect.name == "postgresql":
        assert said == ["SELECT", "WITH"]
    else:
        assert said.count("UPDATE in a transaction") == 1
    assert quick.handle("ann@example.org", line, "", "<one@t>", by_mail=True).mails == ()
    with quick.sessions() as session:
        board = session.get_one(Board, 1)
        assert board.version == 1
        answers = session.scalars(
            select(OutboxMessage).where(OutboxMessage.answers == "ann@example.org")
        ).all()
        assert [mail.in_reply_to for mail in answers] == ["<one@t>"]
