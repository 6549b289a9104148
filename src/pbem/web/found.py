"""The game and board a URL names, or a 404 that says where to look."""

from __future__ import annotations

from typing import Annotated

from fastapi import HTTPException, Path

from ..games import GAMES, get_game
from ..games.base import Game
from ..server import MAX_ID, Around, BoardView, Server

# The numbers a URL names a row by, bounded as the database's ids are: a
# number beyond them is refused with a 422 that says so, never asked for.
BoardId = Annotated[int, Path(ge=1, le=MAX_ID, description="The board number.")]
OfferId = Annotated[int, Path(ge=1, le=MAX_ID, description="The open challenge's number.")]
TokenId = Annotated[int, Path(ge=1, le=MAX_ID, description="The API token's number.")]


def game_or_404(name: str) -> Game:
    if name.lower() not in GAMES:
        raise HTTPException(
            404, f"There is no game called {name[:30]!r} here. pbem hosts {', '.join(GAMES)}."
        )
    return get_game(name)


def view_or_404(server: Server, game: Game, board_id: int, listing: str) -> BoardView:
    """The board of that game with that number as it is now; `listing`
    names where the game's boards are listed (a page, or an API call)."""
    return _of_game(server.views.get(board_id), game, board_id, listing)


def _of_game(view: BoardView | None, game: Game, board_id: int, listing: str) -> BoardView:
    if view is None or view.game != game.name:
        raise HTTPException(
            404, f"There is no {game.title} board {board_id}. {listing} lists them."
        )
    return view


def page_view(server: Server, game_name: str, board_id: int) -> BoardView:
    """The board a page's URL (`/vasco/101`) names."""
    game = game_or_404(game_name)
    return view_or_404(server, game, board_id, f"/{game.name}")


def page_view_around(server: Server, game_name: str, board_id: int) -> tuple[BoardView, Around]:
    """`page_view` with the players' ratings and the subscribers, read
    together (`BoardViews.with_around`)."""
    game = game_or_404(game_name)
    found = server.views.with_around(board_id)
    view = _of_game(None if found is None else found[0], game, board_id, f"/{game.name}")
    assert found is not None
    return view, found[1]
