"""Boards in the database: create one, rebuild its state, and apply a move
so that two commands racing on one board never both apply.

Every change of a board goes through here, so each one also sets whose move
it is (`to_move`) and when the periodic job is next due for it (`due_at`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from ..games import get_game
from ..games.base import Options, State
from .database import rows_changed
from .models import Board, BoardPlayer, MoveRow, User
from .positions import POSITIONS
from .status import BoardStatus, Ending

# A player late to move is reminded at most this often (see server/boards/tick.py).
NAG_EVERY = timedelta(days=1)


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
    return POSITIONS.options(board.game, board.options)


def record_of(board: Board) -> list[str]:
    """The board's moves, as canonical texts (kept with its snapshot)."""
    return list(board.snapshot["moves"])


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
    hints: bool = False,
    unrated: bool = False,
) -> Board:
    """A new board for these players (seat order) with the game's options;
    raises KeyError for an unknown game and OptionError for bad options."""
    game = get_game(game_name)
    options = game.parse_options(option_words)
    state = game.new_state(options)
    board = Board(
        game=game.name,
        options=options.to_json(),
        status=BoardStatus.ACTIVE,
        version=0,
        snapshot=snapshot_of(state),
        to_move=state.to_move,
        nag_days=nag_days,
        forfeit_days=forfeit_days,
        total_days=total_days,
        hints=hints,
        unrated=unrated,
        with_bot=any(user.is_bot for user in players),
        created_at=now,
        updated_at=now,
    )
    board.players = [
        BoardPlayer(seat=seat, user_id=user.id, user=user, active=True)
        for seat, user in enumerate(players)
    ]
    board.due_at = due_time(board, [])
    session.add(board)
    session.flush()
    POSITIONS.keep(board.game, board.options, state)
    return board


def snapshot_of(state: State[Any]) -> dict[str, object]:
    """What a board keeps of its state: its JSON form without the legal
    moves (worked out when asked for, not at every move)."""
    return state.to_json(legal_moves=False)


def rebuild(board: Board, upto: int | None = None) -> State[Any]:
    """The board's state (after its first `upto` moves): from the positions
    kept in this process, else replayed from its record."""
    moves = record_of(board)
    if upto is not None:
        moves = moves[:upto]
    return POSITIONS.state(board.game, board.options, moves)


def time_used(board: Board, moves: Sequence[MoveRow], seat: int, now: datetime) -> timedelta:
    """The time `seat` has spent on its moves, and on the current wait if it
    is to move: each move's time runs from the move before it."""
    used = timedelta()
    previous = board.created_at
    for move in moves:
        if move.seat == seat:
            used += move.played_at - previous
        previous = move.played_at
    if board.to_move == seat:
        used += now - previous
    return used


def forfeit_time(board: Board) -> datetime | None:
    """When the player to move forfeits: the forfeit time after the board's
    last change, but never before `forfeit_not_before` (None: no forfeit)."""
    if not board.forfeit_days:
        return None
    forfeit = board.updated_at + timedelta(days=board.forfeit_days)
    if board.forfeit_not_before is not None:
        forfeit = max(forfeit, board.forfeit_not_before)
    return forfeit


def due_time(board: Board, moves: Sequence[MoveRow] | None = None) -> datetime | None:
    """When the periodic job must next look at the board: the first of its
    nag, its forfeit, and the player to move's total time running out
    (None: a finished board, one without time limits, or a bot to move). `moves`, the
    board's move rows, are needed only for a total time limit."""
    if board.status is not BoardStatus.ACTIVE or board.to_move is None:
        return None
    if board.players and board.players[board.to_move].user.is_bot:
        return None  # a bot is never nagged and never runs out of time
    times = []
    if board.nag_days:
        nag = board.updated_at + timedelta(days=board.nag_days)
        if board.nagged_at is not None and board.nagged_at >= board.updated_at:
            nag = max(nag, board.nagged_at + NAG_EVERY)
        times.append(nag)
    forfeit = forfeit_time(board)
    if forfeit is not None:
        times.append(forfeit)
    if board.total_days:
        rows = board.moves if moves is None else moves
        previous = rows[-1].played_at if rows else board.created_at
        used = time_used(board, rows, board.to_move, previous)
        times.append(previous + timedelta(days=board.total_days) - used)
    return min(times) if times else None


def finished_here(session: Session) -> bool:
    """Whether a board ended in this session's transaction (so ratings are due)."""
    return bool(session.info.get(_FINISHED))


_FINISHED = "pbem_finished_boards"


def _note_finished(session: Session, board: Board) -> None:
    """The board has just ended: its seats are no longer active boards of
    their players, and its ratings are due at the commit."""
    session.execute(
        update(BoardPlayer)
        .where(BoardPlayer.board_id == board.id)
        .values(active=False)
        .execution_options(synchronize_session=False)
    )
    for player in board.__dict__.get("players", ()):  # (the seats loaded, if any)
        set_committed_value(player, "active", False)
    session.info.setdefault(_FINISHED, set()).add(board.id)


def _committed(board: Board, **values: object) -> None:
    """Set what an UPDATE just wrote on the loaded board, without a reload."""
    for name, value in values.items():
        set_committed_value(board, name, value)


def _claim(session: Session, board: Board, expected: int, values: dict[str, object]) -> None:
    """Write `values` on the board if it is still active at move `expected`,
    else raise StaleBoard (another command changed it first; a resignation
    or forfeit ends a board at the same version, so a move checked before it
    must not revive it). Every change moves the board's revision on, which
    tells the doors' kept views (server/views/board_view.py) that they are old."""
    claimed = session.execute(
        update(Board)
        .where(Board.id == board.id, Board.version == expected, Board.status == BoardStatus.ACTIVE)
        .values({**values, "revision": Board.revision + 1})
        .execution_options(synchronize_session=False)
    )
    if rows_changed(claimed) != 1:
        session.expire(board)
        raise StaleBoard(board.id, expected)
    session.expire(board, ["revision"])  # (moved on in SQL: read again if asked)


def apply_move(
    session: Session,
    board: Board,
    expected: int,
    text: str,
    now: datetime,
    *,
    comment: str = "",
    auto: bool = False,
) -> State[Any]:
    """Play `text` as move `expected + 1` of the board, or raise StaleBoard
    if the board has another number of moves by now, or the game's
    MoveError if the move is not legal. The caller commits."""
    if board.version != expected:
        raise StaleBoard(board.id, expected, board.version)
    state = rebuild(board)
    seat = state.to_move
    after = state.play_text(text)
    assert seat is not None
    over = after.result is not None
    values: dict[str, object] = {
        "version": expected + 1,
        "snapshot": snapshot_of(after),
        "updated_at": now,
        "status": BoardStatus.FINISHED if over else BoardStatus.ACTIVE,
        "ending": Ending.RULES if over else None,
        "winner": None if after.result is None else after.result.winner,
        "result": None if after.result is None else after.result.reason,
        "to_move": after.to_move,
    }
    record = after.history[-1]
    row = MoveRow(
        board_id=board.id,
        number=expected + 1,
        seat=seat,
        text=record.text,
        note=record.note,
        comment=comment,
        auto=auto,
        played_at=now,
    )
    moves = None
    if board.total_days:
        moves = [*session.scalars(select(MoveRow).where(MoveRow.board_id == board.id)), row]
        moves.sort(key=lambda move: move.number)
    _committed(board, **values)  # (a lost race ends the command, and the session with it)
    values["due_at"] = due_time(board, moves)
    _claim(session, board, expected, values)
    _committed(board, due_at=values["due_at"])
    if over:
        _note_finished(session, board)
    session.add(row)
    session.flush()
    session.expire(board, ["moves"])
    POSITIONS.keep(board.game, board.options, after)
    return after


def finish_board(
    session: Session,
    board: Board,
    winner: int | None,
    reason: str,
    ending: Ending,
    now: datetime,
) -> None:
    """End an active board by the server's rules (a resignation, an agreed
    draw, a forfeit): not a move, so the record and version stay. A board
    whose ending does not count (a declined challenge) is marked rated
    already."""
    values: dict[str, object] = {
        "status": BoardStatus.FINISHED,
        "winner": winner,
        "result": reason,
        "ending": ending,
        "updated_at": now,
        "rated": not ending.rated,
        "to_move": None,
        "due_at": None,
    }
    _claim(session, board, board.version, values)
    _committed(board, **values)
    _note_finished(session, board)


def take_back(session: Session, board: Board, now: datetime) -> State[Any]:
    """Remove the last move of an active board (an agreed undo)."""
    expected = board.version
    if expected == 0:
        raise ValueError("no move to take back")
    state = rebuild(board, expected - 1)
    last = session.scalar(
        select(MoveRow).where(MoveRow.board_id == board.id, MoveRow.number == expected)
    )
    values: dict[str, object] = {
        "version": expected - 1,
        "snapshot": snapshot_of(state),
        "updated_at": now,
        "to_move": state.to_move,
    }
    _claim(session, board, expected, values)
    _committed(board, **values)
    if last is not None:
        session.delete(last)
    session.flush()
    session.expire(board, ["moves"])
    reschedule(session, board)
    return state


def reschedule(session: Session, board: Board) -> None:
    """Work out the board's `due_at` again (after a nag, a vacation, an undo)."""
    due = due_time(board)
    if due != board.due_at:
        board.due_at = due
        session.flush()


def boards_of(
    session: Session, user_id: int, *, game: str | None = None, active: bool = False
) -> list[Board]:
    """The boards a user plays on, oldest first: of one game, or only active ones."""
    query = select(Board).join(BoardPlayer).where(BoardPlayer.user_id == user_id)
    if game is not None:
        query = query.where(Board.game == game)
    if active:
        query = query.where(Board.status == BoardStatus.ACTIVE)
    return list(session.scalars(query.order_by(Board.id)))


def awaits(board: Board, user_id: int) -> bool:
    """Whether the active board waits for this user's move."""
    seat = board.to_move
    return (
        board.status is BoardStatus.ACTIVE
        and seat is not None
        and board.players[seat].user_id == user_id
    )


def players_of(board: Board) -> list[str]:
    """The board's players' userids, by seat."""
    return [player.user.userid for player in board.players]
