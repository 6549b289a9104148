"""Boards in a real database: the record replays to the stored snapshot, a
stale or illegal move changes nothing, and of two racing commands one wins."""

from __future__ import annotations

from datetime import UTC, datetime
from multiprocessing.context import SpawnContext

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from pbem.games.base import IllegalMove
from pbem.store import (
    Board,
    BoardPlayer,
    BoardStatus,
    Ending,
    MoveRow,
    User,
    make_engine,
    session_factory,
)
from pbem.store.boards import StaleBoard, apply_move, create_board, finish_board, rebuild

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC).replace(tzinfo=None)


def add_users(session: Session, *names: str) -> list[User]:
    users = [
        User(userid=name, userid_key=name.lower(), password_hash="x", created_at=NOW)
        for name in names
    ]
    session.add_all(users)
    session.flush()
    return users


@pytest.mark.parametrize(
    ("game", "options", "moves"),
    [
        ("vasco", ["-size=12"], ["a0,0", "b1,0", "a2,1"]),
        ("trugo", [], ["a0,0", "a0,-1", "a1,0", "a2,0", "a1,-1"]),
        ("vacu", [], ["komi6", "white", "E5", "D5", "button"]),
        ("convacu", ["-komi=3", "-size=5"], ["C3", "B3", "button"]),
    ],
)
def test_the_record_replays_to_the_stored_snapshot(
    engine: Engine, game: str, options: list[str], moves: list[str]
) -> None:
    sessions = session_factory(engine)
    with sessions.begin() as session:
        alice, bob = add_users(session, "Alice", "bob")
        board = create_board(session, game, options, [alice, bob], NOW, nag_days=5)
        for number, text in enumerate(moves):
            apply_move(session, board, number, text.upper(), NOW, comment=f"c{number}")
        board_id = board.id
    with sessions() as session:
        board = session.get_one(Board, board_id)
        assert board.version == len(moves)
        assert [move.text for move in board.moves] == list(rebuild(board).moves)
        assert rebuild(board).to_json(legal_moves=False) == board.snapshot
        assert [move.comment for move in board.moves] == [f"c{n}" for n in range(len(moves))]
        assert [p.user.userid for p in board.players] == ["Alice", "bob"]
        assert board.nag_days == 5 and board.status == "active"


def test_a_finished_game_is_marked_with_its_result(engine: Engine) -> None:
    sessions = session_factory(engine)
    with sessions.begin() as session:
        players = add_users(session, "ann", "ben")
        board = create_board(session, "vasco", ["-size=12"], players, NOW)
        for number, text in enumerate(["c0,0", "a1,-1", "f-1,-1"]):
            apply_move(session, board, number, text, NOW)
        board_id = board.id
    with sessions() as session:
        board = session.get_one(Board, board_id)
        assert board.status == "finished" and board.winner == 0
        assert board.result == "O (red) closed a loop of 6 tiles"


def test_stale_and_illegal_moves_change_nothing(engine: Engine) -> None:
    sessions = session_factory(engine)
    with sessions.begin() as session:
        players = add_users(session, "ann", "ben")
        board = create_board(session, "vasco", [], players, NOW)
        apply_move(session, board, 0, "a0,0", NOW)
        board_id = board.id
    with sessions() as session, pytest.raises(StaleBoard, match="has moved on"), session.begin():
        apply_move(session, session.get_one(Board, board_id), 0, "b1,0", NOW)
    with sessions() as session, pytest.raises(IllegalMove), session.begin():
        apply_move(session, session.get_one(Board, board_id), 1, "a9,9", NOW)
    with sessions() as session:
        board = session.get_one(Board, board_id)
        assert board.version == 1
        assert session.scalar(select(func.count()).select_from(MoveRow)) == 1


def board_count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Board)) or 0


def _racer(url: str, board_id: int, text: str, start: object, results: object) -> None:
    """One process: wait for the other, then try to play move 2."""
    engine = make_engine(url)
    sessions = session_factory(engine)
    start.wait()  # type: ignore[attr-defined]
    try:
        with sessions.begin() as session:
            board = session.get_one(Board, board_id)
            apply_move(session, board, 1, text, NOW)
        results.put("won")  # type: ignore[attr-defined]
    except StaleBoard:
        results.put("stale")  # type: ignore[attr-defined]
    except Exception as error:  # anything else is a failure of the test
        results.put(f"error: {error!r}")  # type: ignore[attr-defined]
    finally:
        engine.dispose()


def test_two_processes_racing_on_one_board_never_both_apply(
    engine: Engine, database_url: str, spawn: SpawnContext
) -> None:
    sessions = session_factory(engine)
    context = spawn
    for _ in range(3):
        with sessions.begin() as session:
            players = add_users(session, f"a{board_count(session)}", f"b{board_count(session)}")
            board = create_board(session, "vasco", [], players, NOW)
            apply_move(session, board, 0, "a0,0", NOW)
            board_id = board.id
        start = context.Barrier(2)
        results = context.Queue()
        racers = [
            context.Process(target=_racer, args=(database_url, board_id, text, start, results))
            for text in ("b1,0", "b-1,0")
        ]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(60)
        outcome = sorted(results.get(timeout=5) for _ in racers)
        assert outcome == ["stale", "won"]
        with sessions() as session:
            board = session.get_one(Board, board_id)
            assert board.version == 2 and len(board.moves) == 2
            assert rebuild(board).to_json(legal_moves=False) == board.snapshot


def test_a_seat_is_active_exactly_while_its_board_is_being_played(engine: Engine) -> None:
    """`board_players.active` mirrors the board's status (the standings count
    a player's active boards by it): true when made, false once the board
    ends, by a move or by the server (a resignation, a forfeit)."""
    sessions = session_factory(engine)
    with sessions.begin() as session:
        players = add_users(session, "ann", "ben")
        ended_by_move = create_board(session, "vasco", ["-size=12"], players, NOW)
        resigned = create_board(session, "vasco", ["-size=12"], players, NOW)
        playing = create_board(session, "vasco", ["-size=12"], players, NOW)
        assert all(seat.active for seat in ended_by_move.players)
        for number, text in enumerate(["c0,0", "a1,-1", "f-1,-1"]):
            apply_move(session, ended_by_move, number, text, NOW)
        finish_board(session, resigned, 1, "ann resigned; ben wins", Ending.RESIGNATION, NOW)
        apply_move(session, playing, 0, "c0,0", NOW)
        assert [seat.active for seat in resigned.players] == [False, False]  # (in memory too)
    with sessions() as session:
        seats = session.execute(
            select(BoardPlayer.board_id, BoardPlayer.active, Board.status).join(Board)
        ).all()
    assert len(seats) == 6
    assert all(active == (status == BoardStatus.ACTIVE) for _, active, status in seats), seats
    assert {board for board, active, _ in seats if active} == {playing.id}
