"""A board's record to download, linked from its page: the text record
(moves, comments, chat), SGF for the games Go programs read, the JSON the
API gives, and the board at any move as SVG or PNG."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from ..games import get_game
from ..server import pictures, text_record
from .actions import server_of
from .api import detail_json
from .found import BoardId, page_view

router = APIRouter(include_in_schema=False)

PNG_WIDTH = 800  # pixels: sharp on a phone, small enough to mail on


def attachment(body: str | bytes, media_type: str, filename: str) -> Response:
    """A file to save, under a name that says what it is."""
    disposition = f'attachment; filename="{filename}"'
    return Response(body, media_type=media_type, headers={"Content-Disposition": disposition})


@router.get("/{game_name}/{board_id}/record.txt")
def record_text(request: Request, game_name: str, board_id: BoardId) -> Response:
    view = page_view(server_of(request), game_name, board_id)
    name = f"{view.game}-{view.id}.txt"
    return attachment(text_record(view), "text/plain; charset=utf-8", name)


@router.get("/{game_name}/{board_id}/record.sgf")
def record_sgf(request: Request, game_name: str, board_id: BoardId) -> Response:
    view = page_view(server_of(request), game_name, board_id)
    sgf = view.state().sgf(view.players)
    if sgf is None:
        title = get_game(view.game).title
        raise HTTPException(
            404, f"{title} has no SGF record (SGF is for Go-like games); take record.txt."
        )
    return attachment(sgf, "application/x-go-sgf; charset=utf-8", f"{view.game}-{view.id}.sgf")


@router.get("/{game_name}/{board_id}/record.json")
def record_json(request: Request, game_name: str, board_id: BoardId) -> Response:
    """The API's answer for the board (GET /api/GAME/boards/BOARD), to keep."""
    view = page_view(server_of(request), game_name, board_id)
    return attachment(detail_json(request, view), "application/json", f"{view.game}-{view.id}.json")


@router.get("/{game_name}/{board_id}/board.svg")
def board_svg(
    request: Request, game_name: str, board_id: BoardId, at: int | None = None
) -> Response:
    view = page_view(server_of(request), game_name, board_id)
    shown = view.shown(at)
    name = f"{view.game}-{view.id}-move{shown}.svg"
    return attachment(view.svg(shown), "image/svg+xml", name)


@router.get("/{game_name}/{board_id}/board.png")
def board_png(
    request: Request, game_name: str, board_id: BoardId, at: int | None = None
) -> Response:
    view = page_view(server_of(request), game_name, board_id)
    shown = view.shown(at)
    try:
        png = pictures.svg_png(view.svg(shown), PNG_WIDTH)
    except Exception as error:  # no libvips on this machine: say so, and offer the SVG
        raise HTTPException(
            503, f"This server cannot draw PNG pictures ({error}); take board.svg instead."
        ) from error
    return attachment(png, "image/png", f"{view.game}-{view.id}-move{shown}.png")
