"""Move entry by clicking on a board page, for every game alike: the moves
that are no click on the board as buttons, and the small answers
`static/board.js` asks for while a player picks a move (the choices at a
place, pictured; the pieces that can move and where each can go). The game
says all of it (games/base.py, "entering a move by clicking"), from the
board's state, so the page offers exactly the legal moves; the text box
stays the way to move without JavaScript."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from ..games.base import Choice, MoveButton, MoveSyntaxError, State
from .actions import flash, play, server_of
from .found import BoardId, page_view
from .session import PostedForm, check_csrf, current_userid

router = APIRouter(include_in_schema=False)

NO_STORE = {"Cache-Control": "no-store"}  # a board's answers change with every move


def move_buttons(state: State[Any]) -> list[MoveButton]:
    """The legal moves of the player to move that are no click on the board
    (none once the game is over)."""
    if state.result is not None or state.to_move is None:
        return []
    return state.move_buttons()


def current_state(request: Request, game_name: str, board_id: int) -> State[Any]:
    """The board's state now (a 404 for no such board of that game)."""
    return page_view(server_of(request), game_name, board_id).state()


def unreadable(error: MoveSyntaxError) -> HTTPException:
    return HTTPException(422, f"Cannot read {error.text[:30]!r}: {error.reason}.")


@router.get("/{game_name}/{board_id}/choices", response_class=HTMLResponse)
def choices(request: Request, game_name: str, board_id: BoardId, at: str) -> HTMLResponse:
    """The moves legal at a place the board marks `data-choices` (Vasco's
    orientations at a cell, Trugo's rotations), each a button with its
    picture."""
    state = current_state(request, game_name, board_id)
    try:
        found = state.choices(at)
    except MoveSyntaxError as error:
        raise unreadable(error) from None
    return fragment(
        f"{at.strip()}: choose one", f"Nothing can be played at {at.strip()} now.", found
    )


@router.get("/{game_name}/{board_id}/movable")
def movable(request: Request, game_name: str, board_id: BoardId) -> JSONResponse:
    """The places (`data-place` names) whose piece the player to move can
    move now: the pieces the page makes clickable."""
    state = current_state(request, game_name, board_id)
    return JSONResponse(state.movable(), headers=NO_STORE)


@router.get("/{game_name}/{board_id}/destinations")
def destinations(
    request: Request, game_name: str, board_id: BoardId, start: str = Query(alias="from")
) -> JSONResponse:
    """Where the piece at place `from` can go: each destination's name and
    the full move texts ending there; empty when it cannot move."""
    state = current_state(request, game_name, board_id)
    try:
        found = state.destinations(start)
    except MoveSyntaxError as error:
        raise unreadable(error) from None
    return JSONResponse(found, headers=NO_STORE)


@router.post("/{game_name}/{board_id}/button", dependencies=[Depends(check_csrf)])
def button_with_number(
    request: Request, game_name: str, board_id: BoardId, form: PostedForm
) -> RedirectResponse:
    """A move button with a number (Vacu's komi step) without JavaScript:
    the button's move and the number make the move (`komi6`), played as the
    move form plays one (with the `#N` guard). With JavaScript the page
    writes it in the move box instead."""
    view = page_view(server_of(request), game_name, board_id)
    back = RedirectResponse(f"/{view.game}/{board_id}", status_code=303)
    userid = current_userid(request)
    if userid is None:
        raise HTTPException(403, "Log in first: only a board's players may act on it.")
    move = str(form.get("move", "")).strip()
    offered = [b for b in move_buttons(view.state()) if b.field is not None and b.move == move]
    if not offered:
        flash(
            request,
            f"There is no '{move[:20]}' to play on board {board_id} now: "
            "use the buttons the board page shows.",
            "error",
        )
        return back
    value = str(form.get("value", "")).strip()
    if not re.fullmatch(r"[+-]?\d{1,9}", value):
        flash(
            request,
            f"{offered[0].field_label or 'The number'} is a whole number, like 6 or -2.",
            "error",
        )
        return back
    number = str(form.get("number", "")).strip()
    text = f"{move}{int(value)}"
    play(request, view.game, board_id, userid, text, number, str(form.get("comment", "")))
    return back


def fragment(heading: str, nothing: str, items: Iterable[Choice]) -> HTMLResponse:
    """The picker's content: a heading and one button per choice."""
    choices = list(items)
    if not choices:
        html = f'<p class="picker-note">{escape(nothing)}</p>'
    else:
        parts = [f'<p class="picker-note">{escape(heading)}:</p>']
        for choice in choices:
            parts.append(
                f'<button type="button" class="choice" data-move={quoteattr(choice.move)} '
                f"aria-label={quoteattr(choice.description)} "
                f"title={quoteattr(choice.description)}>"
                f"{choice.picture}<span>{escape(choice.label)}</span></button>"
            )
        html = "\n".join(parts)
    return HTMLResponse(html + "\n", headers=NO_STORE)
