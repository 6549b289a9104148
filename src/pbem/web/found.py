"""The game and board a URL names, or a 404 that says where to look."""

from __future__ import annotations

from fastapi import HTTPException
from sqlalchemy.orm import Session

from ..games import GAMES, get_game
from ..games.base import Game
from ..store import Board
from .reading import LISTED


def game_or_404(name: str) -> Game:
    if name.lower() not in GAMES:
        raise HTTPException(
            404, f"There is no game called {name[:30]!r} here. pbem hosts {', '.join(GAMES)}."
        )
    return get_game(name)


def board_or_404(session: Session, game: Game, board_id: int, listing: str) -> Board:
    """The board of that game with that number; `listing` names where the
    game's boards are listed (a page, or an API call)."""
    board = session.get(Board, board_id, options=[LISTED])
    if board is None or board.game != game.name:
        raise HTTPException(
            404, f"There is no {game.title} board {board_id}. {listing} lists them."
        )
    return board


def load_board(session: Session, game_name: str, board_id: int) -> Board:
    """The board a page's URL (`/vasco/101`) names."""
    game = game_or_404(game_name)
    return board_or_404(session, game, board_id, f"/{game.name}")
