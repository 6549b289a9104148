"""Board views: what the pages and the API show of a board, kept in memory by
stamp. Every change must show at once, in this process and in any other that
kept an older view; an unchanged board costs one statement."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, event, select

from pbem.server import Server
from pbem.server.views.board_view import BoardView, _read, _read_whole, _stamp
from pbem.store import Board, MoveRow, session_factory
from pbem.store.boards import rebuild
from tests.conftest import ENGINES
from tests.server.test_commands import CheckedServer, Clock, signup


@pytest.fixture
def other(engine: Engine, clock: Clock) -> Server:
    """A second server on the same database: another process, its own views."""
    return CheckedServer(session_factory(engine), clock)


def view(server: Server, board_id: int = 1) -> BoardView:
    found = server.views.get(board_id)
    assert found is not None
    return found


def assert_agrees(server: Server, found: BoardView) -> None:
    """The view says what the ORM reads from the database."""
    with server.reads() as session:
        board = session.get_one(Board, found.id)
        rows = session.scalars(
            select(MoveRow).where(MoveRow.board_id == found.id).order_by(MoveRow.number)
        ).all()
        assert found.version == board.version
        assert found.status == board.status
        assert found.to_move == board.to_move
        assert found.result == board.result and found.winner == board.winner
        assert found.players == tuple(p.user.userid for p in board.players)
        assert [(m.number, m.text, m.comment) for m in found.moves] == [
            (row.number, row.text, row.comment) for row in rows
        ]
        assert found.state().moves == rebuild(board).moves


def test_a_view_is_what_the_database_holds(server: Server) -> None:
    signup(server, "Alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    server.handle("alice@example.org", "vasco move 1 alice pw-Alice a0,0", "Good luck")
    found = view(server)
    assert_agrees(server, found)
    assert found.players == ("Alice", "bob")
    assert found.moves[0].comment == "Good luck" and found.moves[0].player == "Alice"
    assert found.player_to_move == "bob" and found.active
    assert found.seat_of("ALICE") == 0 and found.seat_of("carol") is None
    assert server.views.get(2) is None


def test_every_change_shows_here_and_in_another_process(
    server: Server, other: Server, clock: Clock
) -> None:
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    assert view(other).version == 1  # the other process keeps this view

    # An undo and a new move at the same instant: the version and the time
    # are as before, the move is not.
    server.handle("alice@example.org", "vasco undo 1 alice pw-alice")
    assert view(other).proposals() == {"undo": ["alice"]}
    assert view(other).proposal_sentences() == [
        "alice proposed taking back the last move; waiting for bob"
    ]
    server.handle("bob@example.org", "vasco accept 1 bob pw-bob")
    assert view(other).version == 0 and view(other).votes == ()
    server.handle("alice@example.org", "vasco move 1 alice pw-alice b0,0")
    for seen in (view(server), view(other)):
        assert [m.text for m in seen.moves] == ["b0,0"]
        assert_agrees(server, seen)

    server.handle("bob@example.org", "vasco accept bob pw-bob")  # he took the challenge up
    server.handle("bob@example.org", "vasco resign 1 bob pw-bob")
    ended = view(other)
    assert ended.status == "finished" and not ended.active and ended.winner == 0
    assert ended.player_to_move is None
    assert_agrees(server, ended)

    clock.advance(days=60)
    server.tick()  # archives the finished board
    assert view(other).status == "archived"


def test_an_unchanged_board_costs_one_statement(server: Server, engine: Engine) -> None:
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    first = view(server)
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        again = view(server)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert again is first
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1


def test_ratings_and_subscribers_are_read_fresh(server: Server) -> None:
    signup(server, "alice", "bob", "carol")
    server.handle("alice@example.org", "vasco challenge alice bob")
    found = view(server)
    assert server.views.around(found).watchers == []
    server.handle("carol@example.org", "vasco subscribe carol pw-carol 1")
    assert server.views.around(found).watchers == ["carol"]
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    server.handle("bob@example.org", "vasco accept bob pw-bob")
    server.handle("bob@example.org", "vasco move 1 bob pw-bob resign")
    ended = view(server)
    ratings = server.views.around(ended).ratings
    assert set(ratings) == set(ended.user_ids)
    alice, bob = (ratings[user_id] for user_id in ended.user_ids)
    assert alice[0] > bob[0] and alice[1] == bob[1] == 1


def test_a_page_reads_what_get_and_around_read(server: Server, other: Server) -> None:
    """`with_around`, a page's reads, says what `get` and `around` say: on
    a board with a subscriber, in this process and in one whose kept view
    is old; on a finished, rated board with what it did to the ratings; and
    None for no board."""
    signup(server, "alice", "bob", "carol")
    server.handle("alice@example.org", "vasco challenge alice bob")
    server.handle("carol@example.org", "vasco subscribe carol pw-carol 1")
    view(other)
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    for reader in (server, other):
        found = reader.views.with_around(1)
        assert found is not None
        assert found[0] == view(reader)
        assert found[1] == reader.views.around(found[0])
        assert found[1].watchers == ["carol"] and set(found[1].ratings) == set(found[0].user_ids)
    server.handle("bob@example.org", "vasco accept bob pw-bob")
    server.handle("bob@example.org", "vasco move 1 bob pw-bob resign")
    found = other.views.with_around(1)
    assert found is not None
    ended, around = found
    assert not ended.active and around == other.views.around(ended)
    alice, bob = ended.user_ids
    assert around.ratings[alice][0] > around.ratings[bob][0]
    assert around.changes[alice][1] == around.ratings[alice][0]
    assert server.views.with_around(2) is None


def test_a_page_of_a_kept_board_is_one_statement_on_postgresql(
    server: Server, engine: Engine
) -> None:
    """On PostgreSQL a page's reads of a board this process keeps (its stamp,
    the players' ratings, the subscribers) are one statement, one round
    trip; SQLite reads the stamp, then the ratings and the subscribers, in
    one reading transaction on one connection."""
    signup(server, "alice", "bob", "carol")
    server.handle("alice@example.org", "vasco challenge alice bob")
    server.handle("carol@example.org", "vasco subscribe carol pw-carol 1")
    first = view(server)
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]).lstrip().split()[0].upper())

    event.listen(engine, "before_cursor_execute", count)
    try:
        found = server.views.with_around(1)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert found is not None and found[0] is first and found[1].watchers == ["carol"]
    if engine.dialect.name == "postgresql":
        assert statements == ["SELECT"]
    else:
        assert statements == ["BEGIN", "SELECT", "SELECT", "SELECT"]  # one reading transaction


def test_a_changed_board_is_read_in_two_statements_on_postgresql(
    server: Server, other: Server, engine: Engine
) -> None:
    """A process whose kept view is old (the opponent moved on another
    server) reads the board's stamp and then, on PostgreSQL, the whole view
    in one statement with no transaction around it; SQLite reads the parts
    one by one, which costs no round trip there."""
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    view(other)
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]).lstrip().split()[0].upper())

    event.listen(engine, "before_cursor_execute", count)
    try:
        changed = view(other)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert changed.version == 1
    if engine.dialect.name == "postgresql":
        assert statements == ["SELECT", "SELECT"]
    else:
        assert statements.count("SELECT") == 6  # the stamp, and again with the parts


@pytest.mark.parametrize("database_url", ENGINES[1:], indirect=True)
def test_the_one_statement_reads_what_the_parts_read(server: Server, engine: Engine) -> None:
    """PostgreSQL's one statement and the parts (SQLite's way, the reference)
    read the same view, on a board with every part: moves with comments,
    chat, a proposal; and no board at all."""
    signup(server, "alice", "bob", "carol")
    server.handle("alice@example.org", "vasco challenge alice bob")
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0", "Good luck")
    server.handle("bob@example.org", "vasco chat 1 bob pw-bob", "Thanks, you too")
    server.handle("bob@example.org", "vasco accept bob pw-bob")
    server.handle("bob@example.org", "vasco move 1 bob pw-bob b1,0")
    server.handle("alice@example.org", "vasco propose 1 alice pw-alice")
    with engine.connect() as connection:
        stamped = _stamp(connection, 1)
        assert stamped is not None
        parts = _read(connection, 1, *stamped)
        whole = _read_whole(connection, 1)
        assert _read_whole(connection, 2) is None
    assert whole == parts
    assert [move.comment for move in whole.moves] == ["Good luck", ""]
    assert [line.text for line in whole.chat] == ["Thanks, you too"]
    assert whole.votes == (("draw", 0),)
    assert_agrees(server, whole)
