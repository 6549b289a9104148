"""What the pages show, read straight from the store (reading changes
nothing; every change goes through the command layer)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..games import GAMES, get_game
from ..games.base import State
from ..server.accounts import find_user
from ..server.board_mail import players_of
from ..store import Board, BoardPlayer, Rating, Subscription, User, Vote
from ..store.boards import awaits, options_of

FILTERS = ("active", "finished", "mine", "awaiting")


@dataclass(frozen=True)
class BoardLine:
    """A board in a list, like pbmserv's List.php."""

    id: int
    game: str
    players: list[str]
    move: int  # the number of the next move
    status: str  # whose move, or the result
    to_move: str | None
    options: str
    finished: bool
    updated_at: datetime


def board_line(board: Board) -> BoardLine:
    names = players_of(board)
    seat = board.to_move
    active = board.status == "active" and seat is not None
    status = f"{names[seat]} to move" if active else board.result or "over"
    return BoardLine(
        id=board.id,
        game=board.game,
        players=names,
        move=board.version + 1,
        status=status,
        to_move=names[seat] if active else None,
        options=" ".join(options_of(board).args()),
        finished=not active,
        updated_at=board.updated_at,
    )


def boards(
    session: Session, game: str | None, which: str, userid: str | None, limit: int = 200
) -> list[BoardLine]:
    """Boards newest first: active, finished, mine or awaiting (my move)."""
    query = select(Board).order_by(Board.updated_at.desc(), Board.id.desc())
    if game is not None:
        query = query.where(Board.game == game)
    user = find_user(session, userid) if userid else None
    if which == "active":
        query = query.where(Board.status == "active")
    elif which == "finished":
        query = query.where(Board.status != "active")
    elif which in ("mine", "awaiting"):
        if user is None:
            return []
        query = query.where(Board.players.any(BoardPlayer.user_id == user.id))
        if which == "awaiting":
            query = query.where(Board.status == "active")
    found = list(session.scalars(query.limit(limit * 4 if which == "awaiting" else limit)))
    if which == "awaiting" and user is not None:
        found = [board for board in found if awaits(board, user.id)][:limit]
    return [board_line(board) for board in found]


def ratings_of(session: Session, user: User) -> dict[str, Rating]:
    rows = session.scalars(select(Rating).where(Rating.user_id == user.id)).all()
    return {row.game: row for row in rows}


def proposals_of(session: Session, board: Board) -> list[str]:
    """The open proposals, as sentences: 'alice proposes a draw; waiting for bob'."""
    names = players_of(board)
    votes = session.scalars(select(Vote).where(Vote.board_id == board.id)).all()
    sentences = []
    for kind, what in (("draw", "a draw"), ("undo", "taking back the last move")):
        seats = sorted(vote.seat for vote in votes if vote.kind == kind)
        if seats:
            waiting = [names[p.seat] for p in board.players if p.seat not in seats]
            sentences.append(
                f"{' and '.join(names[s] for s in seats)} proposed {what}; waiting for "
                f"{', '.join(waiting)}"
            )
    return sentences


def subscribers_of(session: Session, board: Board) -> list[str]:
    return list(
        session.scalars(
            select(User.userid)
            .join(Subscription, Subscription.user_id == User.id)
            .where(Subscription.board_id == board.id, Subscription.kind == "board")
            .order_by(User.userid_key)
        )
    )


@lru_cache(maxsize=len(GAMES))
def sample_svg(game_name: str) -> str:
    """A picture for the home page: the game a few random moves in (the
    same moves every time)."""
    game = get_game(game_name)
    state: State = game.new_state(game.parse_options())
    rng = random.Random(2008)
    for _ in range({"vasco": 7, "trugo": 9}.get(game_name, 14)):
        moves = state.legal_moves()
        if state.result is not None or not moves:
            break
        state = state.play(rng.choice(moves))
    return state.svg_board()
