"""Boards in the database: create one, rebuild its state, and apply a move
so that two commands racing on one board never both apply."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..games import get_game
from ..games.base import Options, State
from .models import Board, BoardPlayer, MoveRow, User


class StaleBoard(Exception):
    """The board moved on since the command looked at it (a racing command,
    or a stale `#N`); nothing was changed."""

    def __init__(self, board_id: int, expected: int, actual: int | None = None) -> None:
        now = f"it has {actual}" if actual is not None else "another command changed it first"
        super().__init__(
            f"Board {board_id} has moved on: the command was for move {expected + 1}, "
            f"but {now}. Look at the board again and resend."
        )
        self.board_id = board_id
        self.expected = expected


def options_of(board: Board) -> Options:
    game = get_game(board.game)
    return game.parse_options(
        f"-{name}" if value is True else f"-{name}={value}"
        for name, value in board.options.items()
        if value is not None and value is not False
    )


def create_board(
    session: Session,
    game_name: str,
    option_words: Sequence[str],
    players: Sequence[User],
    now: datetime,
    *,
    nag_days: int | None = None,
    forfeit_days: int | None = None,
    total_days: int | None = None,
) -> Board:
    """A new board for these players (seat order) with the game's options;
    raises KeyError for an unknown game and OptionError for bad options."""
    game = get_game(game_name)
    options = game.parse_options(option_words)
    state = game.new_state(options)
    board = Board(
        game=game.name,
        options=options.to_json(),
        status="active",
        version=0,
        snapshot=state.to_json(),
        nag_days=nag_days,
        forfeit_days=forfeit_days,
        total_days=total_days,
        created_at=now,
        updated_at=now,
    )
    board.players = [BoardPlayer(seat=seat, user_id=user.id) for seat, user in enumerate(players)]
    session.add(board)
    session.flush()
    return board


def rebuild(board: Board, upto: int | None = None) -> State:
    """The board's state, replayed from its record (the first `upto` moves).

    States are immutable, so a replay is kept on the loaded board, keyed by
    the moves replayed: a command that looks at the board several times (to
    check a turn, then to play) replays it once."""
    texts = tuple(move.text for move in board.moves)
    if upto is not None:
        texts = texts[:upto]
    replayed: dict[tuple[str, ...], State] = board.__dict__.setdefault("_replayed", {})
    if texts not in replayed:
        replayed[texts] = get_game(board.game).replay(options_of(board), texts)
    return replayed[texts]


def apply_move(
    session: Session,
    board: Board,
    expected: int,
    text: str,
    now: datetime,
    *,
    comment: str = "",
    auto: bool = False,
) -> State:
    """Play `text` as move `expected + 1` of the board, or raise StaleBoard
    if the board has another number of moves by now, or the game's
    MoveError if the move is not legal. The caller commits."""
    if board.version != expected:
        raise StaleBoard(board.id, expected, board.version)
    state = rebuild(board)
    seat = state.to_move
    after = state.play_text(text)
    assert seat is not None
    claimed = session.execute(
        update(Board)
        .where(Board.id == board.id, Board.version == expected)
        .values(
            version=expected + 1,
            snapshot=after.to_json(),
            updated_at=now,
            status="finished" if after.result is not None else "active",
            winner=None if after.result is None else after.result.winner,
            result=None if after.result is None else after.result.reason,
        )
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        raise StaleBoard(board.id, expected)
    record = after.history[-1]
    session.add(
        MoveRow(
            board_id=board.id,
            number=expected + 1,
            seat=seat,
            text=record.text,
            note=record.note,
            comment=comment,
            auto=auto,
            played_at=now,
        )
    )
    session.flush()
    session.refresh(board)
    return after


def finish_board(
    session: Session,
    board: Board,
    winner: int | None,
    reason: str,
    now: datetime,
    *,
    counts_in_ratings: bool = True,
) -> None:
    """End an active board by the server's rules (a resignation, an agreed
    draw, a forfeit): not a move, so the record and version stay. A board
    that does not count (a declined challenge) is marked rated already."""
    claimed = session.execute(
        update(Board)
        .where(Board.id == board.id, Board.version == board.version, Board.status == "active")
        .values(
            status="finished",
            winner=winner,
            result=reason,
            updated_at=now,
            rated=not counts_in_ratings,
        )
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        raise StaleBoard(board.id, board.version)
    session.refresh(board)


def take_back(session: Session, board: Board, now: datetime) -> State:
    """Remove the last move of an active board (an agreed undo)."""
    expected = board.version
    if expected == 0:
        raise ValueError("no move to take back")
    state = rebuild(board, expected - 1)
    claimed = session.execute(
        update(Board)
        .where(Board.id == board.id, Board.version == expected, Board.status == "active")
        .values(version=expected - 1, snapshot=state.to_json(), updated_at=now)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:
        raise StaleBoard(board.id, expected)
    session.delete(board.moves[-1])
    session.flush()
    session.refresh(board)
    return state


def boards_of(
    session: Session, user_id: int, *, game: str | None = None, active: bool = False
) -> list[Board]:
    """The boards a user plays on, oldest first: of one game, or only active ones."""
    query = select(Board).join(BoardPlayer).where(BoardPlayer.user_id == user_id)
    if game is not None:
        query = query.where(Board.game == game)
    if active:
        query = query.where(Board.status == "active")
    return list(session.scalars(query.order_by(Board.id)))


def awaits(board: Board, user_id: int) -> bool:
    """Whether the active board waits for this user's move."""
    seat = board.snapshot.get("to_move")
    return board.status == "active" and seat is not None and board.players[seat].user_id == user_id
