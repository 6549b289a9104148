"""A plain move, played with a few statements and a short write.

Most commands the web and the API send are moves by the player to move on
a board with nothing else going on. `quick_move` plays those without the
ORM: it reads the board's view (kept per change, `board_view.py`) and one
small row set outside any write transaction, plays the move and writes its
mails there, and only then takes the write turn for a guarded UPDATE and
three INSERTs. On SQLite the write lock is held for those statements
alone, not for the rules and the mails.

Anything else (a board with proposals, a submitted or queued move, a
subscriber, a total-time clock; a move that ends the game; a refusal of
any kind; a board changed between the read and the write) returns None
and the caller runs the full command (`board_commands.play`), which is
the reference: tests play random games both ways and compare every row.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import Connection, Engine, bindparam, delete, exists, insert, select, update

from ..games.base import MoveError, State
from ..store import (
    Address,
    Board,
    BoardPlayer,
    BoardStatus,
    MoveRow,
    PendingMove,
    QueuedMove,
    Subscription,
    User,
    Vote,
)
from ..store.boards import due_time, snapshot_of
from ..store.database import rows_changed
from ..store.positions import POSITIONS
from .board_mail import board_body, subject
from .board_view import BoardView, BoardViews, PlayedMove
from .commands import Move
from .footers import signed, stop_line
from .messages import BoardView as ShownBoard
from .messages import Effect, Outgoing, Sent, queue_messages

_MAIN_ADDRESS = (
    select(Address.address)
    .where(Address.user_id == User.id)
    .order_by(Address.id)
    .limit(1)
    .scalar_subquery()
)
_PEOPLE = (
    select(BoardPlayer.seat, User.mail_preference, _MAIN_ADDRESS.label("address"))
    .join(User, User.id == BoardPlayer.user_id)
    .where(BoardPlayer.board_id == bindparam("board"))
    .order_by(BoardPlayer.seat)
)
_ADDRESSES = (
    select(Address.address_key)
    .join(User, User.id == Address.user_id)
    .where(User.userid_key == bindparam("userid"))
)
# What sends a move down the full path, read before the move and again in
# its write turn (another command may have queued or subscribed between).
_BUSY = select(
    Board.nagged_at,
    exists().where(QueuedMove.board_id == Board.id).label("queued"),
    exists().where(PendingMove.board_id == Board.id).label("pending"),
    exists()
    .where(Subscription.board_id == Board.id, Subscription.kind == "board")
    .label("watched"),
).where(Board.id == bindparam("board"))


# The write turn's statements, built once (building a statement costs more
# than running it on SQLite).
_CLAIM = (
    update(Board)
    .where(
        Board.id == bindparam("board"),
        Board.version == bindparam("read_version"),
        Board.revision == bindparam("read_revision"),
        Board.status == BoardStatus.ACTIVE,
    )
    .values(
        version=bindparam("new_version"),
        snapshot=bindparam("new_snapshot"),
        updated_at=bindparam("new_updated_at"),
        to_move=bindparam("new_to_move"),
        due_at=bindparam("new_due_at"),
        revision=Board.revision + 1,
    )
)
_ADD_MOVE = insert(MoveRow)
_CLEAR_VOTES = delete(Vote).where(Vote.board_id == bindparam("board"))


@dataclass(frozen=True)
class Reader:
    """A player as the board mail needs them."""

    seat: int
    preference: str
    address: str


@dataclass(frozen=True)
class Planned:
    """Everything the write turn writes: the board's new row values, the
    move, the mails; and the view and state to keep once it is done."""

    before: BoardView
    after: BoardView
    state: State
    values: dict[str, object]
    move: dict[str, object]
    mails: list[Outgoing]


def quick_move(
    writer: Engine,
    reader: Engine,
    views: BoardViews,
    command: Move,
    userid: str,
    now: datetime,
) -> Sent | None:
    """Play a plain move for `userid`, whom the door vouched for; None when
    it is not one (the caller then runs the full command)."""
    view = views.get(command.board)
    if view is None or not _plain(view, command, userid):
        return None
    with reader.connect() as connection:
        busy = connection.execute(_BUSY, {"board": view.id}).one()
        if busy.queued or busy.pending or busy.watched:
            return None
        people = [Reader(*row) for row in connection.execute(_PEOPLE, {"board": view.id})]
        actor = frozenset(connection.scalars(_ADDRESSES, {"userid": userid.lower()}))
    planned = _plan(view, command, people, busy.nagged_at, now)
    if planned is None:
        return None
    try:
        with writer.begin() as connection:
            _write(connection, planned, busy.nagged_at, now)
    except _Changed:
        return None  # another command changed the board first: the full path decides
    POSITIONS.keep(view.game, view.options, planned.state)
    views.keep(planned.after)
    sent = Sent(planned.mails)
    sent.actor = actor
    sent.effects = (Effect.MOVED,)
    return sent


class _Changed(Exception):
    """The board changed between the read and the write turn."""


def _write(
    connection: Connection, planned: Planned, nagged_at: datetime | None, now: datetime
) -> None:
    """The write turn: the board still as read (else _Changed), then the
    move, the votes it ends, and its mails."""
    board = planned.before.id
    again = connection.execute(_BUSY, {"board": board}).one()
    if again.queued or again.pending or again.watched or again.nagged_at != nagged_at:
        raise _Changed
    claimed = connection.execute(
        _CLAIM,
        {
            "board": board,
            "read_version": planned.before.version,
            "read_revision": planned.before.revision,
            **{f"new_{name}": value for name, value in planned.values.items()},
        },
    )
    if rows_changed(claimed) != 1:
        raise _Changed
    connection.execute(_ADD_MOVE, [planned.move])
    connection.execute(_CLEAR_VOTES, {"board": board})
    queue_messages(connection, planned.mails, now, None)


def _plain(view: BoardView, command: Move, userid: str) -> bool:
    """Whether the move may be a plain one: the player to move, on an
    active board of the named game with no proposal or total clock, at
    the move it names."""
    return (
        view.game == command.game
        and view.active
        and not view.votes
        and not view.total_days
        and view.to_move is not None
        and view.seat_of(userid) == view.to_move
        and command.userid.lower() == userid.lower()
        and (command.number is None or command.number == view.version + 1)
    )


def _plan(
    view: BoardView,
    command: Move,
    people: list[Reader],
    nagged_at: datetime | None,
    now: datetime,
) -> Planned | None:
    state = view.state()
    seat = view.to_move
    assert seat is not None
    try:
        after = state.play_text(command.move)
    except MoveError:
        return None  # the full path says why
    if after.result is not None or after.to_move is None:
        return None  # a game's end is rated and announced there
    record = after.history[-1]
    number = view.version + 1
    due = due_time(
        Board(
            status=BoardStatus.ACTIVE,
            to_move=after.to_move,
            nag_days=view.nag_days,
            forfeit_days=view.forfeit_days,
            total_days=None,
            updated_at=now,
            nagged_at=nagged_at,
        )
    )
    values: dict[str, object] = {
        "version": number,
        "snapshot": snapshot_of(after),
        "updated_at": now,
        "to_move": after.to_move,
        "due_at": due,
    }
    move: dict[str, object] = {
        "board_id": view.id,
        "number": number,
        "seat": seat,
        "text": record.text,
        "note": record.note,
        "comment": command.comment,
        "auto": False,
        "played_at": now,
    }
    played = PlayedMove(
        number=number,
        seat=seat,
        player=view.players[seat],
        text=record.text,
        note=record.note,
        comment=command.comment,
        auto=False,
        played_at=now,
    )
    shown = replace(
        view,
        stamp=(view.id, view.revision + 1, BoardStatus.ACTIVE, ()),
        revision=view.revision + 1,
        record=after.moves,
        version=number,
        to_move=after.to_move,
        updated_at=now,
        votes=(),
        moves=(*view.moves, played),
    )
    return Planned(view, shown, after, values, move, _mails(shown, after, people, command))


def _mails(view: BoardView, after: State, people: list[Reader], command: Move) -> list[Outgoing]:
    """The board mail to each player who wants every one (`send_board`, for
    a board with no subscribers), each with its stop line."""
    mover = view.players[view.moves[-1].seat]
    topic = subject(view, after, commented=bool(command.comment.strip()))
    mails = []
    for reader in people:
        if reader.preference != "every":
            continue
        body = board_body(view, after, reader.seat, comment=command.comment, commenter=mover)
        mail = Outgoing(
            (reader.address,), topic, body, board=ShownBoard(view.id, view.version, reader.seat)
        )
        mails.append(signed(mail, stop_line(view.players[reader.seat])))
    return mails
