"""A plain move, played with a few statements and a short write.

Most commands are moves by the player to move on a board with nothing else
going on, from the web and the API (the door vouches for the player) or by
mail (a password this process has checked before). `quick_move` plays those
without the ORM: it reads the board's view (kept per change,
`board_view.py`) and a few small rows outside any write transaction, plays
the move and writes its mails there, and only then takes the write turn
for a guarded UPDATE and a few INSERTs. On SQLite the write lock is held
for those statements alone, not for the rules and the mails, and the
turns of a process's moves arriving together are written in one commit
(store/database.py GroupCommit). On PostgreSQL a plain move writes in one
statement outside any transaction (`_write_at_once`): a move from the web
or the API is then three round trips (its token, its board's stamp with
its seats, that statement; and one more when this process does not keep
the board's view at that stamp). A mailed one reads its sender's answers
this hour with the seats and notes its Message-ID in the same statement:
two round trips. A move through the JSON API looks its token up in the
same read as the seats (`TokenCheck`). The full command's counts, for
comparison, are in docs/performance.md.

Anything else (a board a bot plays on, a board with proposals, a
submitted or queued move, a subscriber, a total-time clock; a move that
ends the game or chooses the colours; a password not checked yet; a mail
from an address not the player's; a refusal of any kind; a board changed
between the read and the write) returns None and the caller runs the full
command (`board_commands.play`), which is the reference: tests play random
games both ways and compare every row.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Select,
    Table,
    bindparam,
    exists,
    func,
    insert,
    select,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError

from ...games.base import MoveError, State
from ...store import (
    Address,
    ApiToken,
    Board,
    BoardPlayer,
    BoardStatus,
    MoveRow,
    OutboxMessage,
    PendingMove,
    ProcessedMessage,
    QueuedMove,
    Subscription,
    SubscriptionKind,
    User,
    Vote,
)
from ...store.boards import due_time, snapshot_of
from ...store.database import GroupCommit, rows_changed
from ...store.positions import POSITIONS
from ..language.commands import Move
from ..language.messages import Effect, MailedBoard, Outcome, Outgoing, outbox_rows, queue_messages
from ..mailing.board_mail import board_body, subject
from ..mailing.footers import signed, stop_line
from ..mailing.reply_cap import WINDOW, all_fit, answers_back, cap_replies, capped, replies_counted
from ..players.passwords import VERDICTS
from ..views.board_view import BoardView, BoardViews, PlayedMove

_MAIN_ADDRESS = (
    select(Address.address)
    .where(Address.user_id == User.id)
    .order_by(Address.id)
    .limit(1)
    .scalar_subquery()
)
_ADDRESS_KEYS = (
    select(func.aggregate_strings(Address.address_key, "\n"))
    .where(Address.user_id == User.id)
    .scalar_subquery()
)
# What sends a move down the full path: a queued or submitted move, a
# subscriber, a vote (read before the move, and checked again by the write).
_QUEUED = exists().where(QueuedMove.board_id == Board.id)
_PENDING = exists().where(PendingMove.board_id == Board.id)
_WATCHED = exists().where(
    Subscription.board_id == Board.id, Subscription.kind == SubscriptionKind.BOARD
)
_VOTED = exists().where(Vote.board_id == Board.id)
# Everything a plain move reads, in one round trip: a row per seat, with the
# seat's user as the board mail and the password check need them, and on
# every row the board's stamp (the view kept at it, or read then, is the
# board as the move is planned on) and its busy marks.
_SEATS = (
    select(
        Board.revision,
        Board.status,
        _VOTED.label("voted"),
        BoardPlayer.seat,
        User.mail_preference,
        _MAIN_ADDRESS.label("address"),
        User.bot_level,
        User.userid_key,
        User.password_hash,
        _ADDRESS_KEYS.label("address_keys"),
        Board.nagged_at,
        (_QUEUED | _PENDING | _WATCHED).label("busy"),
    )
    .join(User, User.id == BoardPlayer.user_id)
    .join(Board, Board.id == BoardPlayer.board_id)
    .where(BoardPlayer.board_id == bindparam("board"))
    .order_by(BoardPlayer.seat)
)
# The same for a mailed move written in one statement (PostgreSQL): with
# the answers its sender has had this hour (reply_cap.py), read with the
# seats instead of in the write turn.
_SEATS_MAILED = _SEATS.add_columns(
    replies_counted(bindparam("sender"), bindparam("since")).scalar_subquery().label("replies")
)
# The same for a move through the JSON API: whose token it is and when its
# use was last noted, read with the seats instead of in a statement before.
_TOKEN = ApiToken.token_hash == bindparam("token")
_SEATS_TOKEN = _SEATS.add_columns(
    select(User.userid)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(_TOKEN)
    .scalar_subquery()
    .label("token_owner"),
    select(ApiToken.last_used_at).where(_TOKEN).scalar_subquery().label("token_used"),
)
_NOTE_SEEN = insert(ProcessedMessage)  # its key is unique: a mail seen before fails here


# The write turn's statements, built once (building a statement costs more
# than running it on SQLite). The claim moves the board on only if it is
# as the move was planned on: the same version and revision, still active,
# nagged as read, with nothing queued, submitted, watched or voted; the
# proven claim also only if the mover's password hash is still the one
# this process checked the password against.
_AS_READ = (
    Board.id == bindparam("board"),
    Board.version == bindparam("read_version"),
    Board.revision == bindparam("read_revision"),
    Board.status == BoardStatus.ACTIVE,
    Board.nagged_at.is_not_distinct_from(bindparam("read_nagged_at")),
    ~_QUEUED,
    ~_PENDING,
    ~_WATCHED,
    ~_VOTED,
)
_MOVED_ON = {
    "version": bindparam("new_version"),
    "snapshot": bindparam("new_snapshot"),
    "updated_at": bindparam("new_updated_at"),
    "to_move": bindparam("new_to_move"),
    "due_at": bindparam("new_due_at"),
    "revision": Board.revision + 1,
}
_CLAIM = update(Board).where(*_AS_READ).values(_MOVED_ON)
_CLAIM_PROVEN = (
    update(Board)
    .where(
        *_AS_READ,
        exists().where(
            User.userid_key == bindparam("mover"), User.password_hash == bindparam("proof")
        ),
    )
    .values(_MOVED_ON)
)
_ADD_MOVE = insert(MoveRow)
WARM_READS = (  # a move's first read (warm_up.py), from a door or from the API
    (_SEATS, {"board": 0}),
    (_SEATS_TOKEN, {"board": 0, "token": ""}),
)


@dataclass(frozen=True)
class Reader:
    """A player as the board mail needs them."""

    seat: int
    preference: str
    address: str | None  # None: a bot
    bot_level: str | None


@dataclass(frozen=True)
class Planned:
    """Everything the write turn writes: the board's new row values, the
    move, the mails; and the view and state to keep once it is done."""

    before: BoardView
    after: BoardView
    state: State[Any]
    values: dict[str, object]
    move: dict[str, object]
    mails: list[Outgoing]


@dataclass(frozen=True)
class Mailed:
    """Where a command line came from: the sender's address, the mail's
    key (its Message-ID, None without one), and whether its answers count
    against the sender's hour (`reply_cap`: it came by mail)."""

    sender: str
    key: str | None
    capped: bool


@dataclass(frozen=True)
class TokenCheck:
    """An API token to look up with the seats (api_tokens.py): its hash, and
    since when its use must have been noted (a use to note is the full
    path's)."""

    token_hash: str
    noted_since: datetime


def quick_move(
    writer: GroupCommit,
    reader: Engine,
    views: BoardViews,
    command: Move,
    now: datetime,
    *,
    vouched: bool,
    mailed: Mailed | None = None,
    token: TokenCheck | None = None,
) -> Outcome | None:
    """Play a plain move: for `command.userid`, whom the door vouched for
    (`vouched`) or whose password this process has checked before; by mail
    (`mailed`), as its answer; with `token`, for the token's owner (whatever
    `command.userid` says), found in the same read. None when it is not one
    (the caller then runs the full command)."""
    with reader.connect() as connection:
        if writer.alone is not None and mailed is not None and mailed.capped:
            asked = {"board": command.board, "sender": mailed.sender.lower(), "since": now - WINDOW}
            seats = connection.execute(_SEATS_MAILED, asked).all()
        elif token is not None:
            asked = {"board": command.board, "token": token.token_hash}
            seats = connection.execute(_SEATS_TOKEN, asked).all()
        else:
            seats = connection.execute(_SEATS, {"board": command.board}).all()
    if not seats or seats[0].busy or seats[0].voted:
        return None  # (no such board, or a busy one: the full path says what)
    if token is not None:
        owner, used = seats[0].token_owner, seats[0].token_used
        if owner is None or used is None or used <= token.noted_since:
            return None  # a token not known (refused there) or a use to note
        command = replace(command, userid=owner)
    if len({row.userid_key for row in seats}) != len(seats):
        return None  # (a player alone on the board: the full path)
    first = seats[0]
    view = views.at((command.board, first.revision, first.status, ()))
    if view is None or not _plain(view, command):
        return None
    nagged_at = first.nagged_at
    mover = next((row for row in seats if row.userid_key == command.userid.lower()), None)
    if mover is None or not mover.address_keys:
        return None  # (a bot, or a player with no address: the full path)
    addresses = frozenset(mover.address_keys.split("\n"))
    if not (vouched or _proven(command, mover.password_hash, mailed)):
        return None
    if mailed is not None and mailed.sender.lower() not in addresses:
        return None  # a copy goes to an onlooking sender: the full path sends it
    people = [Reader(row.seat, row.mail_preference, row.address, row.bot_level) for row in seats]
    planned = _plan(view, command, people, nagged_at, now)
    if planned is None:
        return None
    proof = None if vouched else mover.password_hash
    try:
        if writer.alone is not None:
            mails = _signed(planned.mails, _mover(planned))
            if mailed is not None and mailed.capped:
                if not all_fit(first.replies, len(answers_back(mailed.sender, mails))):
                    return None  # the hour fills up: the full path holds what must wait
                mails = capped(mailed.sender, mails, first.replies, now)
            with writer.alone.connect() as connection:
                _write_at_once(connection, planned, mails, nagged_at, now, mailed, proof)
        else:
            mails = writer.run(
                lambda connection: _write(connection, planned, nagged_at, now, mailed, proof)
            )
    except (_Changed, IntegrityError):
        # Another command changed the board first, or another server took
        # the same mail a moment ago: the full path decides.
        return None
    POSITIONS.keep(view.game, view.options, planned.state)
    views.keep(planned.after)
    actor = addresses if vouched else frozenset()
    return Outcome(tuple(mails), (Effect.MOVED,), actor=actor, view=planned.after)


def _proven(command: Move, password_hash: str, mailed: Mailed | None) -> bool:
    """Whether the password is the player's, as this process has checked
    before (a first check, with argon2, and any refusal are the full
    path's). A password found right is taken whatever the throttle counts
    (players/throttle.py): only its owner can send it."""
    return VERDICTS.known(password_hash, command.password or "") is True


class _Changed(Exception):
    """The board changed between the read and the write turn."""


def _write(
    connection: Connection,
    planned: Planned,
    nagged_at: datetime | None,
    now: datetime,
    mailed: Mailed | None,
    proof: str | None,
) -> list[Outgoing]:
    """The write turn: the board moves on if it is still as read and the
    password hash the move was proven by (`proof`) is still the mover's
    (else _Changed); then the move and its mails, as sent (a mailed
    command's answers within its sender's hour, `reply_cap`). A mail
    handled before fails on its key (IntegrityError)."""
    if mailed is not None and mailed.key is not None:
        connection.execute(_NOTE_SEEN, [_seen(mailed.key, now)])
    values = _claim_values(planned, nagged_at, proof)
    claimed = connection.execute(_CLAIM if proof is None else _CLAIM_PROVEN, values)
    if rows_changed(claimed) != 1:
        raise _Changed
    connection.execute(_ADD_MOVE, [planned.move])
    mails = planned.mails
    if mailed is not None and mailed.capped:
        mails = cap_replies(connection, mailed.sender, mails, now)
    mails = _signed(mails, _mover(planned))
    queue_messages(connection, mails, now, None if mailed is None else mailed.key)
    return mails


def _write_at_once(
    connection: Connection,
    planned: Planned,
    mails: list[Outgoing],
    nagged_at: datetime | None,
    now: datetime,
    mailed: Mailed | None,
    proof: str | None,
) -> None:
    """`_write` on PostgreSQL, its `mails` signed and capped already: the
    same claim, the mail noted as seen, the move and the mails as one
    statement (the claim's UPDATE and the INSERTs as WITH clauses, the
    INSERTs taking their one row from the claim's), so one round trip in
    autocommit, and atomic as any statement: a board that changed writes
    nothing (_Changed), a mail seen before fails on its key (IntegrityError)."""
    key = None if mailed is None else mailed.key
    queued = outbox_rows(mails, now, key)
    statement = _at_once(
        tuple(planned.move),
        tuple(queued[0]) if queued else (),
        len(queued),
        proven=proof is not None,
        seen=key is not None,
    )
    values = {
        **_claim_values(planned, nagged_at, proof),
        **{f"move_{name}": value for name, value in planned.move.items()},
        **{f"mail{n}_{name}": value for n, row in enumerate(queued) for name, value in row.items()},
    }
    if key is not None:
        values |= {f"seen_{name}": value for name, value in _seen(key, now).items()}
    if connection.execute(statement, values).scalar_one() != 1:
        raise _Changed


def _mover(planned: Planned) -> str:
    seat = planned.before.to_move
    assert seat is not None
    return planned.before.players[seat]


def _claim_values(
    planned: Planned, nagged_at: datetime | None, proof: str | None
) -> dict[str, object]:
    """The claim's parameters: the board as read, its new row values, and
    for a proven claim the mover and the password hash that proved them."""
    values = {
        "board": planned.before.id,
        "read_version": planned.before.version,
        "read_revision": planned.before.revision,
        "read_nagged_at": nagged_at,
        **{f"new_{name}": value for name, value in planned.values.items()},
    }
    if proof is not None:
        values |= {"mover": _mover(planned).lower(), "proof": proof}
    return values


def _seen(key: str, now: datetime) -> dict[str, object]:
    """The row that notes a mail (by its key) as handled."""
    return {"key": key[:400], "processed_at": now}


def _signed(mails: list[Outgoing], mover: str) -> list[Outgoing]:
    """Each mail with its stop line (the paused notice, unsigned yet, goes
    to the mover's address)."""
    return [mail if mail.footer is not None else signed(mail, stop_line(mover)) for mail in mails]


@lru_cache(maxsize=32)
def _at_once(
    move: tuple[str, ...], mail: tuple[str, ...], mails: int, *, proven: bool, seen: bool
) -> Select[int]:
    """The one statement of `_write_at_once`, for a move's columns and a
    number of mails with their columns, its claim proven by the mover's
    password hash or not, noting a mail as seen or not: it counts the
    boards claimed (1, or 0 when the board changed, and then nothing is
    written)."""
    claim = (_CLAIM_PROVEN if proven else _CLAIM).returning(Board.id).cte("claim")

    def one_row(table: Table, prefix: str, columns: tuple[str, ...]) -> Select[Any]:
        cells = [bindparam(f"{prefix}_{name}", type_=table.c[name].type) for name in columns]
        return select(*cells).select_from(claim)

    moves = cast(Table, MoveRow.__table__)
    added = insert(moves).from_select(move, one_row(moves, "move", move)).cte("added")
    statement = select(func.count()).select_from(claim).add_cte(added)
    if seen:
        processed = cast(Table, ProcessedMessage.__table__)
        noted = one_row(processed, "seen", ("key", "processed_at"))
        statement = statement.add_cte(
            insert(processed).from_select(["key", "processed_at"], noted).cte("seen")
        )
    if mails:
        outbox = cast(Table, OutboxMessage.__table__)
        rows = union_all(*(one_row(outbox, f"mail{n}", mail) for n in range(mails)))
        statement = statement.add_cte(insert(outbox).from_select(mail, rows).cte("mailed"))
    return statement


def _plain(view: BoardView, command: Move) -> bool:
    """Whether the move may be a plain one: the player to move, on an
    active board of the named game with no proposal or total clock, at
    the move it names."""
    return (
        view.game == command.game
        and view.active
        and not view.votes
        and not view.total_days
        and view.to_move is not None
        and view.seat_of(command.userid) == view.to_move
        and (command.number is None or command.number == view.version + 1)
    )


def _plan(
    view: BoardView,
    command: Move,
    people: list[Reader],
    nagged_at: datetime | None,
    now: datetime,
) -> Planned | None:
    if any(person.bot_level is not None for person in people):
        return None  # a bot's board: the full path keeps its clock and its worker's turn
    state = view.state()
    seat = view.to_move
    assert seat is not None
    try:
        after = state.play_text(command.move)
    except MoveError:
        return None  # the full path says why
    if after.result is not None or after.to_move is None:
        return None  # a game's end is rated and announced there
    if any(state.side_text(seat) != after.side_text(seat) for seat in range(len(view.players))):
        return None  # a colour choice: the full path says who plays what
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
    move = _move_row(view.id, played)
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


def _move_row(board_id: int, played: PlayedMove) -> dict[str, object]:
    """The moves table's row for a played move (the row has the seat, not
    the player)."""
    row: dict[str, object] = {"board_id": board_id, **asdict(played)}
    del row["player"]
    return row


def _mails(
    view: BoardView, after: State[Any], people: list[Reader], command: Move
) -> list[Outgoing]:
    """The board mail to each player who wants every one (`send_board`, for
    a board with no subscribers), each with its stop line."""
    mover = view.players[view.moves[-1].seat]
    topic = subject(view, after, commented=bool(command.comment.strip()))
    mails = []
    for reader in people:
        if reader.preference != "every" or reader.address is None:
            continue
        body = board_body(
            view, after, reader.seat, comment=command.comment, commenter=mover,
            now=view.moves[-1].played_at,  # (the move's own time: `ctx.now` on the full path)
        )  # fmt: skip
        mail = Outgoing(
            (reader.address,), topic, body, board=MailedBoard(view.id, view.version, reader.seat)
        )
        mails.append(signed(mail, stop_line(view.players[reader.seat])))
    return mails


def warm_write(connection: Connection, now: datetime) -> None:
    """Compile the one statement of a plain move from the web or the API on
    PostgreSQL (a move with its two board mails) by running it on no board:
    it claims nothing and writes nothing (for warm_up.py)."""
    played = PlayedMove(
        number=0, seat=0, player="", text="", note="", comment="", auto=False, played_at=now
    )
    move = tuple(_move_row(0, played))
    mail = tuple(outbox_rows([Outgoing(("",), "", "")], now, None)[0])
    statement = _at_once(move, mail, 2, proven=False, seen=False)
    # Its named parameters (the literals in it carry values of their own):
    # the same names as a move's, so the compiled statement is the same.
    named = statement.compile(dialect=connection.dialect).params
    values = {name: None for name, value in named.items() if value is None}
    connection.execute(statement, values | {"board": 0}).scalar_one()
