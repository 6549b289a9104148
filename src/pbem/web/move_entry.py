"""Move entry by clicking on a board page: the moves that are no click on
the board (pass, the button, Vacu's komi step) as buttons, and the small
answers `static/board.js` asks for while a player picks a move: the tile
orientations (Vasco) or rotations (Trugo) legal at a cell, pictured, and
where a Trugo piece can go. Everything is read from the board's state, so
the page offers exactly the legal moves; the text box stays the way to
move without JavaScript."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from ..games.base import State
from ..games.svg import Point, num, polygon
from ..games.trugo import svg_board as trugo_svg
from ..games.trugo.board import MOVE, PASS, PLACE
from ..games.trugo.geometry import (
    CORNER_DELTAS,
    CORNER_NAMES,
    CORNER_OFFSETS,
    ROTATIONS,
    SIDE_DELTAS,
    cell_id,
    cell_of,
    in_reach,
    point_of,
    vertex_name,
)
from ..games.trugo.state import TrugoMove, TrugoState
from ..games.vacu.state import BUTTON, COLOUR, KOMI, VacuState
from ..games.vacu.state import PASS as VACU_PASS
from ..games.vasco import geometry as vasco_geometry
from ..games.vasco import svg_board as vasco_svg
from ..games.vasco.state import VascoMove, VascoState
from .actions import flash, play, server_of
from .found import game_or_404, page_view
from .session import PostedForm, check_csrf, current_userid

router = APIRouter(include_in_schema=False)

PICTURE = 64  # the pictures' size on the page, in pixels
NO_STORE = {"Cache-Control": "no-store"}  # a board's answers change with every move
_CELL = re.compile(r"\s*([+-]?\d{1,9})\s*,\s*([+-]?\d{1,9})\s*")
_JUNCTION = re.compile(r"\s*([+-]?\d{1,9}),([+-]?\d{1,9})(ne|nw|se|sw|e|w)\s*", re.IGNORECASE)
KOMI_GAMES = ("vacu", "convacu")
FADED = ' opacity="0.45"'  # the tiles around the one a picture shows


@dataclass(frozen=True)
class MoveButton:
    """A move made by a button rather than a click on the board: its label,
    the move text it writes, and a hint saying what it does. With `field`
    (the least and greatest value) the player adds a number to `move`:
    the komi step's `komi6`."""

    label: str
    move: str
    hint: str
    field: tuple[int, int] | None = None


# -- the buttons --------------------------------------------------------------


def move_buttons(state: State) -> list[MoveButton]:
    """The moves of the player to move that are no click on the board and
    are legal now (none once the game is over)."""
    if state.result is not None or state.to_move is None:
        return []
    if isinstance(state, VacuState):
        return _vacu_buttons(state)
    if isinstance(state, TrugoState):
        return _trugo_buttons(state)
    return []


def _vacu_buttons(state: VacuState) -> list[MoveButton]:
    """The komi step (name a komi, then choose a colour), the button, pass."""
    kinds = {move.kind: move for move in state.legal_moves() if move.kind != "stone"}
    buttons: list[MoveButton] = []
    if KOMI in kinds:
        limit = state.board.size**2
        buttons.append(
            MoveButton(
                "Offer komi",
                "komi",
                f"Name White's komi, a whole number from {-limit} to {limit}; the other "
                "player then chooses a colour, so make both colours equally good.",
                (-limit, limit),
            )
        )
    if COLOUR in kinds:
        komi = state.komi
        buttons += [
            MoveButton(
                "Play Black",
                "black",
                f"Take Black and play the first stone; White gets the komi of {komi} "
                "(the same as the swap command).",
            ),
            MoveButton(
                "Play White",
                "white",
                f"Take White and the komi of {komi}; the other player plays Black and starts.",
            ),
        ]
    if BUTTON in kinds:
        buttons.append(
            MoveButton(
                "Take the button",
                "button",
                "Half a point for you at the count, instead of placing a stone; nobody "
                "may pass until the button is taken.",
            )
        )
    if VACU_PASS in kinds:
        hint = "Place no stone this turn; a pass right after the other player's ends the game."
        if state.game.connection:
            hint = "You have no other legal move, so you pass."
        buttons.append(MoveButton("Pass", "pass", hint))
    return buttons


def _trugo_buttons(state: TrugoState) -> list[MoveButton]:
    """A pass, which is legal only when nothing else is."""
    moves = state.legal_moves()
    if len(moves) == 1 and moves[0].raw[0] == PASS:
        return [
            MoveButton(
                "Pass",
                "pass",
                "You have no tile to place or remove and no piece that can move, so you pass.",
            )
        ]
    return []


# -- the endpoints ------------------------------------------------------------


def current_state(request: Request, game_name: str, board_id: int) -> State:
    """The board's state now."""
    return page_view(server_of(request), game_name, board_id).state()


def parse_cell(text: str) -> tuple[int, int]:
    """`col,row` as two integers; 422 otherwise."""
    match = _CELL.fullmatch(text)
    if not match:
        raise HTTPException(422, f"A cell is written col,row, like 1,-2, not {text[:20]!r}.")
    return int(match.group(1)), int(match.group(2))


@router.get("/vasco/{board_id}/choices", response_class=HTMLResponse)
def vasco_choices(request: Request, board_id: int, cell: str) -> HTMLResponse:
    """The orientations legal at a cell, each a button with a picture of
    the tile so placed among its neighbours (auto tiles included)."""
    state = current_state(request, "vasco", board_id)
    assert isinstance(state, VascoState)
    col, row = parse_cell(cell)
    moves = [move for move in state.legal_moves() if move.cell == (col, row)]
    buttons = [_vasco_choice(state, move) for move in moves]
    return _fragment(
        f"Cell {col},{row}: choose the tile's orientation",
        f"No tile can be placed at {col},{row} now.",
        buttons,
    )


@router.get("/trugo/{board_id}/choices", response_class=HTMLResponse)
def trugo_choices(request: Request, board_id: int, cell: str) -> HTMLResponse:
    """The rotations legal at a cell, each a button with a picture of the
    tile so placed among its neighbours."""
    state = current_state(request, "trugo", board_id)
    assert isinstance(state, TrugoState)
    col, row = parse_cell(cell)
    moves = [
        move
        for move in state.legal_moves()
        if move.raw[0] == PLACE and cell_of(move.raw[1]) == (col, row)
    ]
    buttons = [_trugo_choice(state, move) for move in moves]
    return _fragment(
        f"Cell {col},{row}: choose the tile's rotation",
        f"No tile can be placed at {col},{row} now.",
        buttons,
    )


@router.get("/trugo/{board_id}/targets")
def trugo_targets(
    request: Request, board_id: int, start: str = Query(alias="from")
) -> JSONResponse:
    """Every legal move of the piece on junction `from` (any of its names),
    as full move texts like `1,0e-0,1w`; empty when it cannot move."""
    state = current_state(request, "trugo", board_id)
    assert isinstance(state, TrugoState)
    vid = parse_junction(start)
    moves = [
        move.text for move in state.legal_moves() if move.raw[0] == MOVE and move.raw[1] == vid
    ]
    return JSONResponse(moves, headers=NO_STORE)


@router.get("/trugo/{board_id}/pieces")
def trugo_pieces(request: Request, board_id: int) -> JSONResponse:
    """The junctions (canonical names) whose top piece the player to move
    can move now: the pieces the page makes clickable."""
    state = current_state(request, "trugo", board_id)
    assert isinstance(state, TrugoState)
    starts = dict.fromkeys(
        vertex_name(move.raw[1]) for move in state.legal_moves() if move.raw[0] == MOVE
    )
    return JSONResponse(list(starts), headers=NO_STORE)


def parse_junction(text: str) -> int:
    """A junction's vertex id from any of its names (`1,0e`, `1,-1sw`); 422
    for anything else."""
    match = _JUNCTION.fullmatch(text)
    if not match:
        raise HTTPException(
            422, f"A junction is a cell and a corner, like 1,0e or 0,-1sw, not {text[:20]!r}."
        )
    col, row = int(match.group(1)), int(match.group(2))
    if not in_reach(col, row):
        raise HTTPException(422, f"Cell {col},{row} is far beyond any tile.")
    return cell_id(col, row) + CORNER_DELTAS[CORNER_NAMES.index(match.group(3).lower())]


@router.post("/{game_name}/{board_id}/komi", dependencies=[Depends(check_csrf)])
def offer_komi(
    request: Request, game_name: str, board_id: int, form: PostedForm
) -> RedirectResponse:
    """The komi step's form without JavaScript: the number field becomes
    the move `komiN`, played as the move form plays a move (with the `#N`
    guard). With JavaScript the page writes `komiN` in the move box instead."""
    game = game_or_404(game_name)
    if game.name not in KOMI_GAMES:
        raise HTTPException(404, f"{game.title} has no komi step.")
    page_view(server_of(request), game.name, board_id)  # (a 404 for no such board)
    userid = current_userid(request)
    if userid is None:
        raise HTTPException(403, "Log in first: only a board's players may act on it.")
    back = RedirectResponse(f"/{game.name}/{board_id}", status_code=303)
    komi = str(form.get("komi", "")).strip()
    if not re.fullmatch(r"[+-]?\d{1,9}", komi):
        flash(request, "The komi is a whole number, like 6 or -2.", "error")
        return back
    text = f"komi{int(komi)}"
    number = str(form.get("number", "")).strip()
    play(request, game.name, board_id, userid, text, number, str(form.get("comment", "")))
    return back


# -- the pictures -------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One button of the picker: the move, its label and its picture."""

    move: str
    label: str
    description: str
    picture: str


def _fragment(heading: str, nothing: str, choices: Iterable[Choice]) -> HTMLResponse:
    """The picker's content: a heading and one button per choice."""
    items = list(choices)
    if not items:
        html = f'<p class="picker-note">{escape(nothing)}</p>'
    else:
        parts = [f'<p class="picker-note">{escape(heading)}:</p>']
        for choice in items:
            parts.append(
                f'<button type="button" class="choice" data-move={quoteattr(choice.move)} '
                f"aria-label={quoteattr(choice.description)} "
                f"title={quoteattr(choice.description)}>"
                f"{choice.picture}<span>{escape(choice.label)}</span></button>"
            )
        html = "\n".join(parts)
    return HTMLResponse(html + "\n", headers=NO_STORE)


def _svg(centre: Point, span: float, body: list[str]) -> str:
    """A small square picture of `span` units around `centre`, drawn at
    PICTURE pixels; hidden from screen readers (the button says it in words)."""
    left, top = centre[0] - span / 2, centre[1] - span / 2
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PICTURE}" height="{PICTURE}" '
        f'viewBox="{num(left)} {num(top)} {num(span)} {num(span)}" aria-hidden="true" '
        f'focusable="false">'
        f'<rect x="{num(left)}" y="{num(top)}" width="{num(span)}" height="{num(span)}" '
        f'fill="#fff"/>' + "".join(body) + "</svg>"
    )


def _vasco_choice(state: VascoState, move: VascoMove) -> Choice:
    """Orientation `move` at its cell: the tile after the move with the
    tiles around it faded, the new tile outlined; the label tells about
    auto tiles and a game-ending loop."""
    after = state.play(move)
    assert isinstance(after, VascoState)
    col, row = move.cell
    near = {
        (c, r): orientation
        for c, r, orientation, _ in after.tiles()
        if abs(c - col) <= 3 and abs(r - row) <= 2
    }
    autos = max(0, len(after.last) - 1)
    letter = vasco_geometry.LETTERS[move.orientation]
    sides = ", ".join(
        f"{vasco_geometry.SIDE_NAMES[k]} edge {('red', 'blue', 'purple')[colour]}"
        for k, colour in enumerate(vasco_geometry.SIDE_COLOURS[move.orientation])
    )
    label = move.text + (f" +{autos} auto" if autos else "")
    description = f"Orientation {letter} at {col},{row}: {sides}"
    if autos:
        description += f"; {autos} auto tile{'s' if autos > 1 else ''} follow"
    if after.result is not None:
        label += " (ends)"
        description += "; this ends the game"
    placed = {vasco_geometry.cell_of(cid) for cid in after.last}  # the tile and its auto tiles
    body = [
        _vasco_tile(c, r, orientation, faded=(c, r) not in placed)
        for (c, r), orientation in sorted(near.items(), key=lambda item: item[0] in placed)
    ]
    here = vasco_svg.corners(col, row)
    body.append(
        f'<polygon points="{polygon(here)}" fill="none" stroke="{vasco_svg.LAST_PLACED}" '
        f'stroke-width="3" stroke-linejoin="round"/>'
    )
    xs = [x for x, _ in here]
    ys = [y for _, y in here]
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    return Choice(move.text, label, description, _svg(centre, vasco_svg.SIDE * 1.3, body))


def _vasco_tile(col: int, row: int, orientation: int, faded: bool) -> str:
    """One Vasco tile as the board draws it: triangle, red and blue arcs,
    purple lens."""
    shapes = vasco_svg.TileShapes(col, row, orientation)
    colours = vasco_svg.PATH_COLOURS
    red, blue = vasco_geometry.RED, vasco_geometry.BLUE
    width = num(vasco_svg.PATH_WIDTH)
    opacity = FADED if faded else ""
    return (
        f"<g{opacity}>"
        f'<polygon points="{polygon(shapes.corners)}" fill="{vasco_svg.TILE_FILL}" '
        f'stroke="{vasco_svg.TILE_EDGE}" stroke-width="0.8"/>'
        f'<path d="{shapes.arc(red)}" fill="none" stroke="{colours[red]}" stroke-width="{width}"/>'
        f'<path d="{shapes.arc(blue)}" fill="none" stroke="{colours[blue]}" '
        f'stroke-width="{width}"/>'
        f'<path d="{shapes.lens()}" fill="{colours[vasco_geometry.PURPLE]}"/></g>'
    )


def _hexagon(cid: int) -> list[Point]:
    """A Trugo cell's corners on the page, as the board draws them."""
    x, y = point_of(cid)
    cx, cy = x * trugo_svg.STEP_X, y * trugo_svg.STEP_Y
    return [(cx + dx * trugo_svg.STEP_X, cy + dy * trugo_svg.STEP_Y) for dx, dy in CORNER_OFFSETS]


def _trugo_choice(state: TrugoState, move: TrugoMove) -> Choice:
    """Rotation `move` at its cell: the tile with its neighbours faded and
    the new tile outlined."""
    _, cid, rotation = move.raw
    letter = ROTATIONS[rotation]
    col, row = cell_of(cid)
    white_tip = CORNER_NAMES[2 * rotation]
    blue_tip = CORNER_NAMES[(2 * rotation + 3) % 6]
    description = (
        f"Rotation {letter} at {col},{row}: white tip at {white_tip}, blue tip at {blue_tip}"
    )
    tiles = state.board.tiles
    body: list[str] = []
    for other, other_rotation, faded in [
        *((cid + d, tiles[cid + d], True) for d in SIDE_DELTAS if cid + d in tiles),
        (cid, rotation, False),
    ]:
        opacity = FADED if faded else ""
        body.append(
            f'<g{opacity}><polygon points="{polygon(_hexagon(other))}" '
            f'fill="{trugo_svg.TILE_WHITE}" stroke="{trugo_svg.TILE_EDGE}" stroke-width="0.8"/>'
            f'<path d="{trugo_svg.blue_half(other, other_rotation)}" '
            f'fill="{trugo_svg.TILE_BLUE}"/></g>'
        )
    body.append(
        f'<polygon points="{polygon(_hexagon(cid))}" fill="none" stroke="{trugo_svg.LAST}" '
        f'stroke-width="3" stroke-linejoin="round"/>'
    )
    x, y = point_of(cid)
    centre = (x * trugo_svg.STEP_X, y * trugo_svg.STEP_Y)
    return Choice(move.text, move.text, description, _svg(centre, trugo_svg.RADIUS * 2.5, body))
