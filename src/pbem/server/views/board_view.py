"""One board as the doors show it (page, API, poll), read once per change.

A board is read far more often than it changes, and everything a door shows
of it changes one of three things: its revision (which every move, undo and
ending moves on), its status (an archived board) and its votes (a proposal).
`BoardViews.get` reads those with one statement and keeps the rest, built
once per change, in memory; the ratings and subscribers
beside a board change elsewhere and are read fresh (`BoardViews.around`;
on PostgreSQL a page reads them with the stamp, `BoardViews.with_around`).

The reads are plain SQL, not ORM objects: a page or an API answer costs a
statement or two, not a session and a dozen loaded rows. On PostgreSQL a
view is read in one statement (`_on_postgresql`, its parts as arrays), so it
is one round trip and its rows agree with the stamp it read even while a
move commits beside it; on SQLite, where a statement costs no round trip,
in a few plain ones in a reading transaction.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache, cached_property
from typing import Any

from sqlalchemy import Connection, Engine, Select, and_, bindparam, select, true

from ...games.base import Options, State
from ...store import (
    Board,
    BoardPlayer,
    BoardStatus,
    ChatLine,
    MoveRow,
    Rating,
    RatingEvent,
    Subscription,
    SubscriptionKind,
    User,
    Vote,
)
from ...store import (
    Ending as Ending,  # (shown by the doors: they take it from here)
)
from ...store.database import READING, statements
from ...store.positions import POSITIONS, drawn, svg_board
from .recent import Recent

KEPT_VIEWS = 2048  # boards per process
# What any change of a board moves on: its id, revision, status and votes
# ((kind, seat), oldest first).
Stamp = tuple[int, int, BoardStatus, tuple[tuple[str, int], ...]]

_STAMP = (
    select(Board.game, Board.revision, Board.status, Vote.kind, Vote.seat)
    .outerjoin(Vote, Vote.board_id == Board.id)
    .where(Board.id == bindparam("board"))
    .order_by(Vote.id)
)
_BOARD = select(
    Board.hints,
    Board.unrated,
    Board.version,
    Board.updated_at,
    Board.options,
    Board.snapshot,
    Board.to_move,
    Board.winner,
    Board.result,
    Board.ending,
    Board.nag_days,
    Board.forfeit_days,
    Board.total_days,
    Board.created_at,
).where(Board.id == bindparam("board"))
_PLAYER_COLUMNS = (BoardPlayer.seat, BoardPlayer.user_id, User.userid)
_PLAYERS = (
    select(*_PLAYER_COLUMNS)
    .join(User, User.id == BoardPlayer.user_id)
    .where(BoardPlayer.board_id == bindparam("board"))
    .order_by(BoardPlayer.seat)
)
_MOVE_COLUMNS = (
    MoveRow.number,
    MoveRow.seat,
    MoveRow.text,
    MoveRow.note,
    MoveRow.comment,
    MoveRow.auto,
    MoveRow.played_at,
)
_MOVES = (
    select(*_MOVE_COLUMNS).where(MoveRow.board_id == bindparam("board")).order_by(MoveRow.number)
)
_CHAT_COLUMNS = (ChatLine.after, User.userid, ChatLine.text, ChatLine.said_at)
_CHAT = (
    select(*_CHAT_COLUMNS)
    .join(User, User.id == ChatLine.user_id)
    .where(ChatLine.board_id == bindparam("board"))
    .order_by(ChatLine.id)
)


_VOTE_COLUMNS = (Vote.kind, Vote.seat)
# Each seat as it is now (whether it accepted the challenge, a bot's level)
# with the player's rating in the game, if any: one statement.
_RATINGS = (
    select(
        BoardPlayer.seat,
        BoardPlayer.accepted,
        User.bot_level,
        Rating.user_id,
        Rating.rating,
        Rating.games,
    )
    .join(User, User.id == BoardPlayer.user_id)
    .outerjoin(
        Rating, and_(Rating.user_id == BoardPlayer.user_id, Rating.game == bindparam("game"))
    )
    .where(BoardPlayer.board_id == bindparam("board"))
    .order_by(BoardPlayer.seat)
)
_CHANGES = select(RatingEvent.user_id, RatingEvent.before, RatingEvent.after).where(
    RatingEvent.board_id == bindparam("board")
)
_WATCHERS = (
    select(User.userid)
    .join(Subscription, Subscription.user_id == User.id)
    .where(Subscription.board_id == bindparam("board"), Subscription.kind == SubscriptionKind.BOARD)
    .order_by(User.userid_key)
)
_RATING_COLUMNS = (Rating.user_id, Rating.rating, Rating.games)
# The seats as they are now: accepting a challenge moves no revision on, so
# whether a seat may still decline is read with what is around the board.
_SEAT_NOW_COLUMNS = (BoardPlayer.seat, BoardPlayer.accepted, User.bot_level)
_WATCHER_COLUMNS = (User.userid,)
_CHANGE_COLUMNS = (RatingEvent.user_id, RatingEvent.before, RatingEvent.after)


@dataclass(frozen=True)
class _OnPostgreSQL:
    """PostgreSQL's reads of a board, in one statement each (their parts
    as arrays): `whole`, the whole view, and `stamp_around`, a page's stamp
    with what is around the board."""

    whole: Select[Any]
    stamp_around: Select[Any]


@cache
def _on_postgresql() -> _OnPostgreSQL:
    """PostgreSQL's reads, built on first use: only then is the PostgreSQL
    dialect imported (a process on SQLite never imports it: 31 ms of CPU of
    a `pbem receive`, tests/test_start_cost.py)."""
    from sqlalchemy.dialects.postgresql import aggregate_order_by, array_agg

    def arrays(prefix: str, order: Any, columns: Sequence[Any], rows: Select[Any]) -> Any:
        """`rows` as one row of arrays, a column's values each, in `order`
        (NULL for no rows): a LATERAL subquery of the whole view's
        statement, its columns named as `_rows` reads them."""
        gathered = [
            array_agg(aggregate_order_by(column, order)).label(  # type: ignore[no-untyped-call]
                f"{prefix}_{column.key}"
            )
            for column in columns
        ]
        return rows.with_only_columns(*gathered).lateral(prefix)

    # The whole view in one statement: the board's row with its votes,
    # seats, moves and chat as arrays (one round trip where the five
    # statements above, in a REPEATABLE READ transaction, were eight; and a
    # statement sees one snapshot, so its rows agree with its own stamp).
    votes = arrays("vote", Vote.id, _VOTE_COLUMNS, select().where(Vote.board_id == Board.id))
    seats = arrays(
        "seat",
        BoardPlayer.seat,
        _PLAYER_COLUMNS,
        select().join_from(BoardPlayer, User).where(BoardPlayer.board_id == Board.id),
    )
    moves = arrays(
        "move", MoveRow.number, _MOVE_COLUMNS, select().where(MoveRow.board_id == Board.id)
    )
    chat = arrays(
        "chat",
        ChatLine.id,
        _CHAT_COLUMNS,
        select().join_from(ChatLine, User).where(ChatLine.board_id == Board.id),
    )
    # A board page's reads in one round trip where they were three: the
    # stamp (as `_STAMP` reads it) with the players' ratings, the
    # subscribers and what a finished board did to the ratings, as arrays.
    ratings = arrays(
        "rating",
        BoardPlayer.seat,
        _RATING_COLUMNS,
        select()
        .join_from(BoardPlayer, Rating, Rating.user_id == BoardPlayer.user_id)
        .where(BoardPlayer.board_id == Board.id, Rating.game == Board.game),
    )
    watchers = arrays(
        "watcher",
        User.userid_key,
        _WATCHER_COLUMNS,
        select()
        .join_from(Subscription, User, User.id == Subscription.user_id)
        .where(Subscription.board_id == Board.id, Subscription.kind == SubscriptionKind.BOARD),
    )
    changes = arrays(
        "change", RatingEvent.id, _CHANGE_COLUMNS, select().where(RatingEvent.board_id == Board.id)
    )
    seats_now = arrays(
        "seatnow",
        BoardPlayer.seat,
        _SEAT_NOW_COLUMNS,
        select().join_from(BoardPlayer, User).where(BoardPlayer.board_id == Board.id),
    )
    return _OnPostgreSQL(
        _board_with(_BOARD.selected_columns, (votes, seats, moves, chat)),
        _board_with((), (votes, ratings, watchers, changes, seats_now)),
    )


def _board_with(columns: Iterable[Any], parts: Sequence[Any]) -> Select[Any]:
    """One board's row (its stamp's columns and `columns`) with `parts`,
    each a LATERAL row of arrays: one statement, one snapshot."""
    query = select(
        Board.game, Board.revision, Board.status, *columns, *(part.c for part in parts)
    ).select_from(Board)
    for part in parts:
        query = query.join(part, true())
    return query.where(Board.id == bindparam("board"))


PROPOSALS = (("draw", "a draw"), ("undo", "taking back the last move"))


@dataclass(frozen=True)
class PlayedMove:
    """A move of the record as the players made it (with its comment)."""

    number: int
    seat: int
    player: str
    text: str
    note: str
    comment: str
    auto: bool
    played_at: datetime


@dataclass(frozen=True)
class ChatSaid:
    """A line of chat on the board, said after its first `after` moves."""

    after: int
    player: str
    text: str
    said_at: datetime


def as_shown(
    state: State[Any], status: BoardStatus, version: int, result: str | None, winner: int | None
) -> State[Any]:
    """The state as a board shows it: on a board that ended off the board
    (a resignation, a draw agreed, a forfeit), its last position reads as
    over, not as someone's turn."""
    if status.over and state.result is None and len(state.moves) == version:
        return state.ended(result or "the board was closed", winner)
    return state


@dataclass(frozen=True)
class BoardView:
    """What any door shows of a board at one stamp. Immutable: kept and shared
    between requests until the board changes."""

    stamp: Hashable  # changes whenever anything below does
    id: int
    revision: int  # the board's, moved on by every change
    game: str
    options: dict[str, Any]
    record: tuple[str, ...]  # the canonical moves, which rebuild the state
    players: tuple[str, ...]  # userids by seat
    user_ids: tuple[int, ...]
    status: BoardStatus
    version: int
    to_move: int | None  # the seat to move (None once over)
    winner: int | None
    result: str | None
    ending: Ending | None  # how it ended (None while active)
    nag_days: int | None
    forfeit_days: int | None
    total_days: int | None
    created_at: datetime
    updated_at: datetime
    votes: tuple[tuple[str, int], ...]  # (kind, seat), oldest first
    moves: tuple[PlayedMove, ...]
    hints: bool = False  # challenged with --hints: its players may ask the engine
    chat: tuple[ChatSaid, ...] = ()  # oldest first
    unrated: bool = False  # challenged --unrated: never in the ratings

    @property
    def active(self) -> bool:
        """Still being played (a move that ends the game stores its result)."""
        return self.status is BoardStatus.ACTIVE

    @property
    def player_to_move(self) -> str | None:
        if not self.active or self.to_move is None:
            return None
        return self.players[self.to_move]

    def shown(self, at: int | None) -> int:
        """The move a door shows when asked for move `at`: the latest when
        not asked, else `at` within the record."""
        return self.version if at is None else max(0, min(at, self.version))

    def state(self, upto: int | None = None) -> State[Any]:
        """The position now, or after the first `upto` moves; on a board
        that ended off the board, its last position reads as over."""
        if upto is None or upto >= len(self.record):
            return self._last
        return POSITIONS.state(self.game, self.options, self.record[: max(0, upto)])

    @cached_property
    def _last(self) -> State[Any]:
        state = POSITIONS.state(self.game, self.options, self.record)
        return as_shown(state, self.status, self.version, self.result, self.winner)

    def svg(self, upto: int | None = None) -> str:
        """The board drawn as SVG, now or after `upto` moves (drawn once per
        position, for every door)."""
        return svg_board(self.state(upto))

    def example_move(self, upto: int | None = None) -> str:
        """A legal move to show as an example (the move box's placeholder),
        worked out once per position: listing the legal moves is the
        dearest thing on a page. Empty when there is none."""
        state = self.state(upto)
        return drawn(state, "example move", lambda: first_legal_move(state))

    def record_with_chat(self) -> list[PlayedMove | ChatSaid]:
        """The moves and the chat in the order they came: chat said after
        the first n moves follows move n (after a move since taken back: at
        the end)."""
        chat = sorted(self.chat, key=lambda line: line.after)  # (stable: oldest first)
        merged: list[PlayedMove | ChatSaid] = []
        waiting = 0
        for move in self.moves:
            while waiting < len(chat) and chat[waiting].after < move.number:
                merged.append(chat[waiting])
                waiting += 1
            merged.append(move)
        return merged + chat[waiting:]

    def parsed_options(self) -> Options:
        return POSITIONS.options(self.game, self.options)

    def clocks(self, now: datetime) -> list[tuple[timedelta, timedelta]]:
        """Each seat's time used and time left on a `--totaltime` board
        ([] on one without a total time). While it is played, at `now`,
        the wait of the player to move counting as theirs (as
        `store.boards.time_used` counts it); once over, at its end, the
        wait of the player to move when it ended (a resignation, a
        forfeit, the clock run out) counting as theirs, as the game-over
        mail's time taken does."""
        if not self.total_days:
            return []
        used = [timedelta() for _ in self.players]
        previous = self.created_at
        for move in self.moves:
            used[move.seat] += move.played_at - previous
            previous = move.played_at
        if self.active:
            waiting, until = self.to_move, now
        else:  # (the view's to_move is None once over: the position says who was to move)
            waiting = POSITIONS.state(self.game, self.options, self.record).to_move
            until = self.updated_at
        if waiting is not None:
            used[waiting] += max(timedelta(), until - previous)
        allowed = timedelta(days=self.total_days)
        return [(spent, max(timedelta(), allowed - spent)) for spent in used]

    def seat_of(self, userid: str | None) -> int | None:
        """The seat of this userid (any case), None for a watcher: the seat
        to move when it is one of theirs (a player alone on a board)."""
        if userid is None:
            return None
        key = userid.lower()
        seats = [s for s, name in enumerate(self.players) if name.lower() == key]
        if self.to_move in seats:
            return self.to_move
        return seats[0] if seats else None

    def proposals(self) -> dict[str, list[str]]:
        """Open proposals: kind -> the userids who voted for it."""
        found: dict[str, list[str]] = {}
        for kind, seat in self.votes:
            found.setdefault(kind, []).append(self.players[seat])
        return found

    def proposal_sentences(self) -> list[str]:
        """The open proposals as sentences: 'ann proposed a draw; waiting for bob'."""
        sentences = []
        for kind, what in PROPOSALS:
            seats = sorted(seat for voted, seat in self.votes if voted == kind)
            if seats:
                voters = " and ".join(self.players[seat] for seat in seats)
                waiting = [name for seat, name in enumerate(self.players) if seat not in seats]
                sentences.append(f"{voters} proposed {what}; waiting for {', '.join(waiting)}")
        return sentences


@dataclass(frozen=True)
class Around:
    """What beside a board changes elsewhere: the players' ratings in its
    game (user id -> (rating, games)) and the board's subscribers."""

    ratings: dict[int, tuple[float, int]]
    watchers: list[str]
    # a finished, rated board: what it did to each player's rating (before, after)
    changes: dict[int, tuple[float, float]] = field(default_factory=dict)
    accepted: tuple[bool, ...] = ()  # by seat: accepted the challenge
    bot_levels: tuple[str | None, ...] = ()  # by seat: the bot's level (None: a person)

    def may_decline(self, view: BoardView, seat: int | None) -> bool:
        """Whether the player at `seat` ending the board now declines the
        challenge (not rated) rather than resigning: they have neither moved
        nor accepted it (the server's rule, `boards.lifecycle.can_decline`)."""
        if seat is None or not view.active or seat >= len(self.accepted):
            return False
        return not self.accepted[seat] and all(move.seat != seat for move in view.moves)


def warm_reads(dialect: str) -> tuple[tuple[Any, dict[str, Any]], ...]:
    """The reads behind a board's page, JSON and move, each with a key that
    matches nothing (for warm_up.py): the stamp, the whole board as this
    dialect reads it (on PostgreSQL also the page's stamp with what is
    around the board), the ratings of two players and the watchers."""
    board = {"board": 0}
    views = (
        ((_on_postgresql().whole, board), (_on_postgresql().stamp_around, board))
        if dialect == "postgresql"
        else (
            (_BOARD, board),
            (_PLAYERS, board),
            (_MOVES, board),
            (_CHAT, board),
        )
    )
    return (
        (_STAMP, board),
        *views,
        (_RATINGS, {"game": "", "board": 0}),
        (_WATCHERS, board),
    )


class BoardViews:
    """Board views by stamp, the least recently used dropped; any process
    may drop them at any time (the database is the truth)."""

    def __init__(self, engine: Engine, size: int = KEPT_VIEWS) -> None:
        self.engine = engine  # the database it reads, as given
        self._stamps = statements(engine)  # the stamp alone: one round trip
        self._engine = engine.execution_options(**{READING: True})  # SQLite: no write lock
        self._views: Recent[BoardView] = Recent(size)

    def get(self, board_id: int) -> BoardView | None:
        """The board as it is now; None when there is no such board.

        Its stamp is read first, alone; a view kept at that stamp is the
        answer. Otherwise the view is read whole: on PostgreSQL in one
        statement, on SQLite in one transaction (each reads the stamp
        again, so the rows agree with it)."""
        with self._stamps.connect() as connection:
            stamp = _stamp(connection, board_id)
        if stamp is None:
            return None
        found = self._views.get(stamp[0])
        return found if found is not None else self._fresh(board_id)

    def at(self, stamp: Stamp) -> BoardView | None:
        """The board's view at `stamp`, a stamp the caller has just read
        (with other rows of the board, in one statement): kept, or read now;
        None when the board has changed since (or is gone)."""
        found = self._views.get(stamp)
        if found is None:
            found = self._fresh(stamp[0])
        return found if found is not None and found.stamp == stamp else None

    def _fresh(self, board_id: int) -> BoardView | None:
        """The view read whole, now, and kept."""
        if self._stamps.dialect.name == "postgresql":
            with self._stamps.connect() as connection:  # one statement: no transaction
                view = _read_whole(connection, board_id)
            return None if view is None else self._views.put(view.stamp, view)
        with self._engine.connect() as connection:
            return read_view(connection, board_id, self._views)

    def marks(self, board_ids: Sequence[int]) -> dict[int, Hashable]:
        """Each board's mark, (revision, status): what a move, an ending, an
        undo or a chat line moves on. One statement for them all (the live
        pages' watch, web/live.py)."""
        if not board_ids:
            return {}
        query = select(Board.id, Board.revision, Board.status).where(
            Board.id.in_(bindparam("boards", expanding=True))
        )
        with self._stamps.connect() as connection:
            rows = connection.execute(query, {"boards": list(board_ids)})
            return {row.id: (row.revision, row.status.value) for row in rows}

    def keep(self, view: BoardView) -> None:
        """Keep a view a command made itself (the board it just wrote, at
        the stamp it wrote), so the next reader need not read it."""
        self._views.put(view.stamp, view)

    def with_around(self, board_id: int) -> tuple[BoardView, Around] | None:
        """`get` and `around` together, for a board's page; None when there
        is no such board. On PostgreSQL the stamp and what is around the
        board are one statement, so a kept view costs one round trip (and a
        view not kept one more); on SQLite, where a statement is no round
        trip, the same statements as `get` and `around` on one connection
        (a connection's checkout and its BEGIN cost more than a statement)."""
        if self._stamps.dialect.name != "postgresql":
            with self._engine.connect() as connection:
                view = read_view(connection, board_id, self._views)
                return None if view is None else (view, _around(connection, view))
        with self._stamps.connect() as connection:
            row = connection.execute(
                _on_postgresql().stamp_around, {"board": board_id}
            ).one_or_none()
        if row is None:
            return None
        votes = tuple(_rows(row, "vote", _VOTE_COLUMNS))
        view = self._views.get((board_id, row.revision, row.status, votes))
        if view is None:
            view = self._fresh(board_id)
            if view is None:
                return None  # (deleted since)
        ratings = _rows(row, "rating", _RATING_COLUMNS)
        watchers = _rows(row, "watcher", _WATCHER_COLUMNS)
        changes = [] if view.active else _rows(row, "change", _CHANGE_COLUMNS)
        seats_now = _rows(row, "seatnow", _SEAT_NOW_COLUMNS)
        return view, Around(
            {user: (rating, games) for user, rating, games in ratings},
            [userid for (userid,) in watchers],
            {user: (before, after) for user, before, after in changes},
            tuple(bool(accepted) for _, accepted, _ in seats_now),
            tuple(level for _, _, level in seats_now),
        )

    def around(self, view: BoardView) -> Around:
        """The players' ratings in the board's game and its subscribers, now,
        and on a finished board what it did to the ratings (reads that need
        not agree: one round trip each)."""
        with self._stamps.connect() as connection:
            return _around(connection, view)


def _around(connection: Connection, view: BoardView) -> Around:
    """`BoardViews.around`, read on `connection`."""
    seats_now = connection.execute(_RATINGS, {"game": view.game, "board": view.id}).all()
    ratings = {row.user_id: (row.rating, row.games) for row in seats_now if row.user_id is not None}
    watchers = list(connection.scalars(_WATCHERS, {"board": view.id}))
    changes = {}
    if not view.active:
        changes = {
            row.user_id: (row.before, row.after)
            for row in connection.execute(_CHANGES, {"board": view.id})
        }
    return Around(
        ratings,
        watchers,
        changes,
        tuple(bool(row.accepted) for row in seats_now),
        tuple(row.bot_level for row in seats_now),
    )


def read_view(
    connection: Connection, board_id: int, kept: Recent[BoardView] | None = None
) -> BoardView | None:
    """The board as `connection` sees it (None: no such board): in a
    command's own transaction, with the command's changes once flushed.
    A view already `kept` at the same stamp is taken instead of read."""
    read = _stamp(connection, board_id)
    if read is None:
        return None
    stamp, first, votes = read
    found = None if kept is None else kept.get(stamp)
    if found is not None:
        return found
    if connection.dialect.name == "postgresql":
        view = _read_whole(connection, board_id)
        assert view is not None  # (its stamp was just read in the same transaction)
    else:
        view = _read(connection, board_id, stamp, first, votes)
    return view if kept is None else kept.put(view.stamp, view)


def _stamp(
    connection: Connection, board_id: int
) -> tuple[Stamp, Any, tuple[tuple[str, int], ...]] | None:
    """The board's stamp (what any change moves on), its first row and its
    votes; None when there is no such board."""
    rows = connection.execute(_STAMP, {"board": board_id}).all()
    if not rows:
        return None
    first = rows[0]
    votes = tuple((row.kind, row.seat) for row in rows if row.kind is not None)
    return (board_id, first.revision, first.status, votes), first, votes


def _read(
    connection: Connection,
    board_id: int,
    stamp: Hashable,
    first: Any,
    votes: Sequence[tuple[str, int]],
) -> BoardView:
    """The view at `stamp` (read in the same transaction), statement by
    statement: SQLite's way, where a statement is no round trip."""
    board = connection.execute(_BOARD, {"board": board_id}).one()
    seats = connection.execute(_PLAYERS, {"board": board_id}).all()
    return _built(
        board_id,
        stamp,
        first,
        board,
        tuple(votes),
        [(row.seat, row.user_id, row.userid) for row in seats],
        connection.execute(_MOVES, {"board": board_id}).all(),
        connection.execute(_CHAT, {"board": board_id}).all(),
    )


def _read_whole(connection: Connection, board_id: int) -> BoardView | None:
    """The view in one statement, at the stamp that statement saw
    (PostgreSQL's way); None when there is no such board."""
    row = connection.execute(_on_postgresql().whole, {"board": board_id}).one_or_none()
    if row is None:
        return None
    votes = tuple(_rows(row, "vote", _VOTE_COLUMNS))
    stamp = (board_id, row.revision, row.status, votes)
    return _built(
        board_id,
        stamp,
        row,
        row,
        votes,
        _rows(row, "seat", _PLAYER_COLUMNS),
        _rows(row, "move", _MOVE_COLUMNS),
        _rows(row, "chat", _CHAT_COLUMNS),
    )


def _rows(row: Any, part: str, columns: Sequence[Any]) -> list[tuple[Any, ...]]:
    """A part's rows from its arrays in `row` (`_on_postgresql`), a column each."""
    return list(zip(*(getattr(row, f"{part}_{c.key}") or [] for c in columns), strict=True))


def _built(
    board_id: int,
    stamp: Hashable,
    first: Any,
    board: Any,
    votes: tuple[tuple[str, int], ...],
    seats: Sequence[tuple[int, int, str]],
    moves: Sequence[Sequence[Any]],
    chat: Sequence[Sequence[Any]],
) -> BoardView:
    """A view from its rows: the stamp's `first` (game, revision, status),
    the `board` row (_BOARD's columns), seats as (seat, user id, userid),
    moves as _MOVES's rows and chat as _CHAT's, each in order."""
    players = tuple(userid for _, _, userid in seats)
    return BoardView(
        stamp=stamp,
        id=board_id,
        revision=first.revision,
        game=first.game,
        options=board.options,
        record=tuple(board.snapshot["moves"]),
        players=players,
        user_ids=tuple(user_id for _, user_id, _ in seats),
        status=first.status,
        version=board.version,
        to_move=board.to_move,
        winner=board.winner,
        result=board.result,
        ending=board.ending,
        nag_days=board.nag_days,
        forfeit_days=board.forfeit_days,
        total_days=board.total_days,
        created_at=board.created_at,
        updated_at=board.updated_at,
        votes=votes,
        moves=tuple(
            PlayedMove(number, seat, players[seat], text, note, comment, auto, played_at)
            for number, seat, text, note, comment, auto, played_at in moves
        ),
        hints=board.hints,
        chat=tuple(ChatSaid(*line) for line in chat),
        unrated=board.unrated,
    )


def first_legal_move(state: State[Any]) -> str:
    if state.result is not None:
        return ""
    moves = state.legal_moves()
    return state.move_text(moves[0]) if moves else ""
