"""What the web's lists and player pages show: boards by game, player and
status, a player's ratings and their history, and each game's sample
picture. Reading changes nothing; every change goes through the commands."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.orm import Session, defer, lazyload, selectinload

from ...games import GAMES, get_game
from ...games.base import Options, State
from ...store import Board, BoardPlayer, BoardStatus, Rating, RatingEvent, User
from ...store.boards import options_of, players_of
from .board_view import BoardView
from .outcomes import outcome

FILTERS = ("active", "finished", "mine", "awaiting")
SAMPLE_KOMI = "komi6"  # the komi a sample picture's komi step names


@dataclass(frozen=True)
class BoardLine:
    """A board in a list, like pbmserv's List.php."""

    id: int
    game: str
    players: list[str]
    move: int  # the number of the next move; a finished board's last move
    status: str  # whose move, or how it ended ("easybot won: ...", outcomes.py)
    to_move: str | None
    options: str
    finished: bool
    updated_at: datetime


def line_of(
    board: Board | BoardView, players: list[str], to_move: str | None, options: Options
) -> BoardLine:
    if to_move:
        status = f"{to_move} to move"
    else:
        status = outcome(board.game, players, board.winner, board.ending, board.result)
    return BoardLine(
        id=board.id,
        game=board.game,
        players=players,
        move=board.version + 1 if to_move else board.version,
        status=status,
        to_move=to_move,
        options=" ".join(options.args()),
        finished=to_move is None,
        updated_at=board.updated_at,
    )


def board_line(board: Board) -> BoardLine:
    """A listed board's line (from its row, loaded with its players)."""
    names = players_of(board)
    seat = board.to_move
    to_move = names[seat] if board.status is BoardStatus.ACTIVE and seat is not None else None
    return line_of(board, names, to_move, options_of(board))


def view_line(view: BoardView) -> BoardLine:
    """A board's line from its view (the board page's heading)."""
    return line_of(view, list(view.players), view.player_to_move, view.parsed_options())


# Lists show the players' names: their users come with them, not their addresses.
# The users are read by their keys in a statement of their own: joined to the
# seats, PostgreSQL hashed the whole users table once a list was long.
LISTED = selectinload(Board.players).selectinload(BoardPlayer.user).lazyload(User.addresses)


def player_named(session: Session, userid: str) -> User | None:
    """A user to show on a page (without their addresses)."""
    return session.scalar(
        select(User).options(lazyload(User.addresses)).where(User.userid_key == userid.lower())
    )


def boards(
    session: Session, game: str | None, which: str, userid: str | None, limit: int = 200
) -> list[BoardLine]:
    """Boards newest first: active, finished, mine or awaiting (my move),
    in a fixed number of statements however many there are."""
    # A line needs no position: the snapshot (the record, the board's largest
    # column) stays in the database.
    query = (
        select(Board)
        .options(LISTED, defer(Board.snapshot, raiseload=True))
        .order_by(Board.updated_at.desc(), Board.id.desc())
    )
    if game is not None:
        query = query.where(Board.game == game)
    if which == "active":
        query = query.where(Board.status == BoardStatus.ACTIVE)
    elif which == "finished":  # each status in its index's order, the newest of both
        ended = [
            board
            for status in (BoardStatus.FINISHED, BoardStatus.ARCHIVED)
            for board in session.scalars(query.where(Board.status == status).limit(limit))
        ]
        ended.sort(key=lambda board: (board.updated_at, board.id), reverse=True)
        return [board_line(board) for board in ended[:limit]]
    elif which in ("mine", "awaiting"):
        user_id = (
            session.scalar(select(User.id).where(User.userid_key == userid.lower()))
            if userid
            else None
        )
        if user_id is None:
            return []
        # Both are found from the player's own seats (their index), never by
        # going through every board: the cost follows their boards, not all.
        if which == "mine":
            seats = select(BoardPlayer.board_id).where(BoardPlayer.user_id == user_id)
            query = query.where(Board.id.in_(seats))
        else:  # the seat to move is theirs (only an active board has one)
            query = query.join(
                BoardPlayer,
                and_(BoardPlayer.board_id == Board.id, BoardPlayer.seat == Board.to_move),
            ).where(BoardPlayer.user_id == user_id)
    return [board_line(board) for board in session.scalars(query.limit(limit))]


def ratings_of(session: Session, user: User) -> dict[str, Rating]:
    """A player's rating in each game."""
    rows = session.scalars(select(Rating).where(Rating.user_id == user.id)).all()
    return {row.game: row for row in rows}


def rating_history(session: Session, user: User, limit: int = 50) -> list[tuple[RatingEvent, str]]:
    """A player's latest rated games, newest first, with the opponent's name."""
    rows = session.execute(
        select(RatingEvent, User.userid)
        .join(User, User.id == RatingEvent.opponent_id)
        .where(RatingEvent.user_id == user.id)
        .order_by(RatingEvent.id.desc())
        .limit(limit)
    )
    return [(event, name) for event, name in rows]


@lru_cache(maxsize=len(GAMES))
def sample_svg(game_name: str) -> str:
    """A picture for the home page: the game a few random moves in (the
    same moves every time)."""
    game = get_game(game_name)
    state: State[Any] = game.new_state(game.parse_options())
    rng = random.Random(2008)
    for _ in range(game.picture_moves):
        moves = state.legal_moves()
        if state.result is not None or not moves:
            break
        texts = [state.move_text(move) for move in moves]
        # A komi step (Vacu's first move) names a komi as players do, not
        # one drawn at random from -81 to 81 (the picture read "Komi -45").
        usual = [move for move, text in zip(moves, texts, strict=True) if text == SAMPLE_KOMI]
        state = state.play(usual[0] if usual else rng.choice(moves))
    return state.svg_board()


def next_awaiting(session: Session, userid: str, besides: int) -> BoardLine | None:
    """The board that has waited longest for this player's move, other than
    board `besides` (the board page's "next board awaiting you" link)."""
    waiting = [line for line in boards(session, None, "awaiting", userid) if line.id != besides]
    return min(waiting, key=lambda line: (line.updated_at, line.id), default=None)
